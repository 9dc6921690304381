import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { usePageMeta } from '@/lib/page-meta';
import { Page } from '@/components/ui/page';
import { useCartActor } from '@/features/cart/use-cart';
import { SuccessView } from '@/features/checkout/success-view';

export function Component() {
  usePageMeta({ title: 'Bestellung', description: 'Ergebnis deiner Zahlung.', noindex: true });
  const [params] = useSearchParams();
  const cart = useCartActor();
  const onPaid = useCallback(() => cart.send({ type: 'cart.clear' }), [cart]);
  return (
    <Page title="Deine Bestellung">
      <SuccessView sessionId={params.get('session_id')} onPaid={onPaid} />
    </Page>
  );
}
