import { formatLongDate, formatTime } from '@awhh/machines';
import type { StoredTicket } from '../tickets.port.js';

/**
 * How the short mails about one ticket name it: `when` (" am Freitag, 15. Januar 2027, 18:00",
 * empty without a date) and `which` ("VIP, Ticket 2 von 3", empty for a single untiered seat).
 */
export function ticketWords(ticket: Pick<StoredTicket, 'startsAt' | 'tier' | 'seat' | 'seats'>): {
  when: string;
  which: string;
} {
  const date = formatLongDate(ticket.startsAt);
  const when = date
    ? ` am ${date}${ticket.startsAt ? `, ${formatTime(ticket.startsAt)}` : ''}`
    : '';
  const which = [ticket.tier, ticket.seats > 1 ? `Ticket ${ticket.seat} von ${ticket.seats}` : null]
    .filter(Boolean)
    .join(', ');
  return { when, which };
}
