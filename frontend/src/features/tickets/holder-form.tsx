import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Ticket, TicketLink } from '@awhh/machines';
import { useApiForm } from '@/lib/form-action';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { controlClass, controlProps, Field } from '@/components/ui/field';
import type { TicketFormBody } from './ticket-actions';
import styles from './tickets.module.css';

// rules "Named tickets": who comes with a ticket. The server checks the same bounds
// (ticketHolderRequestSchema); the browser says it before sending, in the same words.
const NAME_MIN = 2;
const NAME_MAX = 80;
export const NAME_TOO_SHORT = 'Bitte gib einen Namen mit mindestens 2 Zeichen ein.';
const NAME_TOO_LONG = 'Der Name ist zu lang (höchstens 80 Zeichen).';
const COMPANY_TOO_LONG = 'Der Firmenname ist zu lang (höchstens 80 Zeichen).';

export function nameError(name: string, required: boolean): string | undefined {
  const value = name.trim();
  if (value === '') return required ? NAME_TOO_SHORT : undefined;
  if (value.length < NAME_MIN) return NAME_TOO_SHORT;
  if (value.length > NAME_MAX) return NAME_TOO_LONG;
  return undefined;
}

export function companyError(company: string): string | undefined {
  return company.trim().length > NAME_MAX ? COMPANY_TOO_LONG : undefined;
}

/** "Ticket 2 von 3 · VIP". */
function ticketTitle(ticket: Pick<TicketLink, 'seat' | 'seats' | 'tier'>): string {
  return [`Ticket ${ticket.seat} von ${ticket.seats}`, ticket.tier].filter(Boolean).join(' · ');
}

interface HolderFieldsProps {
  name: string;
  company: string;
  nameError?: string;
  companyError?: string;
  onName: (value: string) => void;
  onCompany: (value: string) => void;
}

/** A holder's name and company, each with its label (two columns from tablet width). */
export function HolderFields(props: HolderFieldsProps) {
  const nameId = useId();
  const companyId = useId();
  return (
    <div className={styles.holderFields}>
      <Field id={nameId} label="Vor- und Nachname" error={props.nameError}>
        <input
          {...controlProps(nameId, props.nameError)}
          className={controlClass}
          type="text"
          autoComplete="off"
          maxLength={NAME_MAX + 20}
          value={props.name}
          onChange={(e) => props.onName(e.target.value)}
        />
      </Field>
      <Field id={companyId} label="Firma (optional)" error={props.companyError}>
        <input
          {...controlProps(companyId, props.companyError)}
          className={controlClass}
          type="text"
          autoComplete="off"
          maxLength={NAME_MAX + 20}
          value={props.company}
          onChange={(e) => props.onCompany(e.target.value)}
        />
      </Field>
    </div>
  );
}

export interface TicketHolderFormProps {
  ticket: Pick<Ticket, 'token' | 'holder' | 'company' | 'seat' | 'seats'>;
  /** The name now on the ticket, once saved. */
  onSaved?: (holder: { holder: string; company: string | null }) => void;
}

/** The ticket page: "Wer kommt mit diesem Ticket?", named with the page's own token. */
export function TicketHolderForm({ ticket, onSaved }: TicketHolderFormProps) {
  const [name, setName] = useState(ticket.holder ?? '');
  const [company, setCompany] = useState(ticket.company ?? '');
  const [checked, setChecked] = useState(false);
  const { status, submit, reset } = useApiForm<{ holder: string; company: string | null }>();
  const errors = { name: nameError(name, true), company: companyError(company) };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setChecked(true);
    if (errors.name || errors.company) return;
    const body: TicketFormBody = {
      intent: 'holder',
      token: ticket.token,
      holder: { name: name.trim(), company: company.trim() || null },
    };
    void submit(body);
  }

  const done = status.state === 'done' ? status.data : null;
  // The page shows the saved name at once; told after the render, never during it.
  useEffect(() => {
    if (done) onSaved?.(done);
  }, [done, onSaved]);

  return (
    <section className={styles.holder} aria-labelledby="ticket-holder-title">
      <h2 id="ticket-holder-title" className={styles.sectionTitle}>
        Wer kommt mit diesem Ticket?
      </h2>
      <p className={styles.muted}>
        Der Name steht auf dem Ticket und auf dem Namensschild am Abend; am Einlass sehen wir ihn
        beim Scannen.
      </p>
      <form noValidate onSubmit={onSubmit} className={styles.holderForm}>
        <HolderFields
          name={name}
          company={company}
          nameError={checked ? errors.name : undefined}
          companyError={checked ? errors.company : undefined}
          onName={(value) => {
            setName(value);
            if (status.state !== 'idle') reset();
          }}
          onCompany={(value) => {
            setCompany(value);
            if (status.state !== 'idle') reset();
          }}
        />
        <Button type="submit" variant="secondary" disabled={status.state === 'submitting'}>
          {status.state === 'submitting' ? 'Wird gespeichert …' : 'Namen speichern'}
        </Button>
        <div aria-live="polite" className={styles.resendResult}>
          {done ? (
            <Alert tone="success">
              <p>Gespeichert: Das Ticket ist auf {done.holder} ausgestellt.</p>
            </Alert>
          ) : null}
          {status.state === 'error' ? (
            <Alert tone="error">
              <p>{status.message}</p>
            </Alert>
          ) : null}
        </div>
      </form>
    </section>
  );
}

interface Row {
  name: string;
  company: string;
}

export interface OrderHoldersFormProps {
  tickets: readonly TicketLink[];
}

/**
 * /success: "Wer kommt?" for each ticket of an order of several, each named with its own
 * token. The buyer holds the first ticket from the start, so their name stands there.
 * Tickets cancelled or passed on are not asked for.
 */
export function OrderHoldersForm({ tickets }: OrderHoldersFormProps) {
  const open = tickets.filter((t) => t.status === 'valid' && !t.passedOn);
  const [rows, setRows] = useState<Row[]>(() =>
    open.map((t) => ({ name: t.holder ?? '', company: t.company ?? '' })),
  );
  const [saved, setSaved] = useState<Row[]>(rows);
  const [sent, setSent] = useState<Row[] | null>(null);
  const [checked, setChecked] = useState(false);
  const { status, submit, reset } = useApiForm<{ saved: number }>();
  // What was sent counts as saved once the server took it (a refusal keeps it to send again).
  if (sent && status.state === 'done') {
    setSaved(sent);
    setSent(null);
  }
  if (open.length < 2) return null;

  const errors = rows.map((row) => ({
    name: nameError(row.name, false),
    company: companyError(row.company),
  }));
  const changed = open
    .map((ticket, i) => ({ ticket, row: rows[i]!, before: saved[i]! }))
    .filter(
      ({ row, before }) =>
        row.name.trim() !== '' &&
        (row.name.trim() !== before.name.trim() || row.company.trim() !== before.company.trim()),
    );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setChecked(true);
    if (errors.some((e) => e.name || e.company)) return;
    if (changed.length === 0) return;
    const body: TicketFormBody = {
      intent: 'holders',
      tickets: changed.map(({ ticket, row }) => ({
        token: ticket.token,
        label: ticketTitle(ticket),
        holder: { name: row.name.trim(), company: row.company.trim() || null },
      })),
    };
    setSent(rows);
    void submit(body);
  }

  function update(index: number, patch: Partial<Row>) {
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...patch } : row)));
    if (status.state !== 'idle') reset();
  }

  return (
    <section className={styles.holder} aria-labelledby="order-holders-title">
      <h3 id="order-holders-title" className={styles.sectionTitle}>
        Wer kommt?
      </h3>
      <p className={styles.muted}>
        Trag ein, wer mit welchem Ticket kommt: Die Namen stehen auf den Tickets und auf den
        Namensschildern, und am Einlass begrüßen wir alle mit Namen. Du kannst sie später auf jeder
        Ticketseite ändern.
      </p>
      <form noValidate onSubmit={onSubmit} className={styles.holderForm}>
        {open.map((ticket, i) => (
          <fieldset key={ticket.token} className={styles.holderSet}>
            <legend>{ticketTitle(ticket)}</legend>
            {new Set(open.map((t) => t.eventName)).size > 1 ? (
              <p className={styles.muted}>{ticket.eventName}</p>
            ) : null}
            <HolderFields
              name={rows[i]!.name}
              company={rows[i]!.company}
              nameError={checked ? errors[i]!.name : undefined}
              companyError={checked ? errors[i]!.company : undefined}
              onName={(name) => update(i, { name })}
              onCompany={(company) => update(i, { company })}
            />
          </fieldset>
        ))}
        <Button
          type="submit"
          disabled={
            status.state === 'submitting' || (changed.length === 0 && status.state !== 'error')
          }
        >
          {status.state === 'submitting' ? 'Wird gespeichert …' : 'Namen speichern'}
        </Button>
        <div aria-live="polite" className={styles.resendResult}>
          {status.state === 'done' ? (
            <Alert tone="success">
              <p>Danke! Die Namen stehen jetzt auf den Tickets.</p>
            </Alert>
          ) : null}
          {status.state === 'error' ? (
            <Alert tone="error">
              <p>{status.message}</p>
            </Alert>
          ) : null}
        </div>
      </form>
    </section>
  );
}
