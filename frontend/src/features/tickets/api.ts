import type { Ticket } from '@awhh/machines';
import { apiGet, apiPost } from '@/lib/api-client';

export const ticketsApi = {
  ticket: (token: string) => `/api/tickets/${encodeURIComponent(token)}`,
  pdf: (token: string) => `/api/tickets/${encodeURIComponent(token)}/pdf`,
  resend: '/api/tickets/resend',
} as const;

// Trusted as typed, as the other features do: the server validates against ticketSchema
// and zod stays out of the browser.
export function fetchTicket(token: string, signal?: AbortSignal): Promise<Ticket> {
  return apiGet<Ticket>(ticketsApi.ticket(token), signal);
}

/** rules "Tickets and the door": always 202, so nobody learns which addresses have tickets. */
export async function resendTickets(email: string, signal?: AbortSignal): Promise<void> {
  await apiPost<unknown>(ticketsApi.resend, { email }, signal);
}
