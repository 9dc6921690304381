import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  formatLongDate,
  formatTime,
  INVALID_EMAIL_MESSAGE,
  isEmailAddress,
  type Ticket,
  type TicketTransferResult,
} from '@awhh/machines';
import { useApiForm } from '@/lib/form-action';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { controlClass, controlProps, Field } from '@/components/ui/field';
import { companyError, HolderFields, nameError } from './holder-form';
import type { TicketFormBody } from './ticket-actions';
import styles from './tickets.module.css';

/** "Freitag, 11. Dezember 2026 um 16:00 Uhr" (formatTime says "Uhr"): when passing on closes. */
function deadlineText(iso: string): string | null {
  const date = formatLongDate(iso);
  const time = formatTime(iso);
  return date ? `${date}${time ? ` um ${time}` : ''}` : null;
}

export interface TransferTicketFormProps {
  ticket: Pick<Ticket, 'token' | 'transferable' | 'transferUntil'>;
  /** The ticket went to someone else: the page's link is void from now on. */
  onTransferred: (result: TicketTransferResult) => void;
}

/**
 * rules "Named tickets": "Ticket weitergeben". The new holder gets the ticket by mail with a
 * new link, QR code and ticket code; this page's stop working. Until
 * TICKET_TRANSFER_UNTIL_HOURS before the start, for a ticket not checked in.
 */
export function TransferTicketForm({ ticket, onTransferred }: TransferTicketFormProps) {
  const emailId = useId();
  const [name, setName] = useState('');
  const [company, setCompany] = useState('');
  const [email, setEmail] = useState('');
  const [checked, setChecked] = useState(false);
  const { status, submit, reset } = useApiForm<TicketTransferResult>();
  const done = status.state === 'done' ? status.data : null;
  // Told after the render: the page then says the link is void.
  useEffect(() => {
    if (done) onTransferred(done);
  }, [done, onTransferred]);

  if (ticket.transferable === false) {
    return (
      <details className={styles.resend}>
        <summary>Ticket weitergeben</summary>
        <p className={styles.muted}>
          Dieses Ticket kann nicht mehr weitergegeben werden: Das geht nur bis kurz vor Beginn und
          nicht mehr nach dem Einlass.
        </p>
      </details>
    );
  }

  const errors = {
    name: nameError(name, true),
    company: companyError(company),
    email: isEmailAddress(email.trim()) ? undefined : INVALID_EMAIL_MESSAGE,
  };
  const until = ticket.transferUntil ? deadlineText(ticket.transferUntil) : null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setChecked(true);
    if (errors.name || errors.company || errors.email) return;
    const body: TicketFormBody = {
      intent: 'transfer',
      token: ticket.token,
      to: { name: name.trim(), company: company.trim() || null, email: email.trim() },
    };
    void submit(body);
  }

  const changed = (set: (value: string) => void) => (value: string) => {
    set(value);
    if (status.state === 'error') reset();
  };

  return (
    <details className={styles.resend}>
      <summary>Ticket weitergeben</summary>
      <form noValidate onSubmit={onSubmit} className={styles.holderForm}>
        <p className={styles.muted}>
          Du kannst nicht kommen? Gib das Ticket an jemand anderen weiter
          {until ? ` – bis ${until}` : ''}. Die Person bekommt es per E-Mail mit neuem QR-Code und
          Ticket-Code.{' '}
          <strong>Dieser Link, sein QR-Code und sein Ticket-Code gelten danach nicht mehr.</strong>
        </p>
        <HolderFields
          name={name}
          company={company}
          nameError={checked ? errors.name : undefined}
          companyError={checked ? errors.company : undefined}
          onName={changed(setName)}
          onCompany={changed(setCompany)}
        />
        <Field
          id={emailId}
          label="E-Mail-Adresse der neuen Person"
          error={checked ? errors.email : undefined}
          className={styles.resendField}
        >
          <input
            {...controlProps(emailId, checked ? errors.email : undefined)}
            className={controlClass}
            type="email"
            autoComplete="off"
            inputMode="email"
            value={email}
            onChange={(e) => changed(setEmail)(e.target.value)}
          />
        </Field>
        <Button type="submit" disabled={status.state === 'submitting'}>
          {status.state === 'submitting'
            ? 'Wird weitergegeben …'
            : 'Ticket verbindlich weitergeben'}
        </Button>
        <div aria-live="polite" className={styles.resendResult}>
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
