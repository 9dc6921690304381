import { useCallback } from 'react';
import { data, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { Variant } from '@awhh/machines';
import { dataSource } from '@/lib/data-source';
import type { RouteHandle } from '@/lib/page-head';
import { merchPageMeta } from '@/lib/structured-data';
import { addToCart, cartLine } from '@/features/cart/cart-line';
import { getCartActor } from '@/features/cart/cart-actor';
import { MerchDetailView } from '@/features/merch/merch-detail';

// Awaited like the event page: the product, its sizes and prices are in the HTML.
export async function loader({ params, request }: LoaderFunctionArgs) {
  const item = await dataSource().merchItem(params.slug ?? '', request.signal);
  if (!item) throw data('Produkt nicht gefunden', { status: 404 });
  return { item };
}

type LoaderData = Awaited<ReturnType<typeof loader>>;

export const handle: RouteHandle<LoaderData> = {
  meta: ({ data, origin }) => (data ? merchPageMeta(origin, data.item) : null),
};

export function Component() {
  const { item } = useLoaderData<typeof loader>();
  // The cart (state machine, local storage) starts on the first add, not while the page
  // hydrates: less work before the page responds (Total Blocking Time).
  const onAdd = useCallback(
    (quantity: number, variant?: Variant) =>
      addToCart(getCartActor(), cartLine(item, variant), quantity),
    [item],
  );
  // Keyed: another product starts with its own size and quantity.
  return <MerchDetailView key={item.id} item={item} onAdd={onAdd} />;
}
