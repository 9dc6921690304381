import { useId, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/feedback';
import styles from './door.module.css';

export interface LockScreenProps {
  busy: boolean;
  error: string | null;
  /**
   * Seconds of the server's lockout of this address after too many wrong codes; 0 when none.
   * Meanwhile the server compares no code from here, the right one included; the field
   * stays open for when the lockout ends.
   */
  lockedOutFor: number;
  onUnlock: (code: string) => void;
}

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} Sekunden`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 Minute' : `${minutes} Minuten`;
}

/** rules "Tickets and the door": the door code unlocks the page on this device. */
export function LockScreen({ busy, error, lockedOutFor, onUnlock }: LockScreenProps) {
  const [code, setCode] = useState('');
  const inputId = useId();
  const hintId = useId();
  const lockedOut = lockedOutFor > 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onUnlock(code);
  };
  return (
    <section className={styles.panel} aria-labelledby="door-title">
      <p className={styles.eyebrow}>Check-in für das Team an der Tür</p>
      <h1 id="door-title" className={styles.title}>
        Einlass
      </h1>
      <form className={styles.lockForm} onSubmit={submit} noValidate>
        <label htmlFor={inputId} className={styles.label}>
          Türcode
        </label>
        <p id={hintId} className={styles.hint}>
          Den Code bekommst du vom Veranstalter. Danach bleibt dieses Gerät bis zum Ende des
          nächsten Tages freigeschaltet, oder bis du den Einlass sperrst.
        </p>
        <input
          id={inputId}
          className={styles.codeInput}
          name="door-code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-describedby={hintId}
          aria-invalid={error !== null}
        />
        <button type="submit" className={styles.primary} disabled={busy}>
          {busy ? 'Wird geprüft …' : 'Entsperren'}
        </button>
      </form>
      {lockedOut ? (
        <Alert tone="error" title="Zu viele Fehlversuche">
          <p>
            {error ?? 'Zu viele falsche Versuche.'} Türcodes aus diesem Netz werden noch etwa{' '}
            {waitText(lockedOutFor)} lang abgewiesen, auch der richtige.
          </p>
        </Alert>
      ) : error ? (
        <Alert tone="error">
          <p>{error}</p>
        </Alert>
      ) : null}
    </section>
  );
}
