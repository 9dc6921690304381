import { useCallback } from 'react';
import type { LineUpdate } from '@awhh/machines';
import { usePageMeta } from '@/lib/page-meta';
import { Page } from '@/components/ui/page';
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
  const onLinesChanged = useCallback(
    (lines: LineUpdate[]) => cart.send({ type: 'cart.update', lines }),
    [cart],
  );
  return (
    <Page
      title="Kasse"
      lead="Prüfe deine Bestellung. Bezahlt wird auf der gesicherten Seite unseres Zahlungsdienstes."
    >
      {items.length === 0 ? (
        <CartEmpty nextEventHref={nextHref} />
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
