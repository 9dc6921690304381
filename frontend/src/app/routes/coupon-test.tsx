import { useId, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { discountCents, formatCents, fromCents, toCents } from '@awhh/machines';
import { getInspect } from '@/lib/inspect';
import { staticMeta } from '@/lib/page-head';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { Page } from '@/components/ui/page';
import { liveCouponMachine } from '@/features/cart/coupon-api';
import styles from './text-page.module.css';

export const handle = staticMeta('Gutschein-Test', 'Interne Testseite: Gutscheincodes prüfen.', {
  noindex: true,
});

/** rules "Test pages": a coupon check against the live rules, without touching the cart. */
export function Component() {
  const codeId = useId();
  const subtotalId = useId();
  const [code, setCode] = useState('');
  const [subtotal, setSubtotal] = useState('50');
  const actor = useActorRef(liveCouponMachine, { input: {}, inspect: getInspect() });
  const state = useSelector(actor, (s) => String(s.value));
  const coupon = useSelector(actor, (s) => s.context.coupon);
  const error = useSelector(actor, (s) => s.context.error);
  const euros = Number(subtotal.replace(',', '.'));
  const cents = Number.isFinite(euros) ? toCents(euros) : 0;

  return (
    <Page
      title="Gutschein-Test"
      eyebrow="Interne Testseite"
      lead="Prüft einen Code gegen die aktuellen Regeln des Servers. Der Warenkorb bleibt unberührt."
    >
      <form
        className={styles.panel}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'coupon.apply', code, subtotal: fromCents(cents) });
        }}
      >
        <div className={styles.field}>
          <label htmlFor={codeId}>Gutscheincode</label>
          <input
            id={codeId}
            className={styles.input}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="off"
          />
        </div>
        <div className={styles.field}>
          <label htmlFor={subtotalId}>Zwischensumme in Euro</label>
          <input
            id={subtotalId}
            className={styles.input}
            inputMode="decimal"
            value={subtotal}
            onChange={(e) => setSubtotal(e.target.value)}
          />
        </div>
        <Button type="submit" disabled={state === 'validating'}>
          {state === 'validating' ? 'Wird geprüft …' : 'Prüfen'}
        </Button>
      </form>
      <div aria-live="polite" style={{ maxWidth: 'var(--reading-width)' }}>
        {error ? (
          <Alert tone="error" title="Abgelehnt">
            <p>{error}</p>
          </Alert>
        ) : null}
        {coupon ? (
          <Alert tone="success" title="Gültig">
            <dl className={styles.kv}>
              <dt>Code</dt>
              <dd>{coupon.code ?? code}</dd>
              <dt>Typ</dt>
              <dd>{coupon.discountType === 'percent' ? 'Prozent' : 'Festbetrag'}</dd>
              <dt>Wert</dt>
              <dd>
                {coupon.discountType === 'percent'
                  ? `${coupon.discount} %`
                  : formatCents(toCents(coupon.discount))}
              </dd>
              <dt>Rabatt auf {formatCents(cents)}</dt>
              <dd>−{formatCents(discountCents(cents, coupon))}</dd>
            </dl>
          </Alert>
        ) : null}
        <p>
          Zustand der Maschine: <code>{state}</code>
        </p>
      </div>
    </Page>
  );
}
