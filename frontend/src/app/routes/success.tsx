import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import type { OrderSummary } from '@awhh/machines';
import { usePageMeta } from '@/lib/page-meta';
import { Page } from '@/components/ui/page';
import { useCartActor } from '@/features/cart/use-cart';
import { SuccessView } from '@/features/checkout/success-view';
import { ResendTicketsForm } from '@/features/tickets/resend-form';

// Features do not know each other: the route puts the tickets' resend form into the order.
const resendForm = (order: OrderSummary) => <ResendTicketsForm defaultEmail={order.email} />;

export function Component() {
  usePageMeta({ title: 'Bestellung', description: 'Ergebnis deiner Zahlung.', noindex: true });
  const [params] = useSearchParams();
  const cart = useCartActor();
  const onPaid = useCallback(() => cart.send({ type: 'cart.clear' }), [cart]);
  return (
    <Page title="Deine Bestellung">
      <SuccessView sessionId={params.get('session_id')} onPaid={onPaid} ticketExtras={resendForm} />
    </Page>
  );
}
