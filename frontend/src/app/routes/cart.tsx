import { usePageMeta } from '@/lib/page-meta';
import { Page } from '@/components/ui/page';
import { CartView } from '@/features/cart/cart-view';
import { useNextEventLink } from '@/features/events/next-event-link';

export function Component() {
  usePageMeta({
    title: 'Warenkorb',
    description: 'Dein Warenkorb: Tickets und Produkte, Gutschein und Summe.',
  });
  const nextHref = useNextEventLink();
  return (
    <Page title="Warenkorb">
      <CartView nextEventHref={nextHref} />
    </Page>
  );
}
