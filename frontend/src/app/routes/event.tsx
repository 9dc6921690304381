import { useCallback } from 'react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { EventDetail, Variant } from '@awhh/machines';
import { env } from '@/config/env';
import { isNotFound } from '@/lib/api-client';
import { isFirstLoad } from '@/lib/first-load';
import { usePageMeta } from '@/lib/page-meta';
import { Deferred } from '@/components/ui/deferred';
import { Loading } from '@/components/ui/feedback';
import { fetchEvent } from '@/features/events/api';
import { EventDetailSkeleton, EventDetailView } from '@/features/events/event-detail';
import { cartLine } from '@/features/cart/cart-line';
import { useCartActor } from '@/features/cart/use-cart';
import { ErrorPage } from '../error-page';

export function loader({ params, request }: LoaderFunctionArgs) {
  const slug = params.slug ?? '';
  const event: Promise<EventDetail> = fetchEvent(slug, request.signal);
  if (!isFirstLoad()) return { slug, event: event as EventDetail | Promise<EventDetail> };
  // The HTML shows this event's first screen; a failure stays a promise for the error state.
  return event.then(
    (value) => ({ slug, event: value as EventDetail | Promise<EventDetail> }),
    () => ({ slug, event }),
  );
}

function EventMeta({ event }: { event: EventDetail }) {
  usePageMeta({
    title: event.name,
    description: event.shortDescription || `${event.name} – ein Abend von ${env.productName}.`,
  });
  return null;
}

function Loaded({ event }: { event: EventDetail }) {
  const cart = useCartActor();
  const onAdd = useCallback(
    (quantity: number, variant?: Variant) =>
      cart.send({ type: 'cart.add', quantity, item: cartLine(event, variant) }),
    [cart, event],
  );
  return (
    <>
      <EventMeta event={event} />
      {/* Keyed: another event starts with its own tier and quantity. */}
      <EventDetailView key={event.id} event={event} onAdd={onAdd} />
    </>
  );
}

export function Component() {
  const { event } = useLoaderData<typeof loader>();
  return (
    <Deferred
      resolve={event}
      fallback={
        <Loading label="Event wird geladen">
          <EventDetailSkeleton />
        </Loading>
      }
      renderError={(error) => (isNotFound(error) ? <ErrorPage status={404} /> : null)}
    >
      {(loaded) => <Loaded event={loaded} />}
    </Deferred>
  );
}
