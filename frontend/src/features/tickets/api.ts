import type { Ticket } from '@awhh/machines';
import { api } from '@/config/paths';
import { apiGet, apiPost } from '@/lib/api-client';

// Trusted as typed, as the other features do: the server validates against ticketSchema
// and zod stays out of the browser.
export function fetchTicket(token: string, signal?: AbortSignal): Promise<Ticket> {
  return apiGet<Ticket>(api.ticket(token), signal);
}

/** rules "Tickets and the door": always 202, so nobody learns which addresses have tickets. */
export async function resendTickets(email: string, signal?: AbortSignal): Promise<void> {
  await apiPost<unknown>(api.ticketResend, { email }, signal);
}
