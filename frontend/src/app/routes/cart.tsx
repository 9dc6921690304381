import { staticMeta } from '@/lib/page-head';
import { useHydrated } from '@/lib/use-hydrated';
import { Loading, Skeleton } from '@/components/ui/feedback';
import { Page } from '@/components/ui/page';
import { CartView } from '@/features/cart/cart-view';
import { useNextEventLink } from '@/features/events/next-event-link';

export const handle = staticMeta('Warenkorb', 'Dein Warenkorb bei After Work Hamburg.');

export function Component() {
  const nextHref = useNextEventLink();
  // The lines live in the browser's storage (rules §4): the server never guesses them.
  const hydrated = useHydrated();
  return (
    // The lead is in the server's HTML: the largest text of the first paint, whatever the
    // cart holds once it appears (LCP does not wait for the browser's storage).
    <Page
      title="Warenkorb"
      lead="Hier liegen deine Tickets und Produkte, bis du bestellst – auch wenn du die Seite schließt. Gutscheine löst du hier ein, bezahlt wird im nächsten Schritt auf der gesicherten Seite unseres Zahlungsdienstes."
    >
      {hydrated ? <CartView nextEventHref={nextHref} /> : <CartPending />}
    </Page>
  );
}

export function CartPending() {
  return (
    <Loading label="Warenkorb wird geladen">
      <Skeleton height="12rem" width="100%" />
    </Loading>
  );
}
