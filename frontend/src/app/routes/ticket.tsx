import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { Ticket } from '@awhh/machines';
import { isNotFound } from '@/lib/api-client';
import { usePageMeta } from '@/lib/page-meta';
import { Deferred } from '@/components/ui/deferred';
import { Loading } from '@/components/ui/feedback';
import { fetchTicket } from '@/features/tickets/api';
import { TicketNotFound, TicketSkeleton, TicketView } from '@/features/tickets/ticket-view';

// DESIGN "Tickets and the door": personal, so never indexed; the HTML carries no ticket data.
const DESCRIPTION = 'Dein Ticket mit QR-Code für den Einlass.';

export function loader({ params, request }: LoaderFunctionArgs) {
  return { ticket: fetchTicket(params.token ?? '', request.signal) };
}

// Each state sets its own title (a parent's effect would run after its child's and win).
function Meta({ title }: { title: string }) {
  usePageMeta({ title, description: DESCRIPTION, noindex: true });
  return null;
}

function Loaded({ ticket }: { ticket: Ticket }) {
  return (
    <>
      <Meta title={`Ticket: ${ticket.eventName}`} />
      <TicketView ticket={ticket} />
    </>
  );
}

function NotFound() {
  return (
    <>
      <Meta title="Ticket nicht gefunden" />
      <TicketNotFound />
    </>
  );
}

export function Component() {
  const { ticket } = useLoaderData<typeof loader>();
  return (
    <Deferred
      resolve={ticket}
      fallback={
        <Loading label="Ticket wird geladen">
          <Meta title="Dein Ticket" />
          <TicketSkeleton />
        </Loading>
      }
      renderError={(error) => (isNotFound(error) ? <NotFound /> : null)}
    >
      {(loaded) => <Loaded ticket={loaded} />}
    </Deferred>
  );
}
