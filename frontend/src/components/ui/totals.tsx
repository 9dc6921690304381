import { formatCents } from '@awhh/machines';
import styles from './totals.module.css';

export interface TotalsProps {
  /** Integer cents, as the shared pricing computes them. */
  subtotal: number;
  discount: number;
  total: number;
  /** Shown with the discount; a discount line appears only when there is a coupon. */
  couponCode?: string | null;
  hasCoupon: boolean;
  /** "Gesamt" in the cart, "Gesamtbetrag" at the checkout, "Bezahlt" after payment. */
  totalLabel: string;
}

/** Subtotal, coupon discount and total: the same list in the cart, checkout and success. */
export function Totals({
  subtotal,
  discount,
  total,
  couponCode,
  hasCoupon,
  totalLabel,
}: TotalsProps) {
  return (
    <dl className={styles.totals}>
      <dt>Zwischensumme</dt>
      <dd>{formatCents(subtotal)}</dd>
      {hasCoupon ? (
        <>
          <dt>Gutschein{couponCode ? ` ${couponCode}` : ''}</dt>
          <dd>−{formatCents(discount)}</dd>
        </>
      ) : null}
      <dt className={styles.grand}>{totalLabel}</dt>
      <dd className={styles.grand}>{formatCents(total)}</dd>
    </dl>
  );
}
