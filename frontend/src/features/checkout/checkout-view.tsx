import { useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useActorRef, useSelector } from '@xstate/react';
import {
  cartItemId,
  formatCents,
  formatEuro,
  cartLineCents,
  INVALID_EMAIL_MESSAGE,
  isEmailAddress,
  lineTotalCents,
  toCents,
  type ApiError,
  type CartItem,
  type CartTotals,
  type CheckoutLineItem,
  type Coupon,
  type LineUpdate,
} from '@awhh/machines';
import { paths } from '@/config/paths';
import { getInspect } from '@/lib/inspect';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { ConsentField, controlClass, Field } from '@/components/ui/field';
import { liveCheckoutMachine, successUrl } from './checkout-api';
import styles from './checkout.module.css';
import { Totals } from '@/components/ui/totals';

export interface CheckoutViewProps {
  items: CartItem[];
  coupon: Coupon | null;
  totals: CartTotals;
  /**
   * 409: the server's current prices and stock, for the cart to take over, and what
   * changed in words (the page keeps it when the last line was sold out and removed).
   */
  onLinesChanged: (lines: LineUpdate[], changes: string[]) => void;
}

function toLineUpdates(problem: ApiError | null): LineUpdate[] {
  return (problem?.lines ?? []).map((line) => ({
    id: cartItemId(line.productId, line.variationId),
    price: line.price,
    available: line.available,
  }));
}

type SentLine = Pick<CheckoutLineItem, 'productId' | 'variationId' | 'amount' | 'quantity'>;

/** Compares the server's answer with what was sent (the cart at the time of ordering). */
function describeChanges(problem: ApiError, sent: readonly SentLine[]): string[] {
  return (problem.lines ?? []).map((line) => {
    const before = sent.find(
      (l) =>
        l.productId === line.productId && (l.variationId ?? null) === (line.variationId ?? null),
    );
    if (line.available !== null && line.available < 1) {
      return `${line.name}: leider ausverkauft – aus dem Warenkorb entfernt.`;
    }
    if (line.available !== null && before && before.quantity > line.available) {
      return `${line.name}: nur noch ${line.available} verfügbar – Anzahl angepasst.`;
    }
    if (before && toCents(before.amount) !== toCents(line.price)) {
      return `${line.name}: Preis jetzt ${formatEuro(line.price)} statt ${formatEuro(before.amount)}.`;
    }
    return `${line.name}: aktualisiert (${formatEuro(line.price)}).`;
  });
}

export const COUPON_EMAIL_LABEL = 'E-Mail-Adresse für deinen Gutschein';
export const COUPON_EMAIL_HINT =
  'Dein Gutschein ist an E-Mail-Adressen gebunden. Mit dieser Adresse bezahlst du auch: Auf der Zahlungsseite ist sie schon eingetragen, und an sie schicken wir deine Tickets.';

/** rules "/checkout": review, acceptance and the order button of § 312j BGB. */
export function CheckoutView({ items, coupon, totals, onLinesChanged }: CheckoutViewProps) {
  const consentId = useId();
  const emailId = useId();
  const [accepted, setAccepted] = useState(false);
  const [changes, setChanges] = useState<string[]>([]);
  const [email, setEmail] = useState('');
  const [emailInvalid, setEmailInvalid] = useState(false);
  const emailInput = useRef<HTMLInputElement>(null);
  const actor = useActorRef(liveCheckoutMachine, { inspect: getInspect() });
  // rules "Waiting list": arriving from an offer (/checkout?angebot=…), the checkout uses
  // the places the offer reserved.
  const [search] = useSearchParams();
  const waitlistOffer = search.get('angebot') ?? undefined;
  const busy = useSelector(actor, (s) => s.matches('submitting') || s.matches('redirecting'));
  const error = useSelector(actor, (s) => s.context.error);
  const problem = useSelector(actor, (s) => s.context.problem);
  const sentEmail = useSelector(actor, (s) => s.context.request?.email ?? '');
  // rules "Coupons": a coupon bound to addresses (the cart's check said so, or the server
  // refused the order for the address) needs the buyer's address before the order.
  const emailRefused = problem?.needsEmail === true;
  const needsEmail = coupon?.needsEmail === true || emailRefused;
  // The server's reason stands beside the field until the address is changed.
  const emailError = emailInvalid
    ? INVALID_EMAIL_MESSAGE
    : emailRefused && email.trim() === sentEmail
      ? (error ?? undefined)
      : undefined;
  const submission = {
    type: 'checkout.submit' as const,
    items,
    coupon,
    successUrl: successUrl(),
    cancelUrl: window.location.href,
    ...(waitlistOffer ? { waitlistOffer } : {}),
    ...(needsEmail ? { email: email.trim() } : {}),
  };
  const canSubmit = useSelector(actor, (s) => s.can(submission));
  // Refused for the address: the visitor's next step is the field, with the reason beside it.
  useEffect(() => {
    if (emailRefused) emailInput.current?.focus();
  }, [emailRefused, problem]);
  // A 409 names the lines the server priced or stocks differently: explain, then update
  // the cart once per answer (the cart machine applies the new prices and limits).
  useEffect(() => {
    let seen: ApiError | null = null;
    const subscription = actor.subscribe((snapshot) => {
      const { problem, request } = snapshot.context;
      if (problem === seen) return;
      seen = problem;
      const lines = toLineUpdates(problem);
      if (!problem || lines.length === 0) {
        setChanges([]);
        return;
      }
      const described = describeChanges(problem, request?.line_items ?? []);
      setChanges(described);
      onLinesChanged(lines, described);
    });
    return () => subscription.unsubscribe();
  }, [actor, onLinesChanged]);

  return (
    <div className={styles.layout}>
      <section className={styles.panel} aria-labelledby="review-heading">
        <h2 id="review-heading">Deine Bestellung</h2>
        <ul className={styles.lines}>
          {items.map((item) => (
            <li key={item.id} className={styles.line}>
              <p className={styles.lineName}>{item.name}</p>
              <p className={styles.amount}>{formatCents(lineTotalCents(cartLineCents(item)))}</p>
              <p className={styles.lineMeta}>
                {item.quantity} × {formatEuro(item.price)}
              </p>
            </li>
          ))}
        </ul>
        <Totals
          subtotal={totals.subtotal}
          discount={totals.discount}
          total={totals.total}
          hasCoupon={coupon !== null}
          couponCode={coupon?.code}
          totalLabel="Gesamtbetrag"
        />
        <p className={styles.lineMeta}>
          Alle Preise inkl. gesetzlicher MwSt. <Link to={paths.cart}>Warenkorb bearbeiten</Link>
        </p>
      </section>

      <section className={styles.panel} aria-labelledby="pay-heading">
        <h2 id="pay-heading">Bezahlen</h2>
        <div aria-live="assertive">
          {error && !emailRefused ? (
            <Alert tone="error" title="Bestellung nicht abgeschlossen">
              <p>{error}</p>
              {changes.length > 0 ? (
                <>
                  <ul className={styles.changes}>
                    {changes.map((c) => (
                      <li key={c}>{c}</li>
                    ))}
                  </ul>
                  <p>
                    Dein Warenkorb wurde aktualisiert. Bitte prüfe die Summe und bestelle erneut.
                  </p>
                </>
              ) : (
                <p>Dein Warenkorb bleibt erhalten.</p>
              )}
            </Alert>
          ) : null}
        </div>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (needsEmail && !isEmailAddress(email)) {
              setEmailInvalid(true);
              emailInput.current?.focus();
              return;
            }
            if (accepted && canSubmit) actor.send(submission);
          }}
        >
          {needsEmail ? (
            <Field
              id={emailId}
              label={COUPON_EMAIL_LABEL}
              error={emailError}
              className={styles.email}
            >
              <p id={`${emailId}-hint`} className={styles.fieldHint}>
                {COUPON_EMAIL_HINT}
              </p>
              <input
                ref={emailInput}
                id={emailId}
                className={controlClass}
                type="email"
                name="email"
                autoComplete="email"
                inputMode="email"
                required
                value={email}
                aria-invalid={emailError ? true : undefined}
                aria-describedby={
                  emailError ? `${emailId}-error ${emailId}-hint` : `${emailId}-hint`
                }
                onChange={(e) => {
                  setEmail(e.target.value);
                  setEmailInvalid(false);
                }}
              />
            </Field>
          ) : null}
          <ConsentField
            id={consentId}
            checked={accepted}
            onChange={setAccepted}
            required
            className={styles.consent}
          >
            Ich akzeptiere die Teilnahmebedingungen und habe die{' '}
            <Link to={paths.datenschutz} target="_blank" rel="noopener">
              Datenschutzerklärung
            </Link>{' '}
            gelesen.
          </ConsentField>
          <Button type="submit" block disabled={!accepted || !canSubmit || busy}>
            {busy ? 'Weiterleitung zur Zahlung …' : 'Zahlungspflichtig bestellen'}
          </Button>
          <p className={styles.hint}>
            Du wirst zur sicheren Zahlungsseite weitergeleitet (Karte, Apple Pay, Google Pay). Nach
            der Zahlung kommst du hierher zurück.
          </p>
        </form>
      </section>
    </div>
  );
}
