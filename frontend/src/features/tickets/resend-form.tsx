import { useId, useState, type FormEvent } from 'react';
import { INVALID_EMAIL_MESSAGE, isEmailAddress } from '@awhh/machines';
import { jsonAction, useApiForm } from '@/lib/form-action';
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

/** The action of the routes that show the form (the ticket and the order page). */
export const resendTicketsAction = jsonAction(({ email }: { email: string }) =>
  resendTickets(email),
);

/**
 * rules "Tickets and the door": `POST /api/tickets/resend` answers 202 for any address, so
 * the text never says whether tickets exist (no enumeration). The route that shows it
 * exports `resendTicketsAction` as its action.
 */
export function ResendTicketsForm({ defaultEmail }: ResendTicketsFormProps) {
  const inputId = useId();
  const [email, setEmail] = useState(defaultEmail ?? '');
  const [invalid, setInvalid] = useState(false);
  const { status, submit, reset } = useApiForm<void>();
  const error = invalid ? INVALID_EMAIL_MESSAGE : undefined;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = email.trim();
    if (!isEmailAddress(value)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    void submit({ email: value });
  }

  return (
    <details className={styles.resend}>
      <summary>Tickets erneut senden</summary>
      <form noValidate onSubmit={onSubmit} className={styles.resendForm}>
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
              // A new address: the last answer was about the old one.
              if (status.state === 'done' || status.state === 'error') reset();
            }}
          />
        </Field>
        <Button type="submit" variant="secondary" disabled={status.state === 'submitting'}>
          {status.state === 'submitting' ? 'Wird gesendet …' : 'Tickets erneut senden'}
        </Button>
        <div aria-live="polite" className={styles.resendResult}>
          {status.state === 'done' ? (
            <Alert tone="success">
              <p>{RESEND_DONE_TEXT}</p>
            </Alert>
          ) : null}
          {status.state === 'error' ? (
            <Alert tone="error">
              <p>{status.message}</p>
            </Alert>
          ) : null}
        </div>
      </form>
    </details>
  );
}
