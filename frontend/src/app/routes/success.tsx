import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import type { OrderSummary } from '@awhh/machines';
import { staticMeta } from '@/lib/page-head';
import { Page } from '@/components/ui/page';
import { useCartActor } from '@/features/cart/use-cart';
import { SuccessView } from '@/features/checkout/success-view';
import { ResendTicketsForm } from '@/features/tickets/resend-form';

// The tickets' resend form on the page posts here.
export { resendTicketsAction as action } from '@/features/tickets/resend-form';

// Features do not know each other: the route puts the tickets' resend form into the order.
const resendForm = (order: OrderSummary) => <ResendTicketsForm defaultEmail={order.email} />;

export const handle = staticMeta(
  'Deine Bestellung',
  'Der Stand deiner Bestellung bei After Work Hamburg.',
  { noindex: true },
);

export function Component() {
  const [params] = useSearchParams();
  const cart = useCartActor();
  const onPaid = useCallback(() => cart.send({ type: 'cart.clear' }), [cart]);
  return (
    <Page title="Deine Bestellung">
      <SuccessView sessionId={params.get('session_id')} onPaid={onPaid} ticketExtras={resendForm} />
    </Page>
  );
}
