import { useCallback } from 'react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { MerchDetail, Variant } from '@awhh/machines';
import { env } from '@/config/env';
import { isNotFound } from '@/lib/api-client';
import { isFirstLoad } from '@/lib/first-load';
import { usePageMeta } from '@/lib/page-meta';
import { Deferred } from '@/components/ui/deferred';
import { Loading } from '@/components/ui/feedback';
import { cartLine } from '@/features/cart/cart-line';
import { useCartActor } from '@/features/cart/use-cart';
import { fetchMerchItem } from '@/features/merch/api';
import { MerchDetailSkeleton, MerchDetailView } from '@/features/merch/merch-detail';
import { ErrorPage } from '../error-page';

export function loader({ params, request }: LoaderFunctionArgs) {
  const slug = params.slug ?? '';
  const item: Promise<MerchDetail> = fetchMerchItem(slug, request.signal);
  if (!isFirstLoad()) return { slug, item: item as MerchDetail | Promise<MerchDetail> };
  // The HTML shows this product's first screen; a failure stays a promise for the error state.
  return item.then(
    (value) => ({ slug, item: value as MerchDetail | Promise<MerchDetail> }),
    () => ({ slug, item }),
  );
}

function MerchMeta({ item }: { item: MerchDetail }) {
  usePageMeta({
    title: item.name,
    description: item.shortDescription || `${item.name} – Merch von ${env.productName}.`,
  });
  return null;
}

function Loaded({ item }: { item: MerchDetail }) {
  const cart = useCartActor();
  const onAdd = useCallback(
    (quantity: number, variant?: Variant) =>
      cart.send({ type: 'cart.add', quantity, item: cartLine(item, variant) }),
    [cart, item],
  );
  return (
    <>
      <MerchMeta item={item} />
      {/* Keyed: another product starts with its own size and quantity. */}
      <MerchDetailView key={item.id} item={item} onAdd={onAdd} />
    </>
  );
}

export function Component() {
  const { item } = useLoaderData<typeof loader>();
  return (
    <Deferred
      resolve={item}
      fallback={
        <Loading label="Produkt wird geladen">
          <MerchDetailSkeleton />
        </Loading>
      }
      renderError={(error) => (isNotFound(error) ? <ErrorPage status={404} /> : null)}
    >
      {(loaded) => <Loaded item={loaded} />}
    </Deferred>
  );
}
