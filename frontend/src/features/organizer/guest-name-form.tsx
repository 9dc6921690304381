import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { type Attendee, ticketHolderRequestSchema } from '@awhh/machines';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { controlClass, controlProps, Field } from '@/components/ui/field';
import { ApiRequestError, errorText } from '@/lib/api-client';
import { setGuestName } from './guests-api';
import styles from './guest-list.module.css';

export interface GuestNameFormProps {
  attendee: Attendee;
  /** The name and company now on the ticket, as the server saved them. */
  onSaved: (holder: { name: string; company: string | null }) => void;
  onClose: () => void;
  /** A request was refused (401): the page asks whether the session still holds. */
  onSessionDoubt: () => void;
}

type FieldErrors = { name?: string; company?: string };

/** The same bounds and words as the server's (`ticketHolderRequestSchema`). */
function check(name: string, company: string): FieldErrors {
  const parsed = ticketHolderRequestSchema.safeParse({ name, company });
  if (parsed.success) return {};
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] === 'company' ? 'company' : 'name';
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * rules "Named tickets": the organizer corrects who comes with a ticket, in the guest card
 * itself. The ticket's code and link stay as they are; the door's list shows the new name
 * from its next sync. Escape or "Abbrechen" closes the form without saving.
 */
export function GuestNameForm({ attendee, onSaved, onClose, onSessionDoubt }: GuestNameFormProps) {
  const nameId = useId();
  const companyId = useId();
  const titleId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(attendee.name ?? '');
  const [company, setCompany] = useState(attendee.company ?? '');
  const [checked, setChecked] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const errors = checked ? check(name, company) : {};

  useEffect(() => {
    nameRef.current?.focus();
    nameRef.current?.select();
  }, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setChecked(true);
    const found = check(name, company);
    if (found.name || found.company) return;
    setSaving(true);
    setFailure(null);
    try {
      const saved = await setGuestName(attendee.ticketId, {
        name: name.trim(),
        company: company.trim() || null,
      });
      onSaved({ name: saved.holder, company: saved.company });
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 401) onSessionDoubt();
      setFailure(errorText(error));
      setSaving(false);
    }
  }

  return (
    <form
      className={styles.rename}
      aria-labelledby={titleId}
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !saving) {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <p id={titleId} className={styles.renameTitle}>
        Name ändern
        {attendee.seats > 1 ? ` (Platz ${attendee.seat} von ${attendee.seats})` : ''}
      </p>
      <Field id={nameId} label="Name" error={errors.name}>
        <input
          {...controlProps(nameId, errors.name)}
          ref={nameRef}
          className={controlClass}
          type="text"
          autoComplete="off"
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </Field>
      <Field id={companyId} label="Firma (optional)" error={errors.company}>
        <input
          {...controlProps(companyId, errors.company)}
          className={controlClass}
          type="text"
          autoComplete="off"
          maxLength={100}
          value={company}
          onChange={(e) => setCompany(e.target.value)}
        />
      </Field>
      <div aria-live="polite">{failure ? <Alert tone="error">{failure}</Alert> : null}</div>
      <div className={styles.actions}>
        <Button type="submit" disabled={saving}>
          {saving ? 'Wird gespeichert …' : 'Speichern'}
        </Button>
        <Button variant="secondary" onClick={onClose} disabled={saving}>
          Abbrechen
        </Button>
      </div>
    </form>
  );
}
