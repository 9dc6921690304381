import { useEffect } from 'react';
import { data, useLoaderData, useRevalidator, type LoaderFunctionArgs } from 'react-router';
import type { Ticket } from '@awhh/machines';
import { errorText, isNotFound } from '@/lib/api-client';
import { dataSource } from '@/lib/data-source';
import type { RouteHandle } from '@/lib/page-head';
import { ErrorState, Loading } from '@/components/ui/feedback';
import { fetchTicket, isPassedOn } from '@/features/tickets/api';
import { registerTicketWorker } from '@/features/tickets/offline';
import {
  TicketNotFound,
  TicketPassedOn,
  TicketSkeleton,
  TicketView,
} from '@/features/tickets/ticket-view';

// The page's ticket forms (resend, the holder's name, passing it on) post here.
export { ticketFormsAction as action } from '@/features/tickets/ticket-actions';

type TicketState =
  | { status: 'pending' }
  | { status: 'found'; ticket: Ticket }
  | { status: 'not-found' }
  | { status: 'passed-on' }
  | { status: 'failed'; message: string };

/** A compact JWS: base64url parts joined by dots (rules "Tickets and the door"). */
const TICKET_TOKEN = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
/** Far above a real token (about 150 characters); longer paths are not tickets. */
const MAX_TICKET_TOKEN = 2048;

export async function loader({ params, request }: LoaderFunctionArgs): Promise<{
  ticket: TicketState;
}> {
  const token = params.token ?? '';
  // A path that cannot be a token names no page: the 404 page, status 404.
  if (token.length > MAX_TICKET_TOKEN || !TICKET_TOKEN.test(token)) {
    throw data('Ticket nicht gefunden', { status: 404 });
  }
  // rules "Tickets and the door": the page needs one request. The server renderer asks the
  // checkout side for the ticket (the products process never reads the ticket store), so
  // the HTML already carries the event, the holder and the QR code; the browser hydrates
  // from that data. Only when the server cannot reach it does the browser ask after
  // hydration.
  const source = dataSource();
  if (source.onServer) {
    if (!source.ticket) return { ticket: { status: 'pending' } };
    try {
      return { ticket: await source.ticket(token, request.signal) };
    } catch {
      return { ticket: { status: 'pending' } };
    }
  }
  try {
    return {
      ticket: { status: 'found', ticket: await fetchTicket(token, request.signal) },
    };
  } catch (error) {
    if (isNotFound(error)) return { ticket: { status: 'not-found' } };
    // rules "Named tickets": the ticket went to someone else; this link is void.
    if (isPassedOn(error)) return { ticket: { status: 'passed-on' } };
    return { ticket: { status: 'failed', message: errorText(error) } };
  }
}

const TITLES: Record<TicketState['status'], string> = {
  pending: 'Dein Ticket',
  found: 'Dein Ticket',
  'not-found': 'Ticket nicht gefunden',
  'passed-on': 'Ticket weitergegeben',
  failed: 'Dein Ticket',
};

export const handle: RouteHandle<Awaited<ReturnType<typeof loader>>> = {
  meta: ({ data }) => {
    const state = data?.ticket ?? { status: 'pending' };
    return {
      title: state.status === 'found' ? `Ticket: ${state.ticket.eventName}` : TITLES[state.status],
      description: 'Dein Ticket für ein Event von After Work Hamburg, mit QR-Code für den Einlass.',
      // Never indexed under any address: the address is the ticket.
      canonical: null,
      noindex: true,
    };
  },
};

export function Component() {
  const { ticket } = useLoaderData<typeof loader>();
  const { revalidate } = useRevalidator();
  const pending = ticket.status === 'pending';
  useEffect(() => {
    if (pending) void revalidate();
  }, [pending, revalidate]);
  const found = ticket.status === 'found';
  // A ticket shown once opens again without network (frontend/public/tickets/sw.js).
  useEffect(() => {
    if (found) void registerTicketWorker();
  }, [found]);
  switch (ticket.status) {
    case 'found':
      return <TicketView ticket={ticket.ticket} />;
    case 'not-found':
      return <TicketNotFound />;
    case 'passed-on':
      return <TicketPassedOn />;
    case 'failed':
      return <ErrorState message={ticket.message} onRetry={() => void revalidate()} />;
    default:
      return (
        <Loading label="Ticket wird geladen">
          <TicketSkeleton />
        </Loading>
      );
  }
}
