import { useEffect, useState } from 'react';
import { formatDateTime, type OrganizerDoorCode, type OrganizerDoorDevices } from '@awhh/machines';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { errorText } from '@/lib/api-client';
import {
  endDoorDevice,
  endDoorDevices,
  fetchDoorCode,
  fetchDoorDevices,
  renewDoorCode,
} from './extras-api';
import styles from './event-tools.module.css';

/**
 * rules "The organizer": the door code the staff type at /einlass, hidden until asked for
 * (the screen may be seen at the venue); "Türcode erneuern" locks out every door phone
 * unlocked with the old one. With CHECKIN_CODE set it says where the code is changed.
 * Below it the devices signed in with the code, each to be signed out alone (a lost phone).
 */
export function DoorCodePanel() {
  const [door, setDoor] = useState<OrganizerDoorCode | null>(null);
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [renewed, setRenewed] = useState(false);
  const [devices, setDevices] = useState<OrganizerDoorDevices['devices'] | null>(null);
  const [signedOut, setSignedOut] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const failed = (failure: unknown) => {
      if (!controller.signal.aborted) setError(errorText(failure));
    };
    fetchDoorCode(controller.signal).then(setDoor, failed);
    fetchDoorDevices(controller.signal).then((answer) => setDevices(answer.devices), failed);
    return () => controller.abort();
  }, []);

  const signOut = async (id: string | null) => {
    setBusy(true);
    setError(null);
    try {
      if (id === null) await endDoorDevices();
      else await endDoorDevice(id);
      const name = devices?.find((d) => d.id === id)?.device;
      setSignedOut(
        id === null ? 'Alle Geräte sind abgemeldet.' : `„${name ?? ''}“ ist abgemeldet.`,
      );
      setDevices((list) => (id === null ? [] : (list ?? []).filter((d) => d.id !== id)));
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  const renew = async () => {
    setBusy(true);
    setError(null);
    try {
      setDoor(await renewDoorCode());
      // Every device signed in with the old code is signed out with it.
      setDevices([]);
      setShown(true);
      setRenewed(true);
      setConfirming(false);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.door} aria-labelledby="organizer-door-code">
      <h2 id="organizer-door-code" className={styles.toolTitle}>
        Türcode für /einlass
      </h2>
      {door ? (
        <>
          <p
            className={styles.code}
            aria-live="polite"
            data-door-code={shown ? door.code : undefined}
          >
            {shown ? door.code : '•••• •••• •••• ••••'}
          </p>
          <div className={styles.row}>
            <Button variant="ghost" onClick={() => setShown((s) => !s)} aria-pressed={shown}>
              {shown ? 'Verbergen' : 'Anzeigen'}
            </Button>
            {door.renewable ? (
              confirming ? null : (
                <Button variant="secondary" onClick={() => setConfirming(true)} disabled={busy}>
                  Türcode erneuern
                </Button>
              )
            ) : null}
          </div>
          {!door.renewable ? (
            <p className={styles.hint}>
              Der Türcode ist über CHECKIN_CODE fest eingestellt. Erneuern lässt er sich nur dort:
              neuen CHECKIN_CODE setzen und die Website neu starten.
            </p>
          ) : null}
          {confirming ? (
            <div className={styles.confirm} role="group" aria-label="Türcode erneuern bestätigen">
              <p>
                Alle Einlassgeräte werden sofort abgemeldet und brauchen den neuen Code. Jetzt
                erneuern?
              </p>
              <div className={styles.row}>
                <Button onClick={() => void renew()} disabled={busy}>
                  {busy ? 'Wird erneuert …' : 'Ja, erneuern'}
                </Button>
                <Button variant="ghost" onClick={() => setConfirming(false)}>
                  Abbrechen
                </Button>
              </div>
            </div>
          ) : null}
          {renewed ? (
            <Alert tone="success">
              Neuer Türcode aktiv. Alle Einlassgeräte sind abgemeldet und fragen nach dem neuen
              Code.
            </Alert>
          ) : null}
        </>
      ) : error ? null : (
        <p className={styles.hint}>Der Türcode wird geladen …</p>
      )}
      {devices !== null ? (
        <div role="group" aria-labelledby="organizer-door-devices">
          <h3 id="organizer-door-devices" className={styles.toolTitle}>
            Angemeldete Einlassgeräte
          </h3>
          {devices.length === 0 ? (
            <p className={styles.hint}>Gerade ist kein Gerät mit dem Türcode angemeldet.</p>
          ) : (
            <>
              <ul className={styles.handoffs}>
                {devices.map((d) => (
                  <li key={d.id}>
                    <p>
                      <strong>{d.device}</strong> · zuletzt aktiv{' '}
                      {formatDateTime(d.lastSeenAt) ?? ''}
                    </p>
                    <Button
                      variant="ghost"
                      onClick={() => void signOut(d.id)}
                      disabled={busy}
                      aria-label={`Gerät „${d.device}“ (angemeldet ${formatDateTime(d.createdAt) ?? ''}) abmelden`}
                    >
                      Gerät abmelden
                    </Button>
                  </li>
                ))}
              </ul>
              {devices.length > 1 ? (
                <Button variant="secondary" onClick={() => void signOut(null)} disabled={busy}>
                  Alle Geräte abmelden
                </Button>
              ) : null}
            </>
          )}
          {signedOut ? <Alert tone="success">{signedOut}</Alert> : null}
        </div>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </section>
  );
}
