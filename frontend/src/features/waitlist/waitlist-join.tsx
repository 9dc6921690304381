import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  INVALID_EMAIL_MESSAGE,
  isEmailAddress,
  WAITLIST_MAX_QUANTITY,
  type WaitlistJoinRequest,
} from '@awhh/machines';
import { paths } from '@/config/paths';
import { jsonAction, useApiForm } from '@/lib/form-action';
import { useHydrated } from '@/lib/use-hydrated';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import {
  ConsentField,
  controlClass,
  controlProps,
  Field,
  touchOnBlur,
} from '@/components/ui/field';
import { joinWaitlist } from './api';
import styles from './waitlist.module.css';

/** A sold-out stock unit the visitor can wait for: the event itself or one of its tiers. */
export interface WaitlistUnit {
  productId: number;
  variationId?: number;
  /** "VIP"; the event's name for an event without tiers. */
  label: string;
}

export interface WaitlistJoinProps {
  units: readonly WaitlistUnit[];
  /** Places are on sale after all (the server's 409): the page asks for the availability again. */
  onPlacesFree?: () => void;
}

type FieldName = 'email' | 'consent';
type Errors = Partial<Record<FieldName, string>>;

// The rules of `waitlistJoinRequestSchema`, checked without zod so it stays out of the
// event page's chunk; the server checks the same with the schema.

function validate(email: string, consent: boolean): Errors {
  const errors: Errors = {};
  if (!isEmailAddress(email)) errors.email = INVALID_EMAIL_MESSAGE;
  if (!consent) errors.consent = 'Bitte stimme der Datenschutzerklärung zu.';
  return errors;
}

const unitKey = (u: WaitlistUnit) => `${u.productId}:${u.variationId ?? ''}`;

/** The action of the route that shows the form: the entry to the API. */
export const joinWaitlistAction = jsonAction((request: WaitlistJoinRequest) =>
  joinWaitlist(request),
);

/**
 * rules "Waiting list": "Auf die Warteliste" on a sold-out event or tier. E-mail, how many
 * places (1–4) and the privacy consent; the answer is the same for every address, and the
 * entry counts only once the address is confirmed through the mail (double opt-in). The
 * route that shows it exports `joinWaitlistAction` as its action.
 */
export function WaitlistJoin({ units, onPlacesFree }: WaitlistJoinProps) {
  const hydrated = useHydrated();
  const ids = {
    heading: useId(),
    unit: useId(),
    email: useId(),
    quantity: useId(),
    consent: useId(),
  };
  const [open, setOpen] = useState(false);
  const [unit, setUnit] = useState(() => (units[0] ? unitKey(units[0]) : ''));
  const [email, setEmail] = useState('');
  const [quantity, setQuantity] = useState(1);
  const [consent, setConsent] = useState(false);
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});
  const { status, submit: send } = useApiForm<void>();
  const serverError = status.state === 'error' ? status.message : null;
  // The server takes entries only while everything is taken; it says so with a 409.
  const placesFree = status.state === 'error' && status.statusCode === 409;
  const formRef = useRef<HTMLFormElement>(null);
  const errors = validate(email, consent);
  const shown = (field: FieldName) => (touched[field] ? errors[field] : undefined);
  const chosen = units.find((u) => unitKey(u) === unit) ?? units[0];

  if (!chosen) return null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched({ email: true, consent: true });
    const first = (['email', 'consent'] as const).find((f) => errors[f]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(ids[first])}`)?.focus();
      return;
    }
    const request: WaitlistJoinRequest = {
      productId: chosen!.productId,
      ...(chosen!.variationId !== undefined ? { variationId: chosen!.variationId } : {}),
      quantity,
      email: email.trim(),
      consent: true,
    };
    void send(request);
  }

  return (
    <section className={styles.join} aria-labelledby={ids.heading}>
      <h2 id={ids.heading} className={styles.joinHeading}>
        Warteliste
      </h2>
      <p className={styles.hint}>
        {units.length === 1 && chosen.variationId !== undefined
          ? `„${chosen.label}“ ist ausverkauft. `
          : 'Ausverkauft? '}
        Wird etwas frei, reservieren wir die Plätze der Reihe nach für die Wartenden und schreiben
        dir eine E-Mail.
      </p>
      {status.state === 'done' ? (
        <div aria-live="polite">
          <Alert tone="success" title="Fast geschafft!">
            <p>
              Wir haben dir eine E-Mail geschickt. Bitte bestätige darin deine Adresse – erst dann
              stehst du auf der Warteliste.
            </p>
          </Alert>
        </div>
      ) : !open ? (
        // Enabled once hydrated: before, the click would open nothing.
        <Button
          variant="secondary"
          block
          aria-expanded={false}
          disabled={!hydrated}
          onClick={() => setOpen(true)}
        >
          Auf die Warteliste
        </Button>
      ) : (
        <form ref={formRef} className={styles.form} noValidate onSubmit={submit}>
          {serverError && placesFree ? (
            <Alert tone="info" title="Noch Plätze frei">
              <p>{serverError}</p>
              {onPlacesFree ? (
                <Button variant="secondary" onClick={onPlacesFree}>
                  Freie Plätze anzeigen
                </Button>
              ) : null}
            </Alert>
          ) : serverError ? (
            <Alert tone="error" title="Nicht eingetragen">
              <p>{serverError}</p>
            </Alert>
          ) : null}
          {units.length > 1 ? (
            <Field id={ids.unit} label="Ticketart">
              <select
                id={ids.unit}
                className={controlClass}
                value={unit}
                onChange={(e) => setUnit(e.target.value)}
              >
                {units.map((u) => (
                  <option key={unitKey(u)} value={unitKey(u)}>
                    {u.label}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
          <Field id={ids.email} label="E-Mail" error={shown('email')}>
            <input
              {...controlProps(ids.email, shown('email'))}
              className={controlClass}
              type="email"
              name="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              onBlur={touchOnBlur(() => setTouched((t) => ({ ...t, email: true })))}
              required
              // The form opens on the visitor's request: the address is what comes next.
              autoFocus
            />
          </Field>
          <Field id={ids.quantity} label="Anzahl Plätze">
            <select
              id={ids.quantity}
              className={controlClass}
              value={quantity}
              onChange={(e) => setQuantity(Number(e.target.value))}
            >
              {Array.from({ length: WAITLIST_MAX_QUANTITY }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </Field>
          <ConsentField
            id={ids.consent}
            checked={consent}
            onChange={(checked) => {
              setConsent(checked);
              setTouched((t) => ({ ...t, consent: true }));
            }}
            error={shown('consent')}
          >
            Ich bin einverstanden, dass meine E-Mail-Adresse für die Warteliste gespeichert wird
            (bis nach dem Event oder bis zur Abmeldung). Details in der{' '}
            <Link to={paths.datenschutz}>Datenschutzerklärung</Link>.
          </ConsentField>
          <Button type="submit" block disabled={status.state === 'submitting'}>
            {status.state === 'submitting' ? 'Wird eingetragen …' : 'Auf die Warteliste'}
          </Button>
        </form>
      )}
    </section>
  );
}
