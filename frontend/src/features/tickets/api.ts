import type {
  Ticket,
  TicketHolderRequest,
  TicketTransferRequest,
  TicketTransferResult,
} from '@awhh/machines';
import { ApiRequestError, apiGet, apiPost } from '@/lib/api-client';

export const ticketsApi = {
  ticket: (token: string) => `/api/tickets/${encodeURIComponent(token)}`,
  pdf: (token: string) => `/api/tickets/${encodeURIComponent(token)}/pdf`,
  resend: '/api/tickets/resend',
  holder: (token: string) => `/api/tickets/${encodeURIComponent(token)}/holder`,
  transfer: (token: string) => `/api/tickets/${encodeURIComponent(token)}/transfer`,
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
