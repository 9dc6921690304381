import { useCallback, useEffect } from 'react';
import {
  data,
  useLoaderData,
  useNavigate,
  useParams,
  useRevalidator,
  type LoaderFunctionArgs,
} from 'react-router';
import { cartItemId, type WaitlistOfferView } from '@awhh/machines';
import { waitlistPaths } from '@/features/waitlist/paths';
import { errorText, isNotFound } from '@/lib/api-client';
import { dataSource } from '@/lib/data-source';
import type { RouteHandle } from '@/lib/page-head';
import { ErrorState, Loading, Skeleton } from '@/components/ui/feedback';
import { Page } from '@/components/ui/page';
import { useCartActor } from '@/features/cart/use-cart';
import { fetchOffer } from '@/features/waitlist/api';
import { OfferNotFound, OfferView } from '@/features/waitlist/waitlist-views';
import { WAITLIST_TOKEN } from './waitlist-confirm';

// The offer's "Angebot ablehnen" posts here.
export { declineOfferAction as action } from '@/features/waitlist/waitlist-views';

type OfferState =
  | { status: 'pending' }
  | { status: 'found'; offer: WaitlistOfferView }
  | { status: 'not-found' }
  | { status: 'failed'; message: string };

export async function loader({ params, request }: LoaderFunctionArgs): Promise<{
  state: OfferState;
}> {
  const token = params.token ?? '';
  if (!WAITLIST_TOKEN.test(token)) throw data('Angebot nicht gefunden', { status: 404 });
  // Personal, and it changes by the minute: asked by the browser once hydrated.
  if (dataSource().onServer) return { state: { status: 'pending' } };
  try {
    return { state: { status: 'found', offer: await fetchOffer(token, request.signal) } };
  } catch (error) {
    if (isNotFound(error)) return { state: { status: 'not-found' } };
    return { state: { status: 'failed', message: errorText(error) } };
  }
}

export const handle: RouteHandle<Awaited<ReturnType<typeof loader>>> = {
  meta: () => ({
    title: 'Dein Angebot von der Warteliste',
    description: 'Für dich reservierte Tickets von der Warteliste von After Work Hamburg.',
    canonical: null,
    noindex: true,
  }),
};

export function Component() {
  const { state } = useLoaderData<typeof loader>();
  const { token = '' } = useParams();
  const { revalidate } = useRevalidator();
  const cart = useCartActor();
  const navigate = useNavigate();
  const pending = state.status === 'pending';
  useEffect(() => {
    if (pending) void revalidate();
  }, [pending, revalidate]);
  // rules "Waiting list": the link fills the cart with exactly the offered places and opens
  // the checkout, which then uses the offer's reservation.
  const onAccept = useCallback(
    (offer: WaitlistOfferView) => {
      if (offer.price === null) return;
      const id = cartItemId(offer.productId, offer.variationId ?? undefined);
      cart.send({ type: 'cart.remove', id });
      cart.send({
        type: 'cart.add',
        quantity: offer.quantity,
        item: {
          id,
          productId: offer.productId,
          ...(offer.variationId !== null ? { variationId: offer.variationId } : {}),
          name: offer.lineName,
          price: offer.price,
          currency: 'eur',
          ...(offer.image ? { image: offer.image } : {}),
        },
      });
      void navigate(waitlistPaths.checkoutWithOffer(token));
    },
    [cart, navigate, token],
  );
  return (
    <Page title="Dein Angebot" eyebrow="Warteliste">
      {state.status === 'found' ? (
        <OfferView offer={state.offer} onAccept={onAccept} />
      ) : state.status === 'not-found' ? (
        <OfferNotFound />
      ) : state.status === 'failed' ? (
        <ErrorState message={state.message} onRetry={() => void revalidate()} />
      ) : (
        <Loading label="Angebot wird geladen">
          <Skeleton height="12rem" width="100%" />
        </Loading>
      )}
    </Page>
  );
}
