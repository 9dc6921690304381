import { useId, useState, useSyncExternalStore, type FormEvent } from 'react';
import { countText, doorTime } from '@awhh/machines';
import { doorStore } from './door-store';
import { GuestList } from './guest-list';
import { Scanner } from './scanner';
import styles from './door.module.css';

function useOnline(): boolean {
  return useSyncExternalStore(
    (listener) => {
      window.addEventListener('online', listener);
      window.addEventListener('offline', listener);
      return () => {
        window.removeEventListener('online', listener);
        window.removeEventListener('offline', listener);
      };
    },
    () => navigator.onLine,
    () => true,
  );
}

export function useDoorSnapshot() {
  return useSyncExternalStore(doorStore.subscribe, doorStore.getSnapshot, doorStore.getSnapshot);
}

function ManualEntry({ onCode }: { onCode: (text: string) => void }) {
  const [text, setText] = useState('');
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') return;
    onCode(text);
    setText('');
  };
  return (
    <form className={styles.manual} onSubmit={submit}>
      <label htmlFor={id} className={styles.label}>
        Ticket-Code eingeben
      </label>
      <p className={styles.hint} id={`${id}-hint`}>
        Der Code unter dem QR-Code, z. B. K7QM-3XPA, oder der Link zum Ticket.
      </p>
      <div className={styles.manualRow}>
        <input
          id={id}
          className={styles.textInput}
          value={text}
          onChange={(e) => setText(e.target.value)}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          aria-describedby={`${id}-hint`}
        />
        <button type="submit" className={styles.primary}>
          Prüfen
        </button>
      </div>
    </form>
  );
}

function DeviceName({ device }: { device: string }) {
  // Keyed by the saved name, so a new name starts a fresh field.
  const [name, setName] = useState(device);
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void doorStore.setDevice(name);
  };
  return (
    <form className={styles.device} onSubmit={submit}>
      <label htmlFor={id} className={styles.label}>
        Name dieses Geräts
      </label>
      <div className={styles.manualRow}>
        <input
          id={id}
          className={styles.textInput}
          value={name}
          maxLength={40}
          onChange={(e) => setName(e.target.value)}
          autoComplete="off"
        />
        <button type="submit" className={styles.secondary} disabled={name.trim() === device}>
          Speichern
        </button>
      </div>
    </form>
  );
}

export interface ScanScreenProps {
  onCode: (text: string) => void;
  onChangeEvent: () => void;
  onLock: () => void;
}

/** Scanning (rules "Tickets and the door"): camera, counter, manual entry, sync state. */
export function ScanScreen({ onCode, onChangeEvent, onLock }: ScanScreenProps) {
  const snapshot = useDoorSnapshot();
  const online = useOnline();
  const status = !online
    ? `Offline – ${snapshot.pending === 1 ? '1 Scan wartet' : `${snapshot.pending} Scans warten`} auf Verbindung`
    : snapshot.pending > 0
      ? `${snapshot.pending === 1 ? '1 Scan wird' : `${snapshot.pending} Scans werden`} übertragen …`
      : snapshot.lastSync
        ? `Online · abgeglichen um ${doorTime(snapshot.lastSync)}`
        : 'Online';
  return (
    <section
      className={online ? styles.scan : `${styles.scan} ${styles.scanOffline}`}
      aria-labelledby="door-title"
      data-online={online ? 'ja' : 'nein'}
    >
      {online ? null : (
        <p className={styles.offlineBanner} role="status">
          Keine Verbindung: das Gerät prüft mit seiner Liste. Stornos seit dem letzten Abgleich
          kennt es nicht.
        </p>
      )}
      <header className={styles.scanHeader}>
        <div>
          <p className={styles.eyebrow}>Einlass · {snapshot.device}</p>
          <h1 id="door-title" className={styles.eventTitle}>
            {snapshot.event?.name ?? 'Event'}
          </h1>
        </div>
        <p className={styles.counter} aria-live="polite">
          {countText(snapshot)}
        </p>
        <p className={online ? styles.online : styles.offline}>{status}</p>
      </header>
      <Scanner onCode={onCode} />
      <ManualEntry onCode={onCode} />
      <GuestList version={snapshot} onCheckIn={onCode} />
      {snapshot.log.length > 0 ? (
        <section className={styles.log} aria-labelledby="door-log">
          <h2 id="door-log" className={styles.subtitle}>
            Abgleich mit dem Server
          </h2>
          <ul>
            {snapshot.log.slice(0, 10).map((entry) => (
              <li
                key={entry.id ?? `${entry.at}-${entry.text}`}
                className={styles[`log_${entry.kind}`]}
              >
                <time dateTime={entry.at}>{doorTime(entry.at)}</time> {entry.text}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <DeviceName key={snapshot.device} device={snapshot.device} />
      <div className={styles.actions}>
        <button type="button" className={styles.secondary} onClick={onChangeEvent}>
          Event wechseln
        </button>
        <button type="button" className={styles.ghost} onClick={onLock}>
          Einlass sperren
        </button>
      </div>
    </section>
  );
}
