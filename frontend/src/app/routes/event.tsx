import { useCallback, useMemo, useState } from 'react';
import { data, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { EventDetail, Variant } from '@awhh/machines';
import { dataSource } from '@/lib/data-source';
import type { RouteHandle } from '@/lib/page-head';
import { eventPageMeta } from '@/lib/structured-data';
import { EventDetailView, type SoldOutUnit } from '@/features/events/event-detail';
import { addToCart, cartLine } from '@/features/cart/cart-line';
import { getCartActor } from '@/features/cart/cart-actor';
import {
  useLiveAvailability,
  withLiveAvailability,
} from '@/features/waitlist/use-live-availability';
import { WaitlistJoin } from '@/features/waitlist/waitlist-join';

// The waiting list's form on the page posts here (rules "Waiting list").
export { joinWaitlistAction as action } from '@/features/waitlist/waitlist-join';

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
  // Keyed: another event starts with its own tier, quantity and live availability.
  return <EventPage key={event.id} event={event} />;
}

/** The route composes the event page, the cart and the waiting list (features do not meet). */
function EventPage({ event: catalogEvent }: { event: EventDetail }) {
  // rules "Waiting list": places held by open checkouts and offers are not for sale, though
  // the catalog's stock still counts them; once in the browser the page asks the checkout.
  // Asked again when the waiting list answers that places are on sale after all.
  const [liveAsked, setLiveAsked] = useState(0);
  const live = useLiveAvailability(catalogEvent.id, liveAsked);
  const event = useMemo(() => withLiveAvailability(catalogEvent, live), [catalogEvent, live]);
  // The cart (state machine, local storage) starts on the first add, not while the page
  // hydrates: less work before the page responds (Total Blocking Time).
  const onAdd = useCallback(
    (quantity: number, variant?: Variant) =>
      addToCart(getCartActor(), cartLine(catalogEvent, variant), quantity),
    [catalogEvent],
  );
  const waitlist = useCallback(
    (units: SoldOutUnit[]) => (
      <WaitlistJoin units={units} onPlacesFree={() => setLiveAsked((n) => n + 1)} />
    ),
    [],
  );
  return <EventDetailView event={event} onAdd={onAdd} waitlist={waitlist} />;
}
