import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import type { OrderSummary } from '@awhh/machines';
import { staticMeta } from '@/lib/page-head';
import { Page } from '@/components/ui/page';
import { useCartActor } from '@/features/cart/use-cart';
import { SuccessView } from '@/features/checkout/success-view';
import { OrderHoldersForm } from '@/features/tickets/holder-form';
import { ResendTicketsForm } from '@/features/tickets/resend-form';

// The tickets' forms on the page (resend, "Wer kommt?") post here.
export { ticketFormsAction as action } from '@/features/tickets/ticket-actions';

// Features do not know each other: the route puts the tickets' forms into the order.
const ticketForms = (order: OrderSummary) => (
  <>
    {order.tickets && !order.detailsWithheld ? <OrderHoldersForm tickets={order.tickets} /> : null}
    <ResendTicketsForm defaultEmail={order.email} />
  </>
);

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
      <SuccessView
        sessionId={params.get('session_id')}
        onPaid={onPaid}
        ticketExtras={ticketForms}
      />
    </Page>
  );
}
