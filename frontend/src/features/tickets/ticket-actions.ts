import type { ActionFunctionArgs } from 'react-router';
import type { TicketHolderRequest, TicketTransferRequest } from '@awhh/machines';
import { ApiRequestError } from '@/lib/api-client';
import { apiAction } from '@/lib/form-action';
import { changeTicketReturn, nameTicket, resendTickets, transferTicket } from './api';

/** What the ticket forms of a page send to its action; no intent: the resend form. */
export type TicketFormBody =
  | { intent?: undefined; email: string }
  | { intent: 'holder'; token: string; holder: TicketHolderRequest }
  | {
      intent: 'holders';
      tickets: { token: string; label: string; holder: TicketHolderRequest }[];
    }
  | { intent: 'transfer'; token: string; to: TicketTransferRequest }
  | { intent: 'return' | 'returnUndo'; token: string };

/**
 * The action of the routes that show ticket forms (the ticket page, /success): the resend,
 * naming one ticket or several ("Wer kommt?", each with its own token), passing one on, and
 * giving one back to the waiting list or taking it back.
 */
export async function ticketFormsAction({ request }: ActionFunctionArgs) {
  const body = (await request.json()) as TicketFormBody;
  switch (body.intent) {
    case 'holder':
      return apiAction(() => nameTicket(body.token, body.holder));
    case 'holders':
      return apiAction(async () => {
        // One after the other: the first refusal stops and is shown beside the form,
        // naming its ticket.
        for (const { token, label, holder } of body.tickets) {
          try {
            await nameTicket(token, holder);
          } catch (error) {
            if (!(error instanceof ApiRequestError)) throw error;
            throw new ApiRequestError({ ...error.body, message: `${label}: ${error.message}` });
          }
        }
        return { saved: body.tickets.length };
      });
    case 'transfer':
      return apiAction(() => transferTicket(body.token, body.to));
    case 'return':
      return apiAction(() => changeTicketReturn(body.token, 'POST'));
    case 'returnUndo':
      return apiAction(() => changeTicketReturn(body.token, 'DELETE'));
    default:
      return apiAction(() => resendTickets(body.email));
  }
}
