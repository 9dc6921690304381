import { useEffect, useId, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { formatCents, fromCents, isPercentCoupon, type Coupon } from '@awhh/machines';
import { getInspect } from '@/lib/inspect';
import { Button } from '@/components/ui/button';
import { liveCouponMachine } from './coupon-api';
import styles from './cart.module.css';

export interface CouponFormProps {
  /** The coupon the cart holds now. */
  applied: Coupon | null;
  /** Subtotal in cents, sent along so the server can check a minimum amount. */
  subtotal: number;
  discount: number;
  onApplied: (coupon: Coupon) => void;
  onRemoved: () => void;
}

/** Coupon entry through the shared coupon machine; the cart takes what it emits. */
export function CouponForm({ applied, subtotal, discount, onApplied, onRemoved }: CouponFormProps) {
  const inputId = useId();
  const errorId = useId();
  const [code, setCode] = useState('');
  const actor = useActorRef(liveCouponMachine, {
    input: { coupon: applied },
    inspect: getInspect(),
  });
  const validating = useSelector(actor, (s) => s.matches('validating'));
  const error = useSelector(actor, (s) => s.context.error);

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
          {isPercentCoupon(applied) ? ` (${applied.discount} %)` : ''}: −{formatCents(discount)}
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
        actor.send({ type: 'coupon.apply', code, subtotal: fromCents(subtotal) });
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
