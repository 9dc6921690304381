import { lazy, Suspense, useCallback } from 'react';
import {
  cartLineCents,
  formatCents,
  formatEuro,
  limitHint,
  lineLimit,
  lineTotalCents,
  type CartItem,
  type Coupon,
} from '@awhh/machines';
import { paths } from '@/config/paths';
import { Button, ButtonLink } from '@/components/ui/button';
import { QuantityStepper } from '@/components/ui/quantity-stepper';
import {
  useCartActor,
  useCartCoupon,
  useCartItems,
  useCartTotals,
  useCouponLines,
} from './use-cart';
import styles from './cart.module.css';
import { Totals } from '@/components/ui/totals';
import { Loading, Skeleton } from '@/components/ui/feedback';

// The coupon form brings the coupon machine, built by XState when its module is evaluated:
// loaded apart, an empty cart never evaluates it and a full one in a task of its own, not
// in the one that shows the cart (rules "Rendering", Total Blocking Time).
const CouponForm = lazy(() => import('./coupon-form').then((m) => ({ default: m.CouponForm })));

function CartLine({ item, items }: { item: CartItem; items: readonly CartItem[] }) {
  const cart = useCartActor();
  // The checkout's limits: the product's own per order and the order's (20 in all).
  const max = Math.max(item.quantity, lineLimit(items, item).max);
  const hint = limitHint(items, item);
  return (
    <li className={styles.line}>
      {item.image ? (
        <img className={styles.thumb} src={item.image} alt="" width={96} height={96} />
      ) : (
        <span className={styles.thumb} />
      )}
      <div>
        <h3 className={styles.name}>{item.name}</h3>
        <p className={styles.unit}>{formatEuro(item.price)} pro Stück</p>
        {hint ? <p className={styles.unit}>{hint}</p> : null}
      </div>
      <div className={styles.controls}>
        <QuantityStepper
          label={`Anzahl für ${item.name}`}
          value={item.quantity}
          min={1}
          max={max}
          onChange={(quantity) => cart.send({ type: 'cart.setQuantity', id: item.id, quantity })}
        />
        <span className={styles.lineTotal}>{formatCents(lineTotalCents(cartLineCents(item)))}</span>
        <Button
          variant="ghost"
          onClick={() => cart.send({ type: 'cart.remove', id: item.id })}
          aria-label={`${item.name} entfernen`}
        >
          Entfernen
        </Button>
      </div>
    </li>
  );
}

export function CartEmpty({ nextEventHref }: { nextEventHref: string }) {
  return (
    <div className={styles.empty}>
      <h2>Dein Warenkorb ist leer</h2>
      <p>Sichere dir einen Platz beim nächsten After Work – die Abende sind schnell ausgebucht.</p>
      <ButtonLink to={nextEventHref}>Zum nächsten Event</ButtonLink>
    </div>
  );
}

export function CartSummary() {
  const totals = useCartTotals();
  const coupon = useCartCoupon();
  return (
    <Totals
      subtotal={totals.subtotal}
      discount={totals.discount}
      total={totals.total}
      hasCoupon={coupon !== null}
      couponCode={coupon?.code}
      totalLabel="Gesamt"
    />
  );
}

/** /cart: lines, quantities, coupon, totals and the way to the checkout (rules §4 Cart). */
export function CartView({ nextEventHref }: { nextEventHref: string }) {
  const cart = useCartActor();
  const items = useCartItems();
  const coupon = useCartCoupon();
  const totals = useCartTotals();
  const couponLines = useCouponLines();
  const onApplied = useCallback(
    (c: Coupon) => cart.send({ type: 'cart.applyCoupon', coupon: c }),
    [cart],
  );
  const onRemoved = useCallback(() => cart.send({ type: 'cart.removeCoupon' }), [cart]);

  if (items.length === 0) return <CartEmpty nextEventHref={nextEventHref} />;

  return (
    <div className={styles.layout}>
      <section aria-labelledby="cart-lines">
        <h2 id="cart-lines" className="visually-hidden">
          Artikel
        </h2>
        <ul className={styles.lines}>
          {items.map((item) => (
            <CartLine key={item.id} item={item} items={items} />
          ))}
        </ul>
      </section>
      <section className={styles.summary} aria-labelledby="cart-summary">
        <h2 id="cart-summary">Übersicht</h2>
        <Suspense
          fallback={
            <Loading label="Gutscheinfeld wird geladen">
              <Skeleton height="4.75rem" width="100%" />
            </Loading>
          }
        >
          <CouponForm
            applied={coupon}
            subtotal={totals.subtotal}
            lines={couponLines.lines}
            linesKey={couponLines.key}
            discount={totals.discount}
            onApplied={onApplied}
            onRemoved={onRemoved}
          />
        </Suspense>
        <CartSummary />
        <ButtonLink to={paths.checkout} block>
          Zur Kasse
        </ButtonLink>
      </section>
    </div>
  );
}
