import { useEffect, useId, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import {
  formatCents,
  fromCents,
  isPercentCoupon,
  type Coupon,
  type CouponValidationLine,
} from '@awhh/machines';
import { getInspect } from '@/lib/inspect';
import { Button } from '@/components/ui/button';
import { liveCouponMachine } from './coupon-api';
import styles from './cart.module.css';

export interface CouponFormProps {
  /** The coupon the cart holds now. */
  applied: Coupon | null;
  /** Subtotal in cents, sent along so the server can check a minimum amount. */
  subtotal: number;
  /** The cart's lines: the server checks the coupon's restrictions and discount on them. */
  lines: CouponValidationLine[];
  /** Their key (`couponLinesKey`): when it changes, an applied coupon is checked again. */
  linesKey: string;
  discount: number;
  onApplied: (coupon: Coupon) => void;
  onRemoved: () => void;
}

/** Coupon entry through the shared coupon machine; the cart takes what it emits. */
export function CouponForm({
  applied,
  subtotal,
  lines,
  linesKey,
  discount,
  onApplied,
  onRemoved,
}: CouponFormProps) {
  const inputId = useId();
  const errorId = useId();
  const [code, setCode] = useState('');
  const actor = useActorRef(liveCouponMachine, {
    input: { coupon: applied },
    inspect: getInspect(),
  });
  const validating = useSelector(actor, (s) => s.matches('validating'));
  const rechecking = useSelector(
    actor,
    (s) => s.matches({ applied: 'pending' }) || s.matches({ applied: 'rechecking' }),
  );
  const error = useSelector(actor, (s) => s.context.error);

  // rules "Coupons": the discount shown is the server's for these very lines; when they
  // change (or a stored coupon has no figure for them), ask again, debounced by the machine.
  const stale = applied !== null && (applied.linesKey ?? '') !== linesKey;
  useEffect(() => {
    if (stale) actor.send({ type: 'coupon.cartChanged', subtotal: fromCents(subtotal), lines });
  }, [actor, stale, linesKey, lines, subtotal]);

  useEffect(() => {
    const a = actor.on('coupon.applied', (e) => {
      onApplied(e.coupon);
      setCode('');
    });
    const r = actor.on('coupon.removed', () => onRemoved());
    return () => {
      a.unsubscribe();
      r.unsubscribe();
    };
  }, [actor, onApplied, onRemoved]);

  if (applied) {
    return (
      <div className={styles.couponApplied}>
        <p>
          Gutschein <strong>{applied.code ?? ''}</strong> eingelöst
          {isPercentCoupon(applied) ? ` (${applied.discount} %)` : ''}:{' '}
          {rechecking ? 'wird geprüft …' : `−${formatCents(discount)}`}
        </p>
        {applied.needsEmail ? (
          <p className={styles.unit}>
            Dieser Gutschein gilt nur für bestimmte E-Mail-Adressen; wir prüfen deine an der Kasse.
          </p>
        ) : null}
        <p className={styles.fieldError} aria-live="polite">
          {rechecking ? '' : (error ?? '')}
        </p>
        <Button variant="ghost" onClick={() => actor.send({ type: 'coupon.remove' })}>
          Gutschein entfernen
        </Button>
      </div>
    );
  }

  return (
    <form
      className={styles.couponForm}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'coupon.apply', code, subtotal: fromCents(subtotal), lines });
      }}
    >
      <label htmlFor={inputId}>Gutscheincode</label>
      <div className={styles.couponRow}>
        <input
          id={inputId}
          className={styles.input}
          name="coupon"
          autoComplete="off"
          autoCapitalize="characters"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <Button type="submit" variant="secondary" disabled={validating}>
          {validating ? 'Wird geprüft …' : 'Einlösen'}
        </Button>
      </div>
      <p id={errorId} className={styles.fieldError} aria-live="polite">
        {error ?? ''}
      </p>
    </form>
  );
}
