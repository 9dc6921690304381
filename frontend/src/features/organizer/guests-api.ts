import type {
  AttendeeAnswer,
  AttendeeCancel,
  AttendeeCancelAnswer,
  Attendees,
  TicketHolderRequest,
} from '@awhh/machines';
import { apiGet, apiRequest } from '@/lib/api-client';

// rules "The organizer": the guest list's API (the session cookie travels by itself).
const base = (eventId: number) => `/api/organizer/events/${eventId}/attendees`;

export const guestsApi = {
  csv: (eventId: number) => `${base(eventId)}.csv`,
} as const;

/** One page of the event's guests, or of those the search finds. */
export function fetchAttendees(
  eventId: number,
  query: { q: string; offset: number; limit: number },
  signal?: AbortSignal,
): Promise<Attendees> {
  const params = new URLSearchParams({ offset: String(query.offset), limit: String(query.limit) });
  if (query.q.trim() !== '') params.set('q', query.q.trim());
  return apiGet<Attendees>(`${base(eventId)}?${params}`, signal);
}

export function checkInAttendee(eventId: number, ticketId: string): Promise<AttendeeAnswer> {
  return apiRequest<AttendeeAnswer>(`${base(eventId)}/${encodeURIComponent(ticketId)}/check-in`, {
    method: 'POST',
  });
}

export function undoCheckIn(eventId: number, ticketId: string): Promise<AttendeeAnswer> {
  return apiRequest<AttendeeAnswer>(`${base(eventId)}/${encodeURIComponent(ticketId)}/check-in`, {
    method: 'DELETE',
  });
}

export function resendTicket(eventId: number, ticketId: string): Promise<AttendeeAnswer> {
  return apiRequest<AttendeeAnswer>(`${base(eventId)}/${encodeURIComponent(ticketId)}/resend`, {
    method: 'POST',
  });
}

export function cancelAttendee(
  eventId: number,
  ticketId: string,
  body: AttendeeCancel,
): Promise<AttendeeCancelAnswer> {
  return apiRequest<AttendeeCancelAnswer>(
    `${base(eventId)}/${encodeURIComponent(ticketId)}/cancel`,
    { method: 'POST', body },
  );
}

/** rules "Named tickets": the organizer corrects who comes with a ticket. */
export function setGuestName(
  ticketId: string,
  body: TicketHolderRequest,
): Promise<{ ticketId: string; holder: string; company: string | null }> {
  return apiRequest(`/api/organizer/tickets/${encodeURIComponent(ticketId)}/holder`, {
    method: 'PUT',
    body,
  });
}
