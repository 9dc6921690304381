import { useCallback, useEffect, useRef, useState } from 'react';
import type { LineUpdate } from '@awhh/machines';
import { staticMeta } from '@/lib/page-head';
import { useHydrated } from '@/lib/use-hydrated';
import { Page } from '@/components/ui/page';
import { Alert, Loading, Skeleton } from '@/components/ui/feedback';
import { CartEmpty } from '@/features/cart/cart-view';
import { useCartActor, useCartCoupon, useCartItems, useCartTotals } from '@/features/cart/use-cart';
import { CheckoutView } from '@/features/checkout/checkout-view';
import { useNextEventLink } from '@/features/events/next-event-link';

export const handle = staticMeta('Kasse', 'Prüfe deine Bestellung bei After Work Hamburg.', {
  noindex: true,
});

const LEAD =
  'Prüfe deine Bestellung. Bezahlt wird auf der gesicherten Seite unseres Zahlungsdienstes.';

export function Component() {
  // The order is the browser's cart (local storage): rendered once hydrated, never on the server.
  const hydrated = useHydrated();
  if (hydrated) return <Checkout />;
  return (
    <Page title="Kasse" lead={LEAD}>
      <Loading label="Bestellung wird geladen">
        <Skeleton height="12rem" width="100%" />
      </Loading>
    </Page>
  );
}

function Checkout() {
  const cart = useCartActor();
  const items = useCartItems();
  const coupon = useCartCoupon();
  const totals = useCartTotals();
  const nextHref = useNextEventLink();
  // What the last 409 changed: shown above the empty cart when it removed the last line,
  // so the visitor learns why the cart is suddenly empty.
  const [removed, setRemoved] = useState<string[]>([]);
  const notice = useRef<HTMLDivElement>(null);
  const emptied = items.length === 0 && removed.length > 0;
  // The order button sat further down: bring the explanation into view and focus.
  useEffect(() => {
    if (emptied) notice.current?.focus();
  }, [emptied]);
  const onLinesChanged = useCallback(
    (lines: LineUpdate[], changes: string[]) => {
      setRemoved(changes);
      cart.send({ type: 'cart.update', lines });
    },
    [cart],
  );
  return (
    <Page title="Kasse" lead={LEAD}>
      {items.length === 0 ? (
        <>
          {emptied ? (
            <div ref={notice} tabIndex={-1}>
              <Alert tone="error" title="Bestellung nicht abgeschlossen">
                <ul>
                  {removed.map((change) => (
                    <li key={change}>{change}</li>
                  ))}
                </ul>
              </Alert>
            </div>
          ) : null}
          <CartEmpty nextEventHref={nextHref} />
        </>
      ) : (
        <CheckoutView
          items={items}
          coupon={coupon}
          totals={totals}
          onLinesChanged={onLinesChanged}
        />
      )}
    </Page>
  );
}
