import { useId, useState, type FormEvent } from 'react';
import { INVALID_EMAIL_MESSAGE, isEmailAddress } from '@awhh/machines';
import { errorText } from '@/lib/api-client';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { controlClass, controlProps, Field } from '@/components/ui/field';
import { resendTickets } from './api';
import styles from './tickets.module.css';

export const RESEND_DONE_TEXT =
  'Falls es Tickets zu dieser Adresse gibt, schicken wir sie dir gleich noch einmal.';

export interface ResendTicketsFormProps {
  defaultEmail?: string | null;
}

type Status =
  { kind: 'idle' } | { kind: 'sending' } | { kind: 'done' } | { kind: 'failed'; message: string };

/**
 * rules "Tickets and the door": `POST /api/tickets/resend` answers 202 for any address, so
 * the text never says whether tickets exist (no enumeration).
 */
export function ResendTicketsForm({ defaultEmail }: ResendTicketsFormProps) {
  const inputId = useId();
  const [email, setEmail] = useState(defaultEmail ?? '');
  const [invalid, setInvalid] = useState(false);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const error = invalid ? INVALID_EMAIL_MESSAGE : undefined;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = email.trim();
    if (!isEmailAddress(value)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setStatus({ kind: 'sending' });
    try {
      await resendTickets(value);
      setStatus({ kind: 'done' });
    } catch (error) {
      setStatus({ kind: 'failed', message: errorText(error) });
    }
  }

  return (
    <details className={styles.resend}>
      <summary>Tickets erneut senden</summary>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className={styles.resendForm}>
        <p className={styles.muted}>
          Keine Mail bekommen? Gib die Adresse deiner Bestellung ein, wir schicken dir deine
          gültigen Tickets noch einmal.
        </p>
        <Field id={inputId} label="E-Mail-Adresse" error={error} className={styles.resendField}>
          <input
            {...controlProps(inputId, error)}
            className={controlClass}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            required
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              if (status.kind !== 'sending') setStatus({ kind: 'idle' });
            }}
          />
        </Field>
        <Button type="submit" variant="secondary" disabled={status.kind === 'sending'}>
          {status.kind === 'sending' ? 'Wird gesendet …' : 'Tickets erneut senden'}
        </Button>
        <div aria-live="polite" className={styles.resendResult}>
          {status.kind === 'done' ? (
            <Alert tone="success">
              <p>{RESEND_DONE_TEXT}</p>
            </Alert>
          ) : null}
          {status.kind === 'failed' ? (
            <Alert tone="error">
              <p>{status.message}</p>
            </Alert>
          ) : null}
        </div>
      </form>
    </details>
  );
}
