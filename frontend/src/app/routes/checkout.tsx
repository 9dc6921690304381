import { useCallback, useEffect, useRef, useState } from 'react';
import type { LineUpdate } from '@awhh/machines';
import { usePageMeta } from '@/lib/page-meta';
import { Page } from '@/components/ui/page';
import { Alert } from '@/components/ui/feedback';
import { CartEmpty } from '@/features/cart/cart-view';
import { useCartActor, useCartCoupon, useCartItems, useCartTotals } from '@/features/cart/use-cart';
import { CheckoutView } from '@/features/checkout/checkout-view';
import { useNextEventLink } from '@/features/events/next-event-link';

export function Component() {
  usePageMeta({
    title: 'Kasse',
    description: 'Bestellung prüfen und sicher bezahlen.',
    noindex: true,
  });
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
    <Page
      title="Kasse"
      lead="Prüfe deine Bestellung. Bezahlt wird auf der gesicherten Seite unseres Zahlungsdienstes."
    >
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
