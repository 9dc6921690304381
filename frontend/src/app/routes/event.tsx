import { useCallback } from 'react';
import { data, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { Variant } from '@awhh/machines';
import { dataSource } from '@/lib/data-source';
import type { RouteHandle } from '@/lib/page-head';
import { eventPageMeta } from '@/lib/structured-data';
import { EventDetailView } from '@/features/events/event-detail';
import { addToCart, cartLine } from '@/features/cart/cart-line';
import { getCartActor } from '@/features/cart/cart-actor';

// Awaited on the server and in the browser alike: the whole page (price, tiers,
// description) is in the HTML, and an unknown slug is the 404 page with status 404.
export async function loader({ params, request }: LoaderFunctionArgs) {
  const event = await dataSource().event(params.slug ?? '', request.signal);
  if (!event) throw data('Event nicht gefunden', { status: 404 });
  return { event };
}

type LoaderData = Awaited<ReturnType<typeof loader>>;

export const handle: RouteHandle<LoaderData> = {
  meta: ({ data, origin }) => (data ? eventPageMeta(origin, data.event) : null),
};

export function Component() {
  const { event } = useLoaderData<typeof loader>();
  // The cart (state machine, local storage) starts on the first add, not while the page
  // hydrates: less work before the page responds (Total Blocking Time).
  const onAdd = useCallback(
    (quantity: number, variant?: Variant) =>
      addToCart(getCartActor(), cartLine(event, variant), quantity),
    [event],
  );
  // Keyed: another event starts with its own tier and quantity.
  return <EventDetailView key={event.id} event={event} onAdd={onAdd} />;
}
