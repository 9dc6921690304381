import type {
  Ticket,
  TicketReturnView,
  TicketHolderRequest,
  TicketTransferRequest,
  TicketTransferResult,
} from '@awhh/machines';
import { ApiRequestError, apiGet, apiPost, apiRequest } from '@/lib/api-client';

export const ticketsApi = {
  ticket: (token: string) => `/api/tickets/${encodeURIComponent(token)}`,
  pdf: (token: string) => `/api/tickets/${encodeURIComponent(token)}/pdf`,
  resend: '/api/tickets/resend',
  holder: (token: string) => `/api/tickets/${encodeURIComponent(token)}/holder`,
  transfer: (token: string) => `/api/tickets/${encodeURIComponent(token)}/transfer`,
  return: (token: string) => `/api/tickets/${encodeURIComponent(token)}/return`,
} as const;

/** rules "Named tickets": the API's answer for a token of a ticket passed on since. */
export function isPassedOn(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 410;
}

// Trusted as typed, as the other features do: the server validates against ticketSchema
// and zod stays out of the browser.
export function fetchTicket(token: string, signal?: AbortSignal): Promise<Ticket> {
  return apiGet<Ticket>(ticketsApi.ticket(token), signal);
}

/** rules "Tickets and the door": always 202, so nobody learns which addresses have tickets. */
export async function resendTickets(email: string, signal?: AbortSignal): Promise<void> {
  await apiPost<unknown>(ticketsApi.resend, { email }, signal);
}

/** rules "Named tickets": names the ticket with its own token. */
export function nameTicket(
  token: string,
  holder: TicketHolderRequest,
  signal?: AbortSignal,
): Promise<{ holder: string; company: string | null }> {
  return apiPost(ticketsApi.holder(token), holder, signal);
}

/** rules "Named tickets": passes it on; the new link goes to the new holder by mail only. */
export function transferTicket(
  token: string,
  to: TicketTransferRequest,
  signal?: AbortSignal,
): Promise<TicketTransferResult> {
  return apiPost(ticketsApi.transfer(token), to, signal);
}

/** rules "Giving a ticket back": what the ticket page offers. */
export function fetchTicketReturn(token: string, signal?: AbortSignal): Promise<TicketReturnView> {
  return apiGet<TicketReturnView>(ticketsApi.return(token), signal);
}

/** rules "Giving a ticket back": offers it back (`POST`) or takes it back (`DELETE`). */
export function changeTicketReturn(
  token: string,
  method: 'POST' | 'DELETE',
  signal?: AbortSignal,
): Promise<TicketReturnView> {
  return apiRequest<TicketReturnView>(ticketsApi.return(token), { method, signal });
}
