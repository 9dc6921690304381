import { Inject, Injectable } from '@nestjs/common';
import {
  type Attendee,
  type Attendees,
  type AttendeeStatus,
  attendeesQuerySchema,
  foldForSearch,
  formatNumericDate,
  formatClock,
  formatTicketCode,
  guestEmailKey,
  guestIndex,
  normalizeTicketCode,
  ORGANIZER_DEVICE,
  parseGuestQuery,
  searchGuests,
  type DoorTicket as DoorListTicket,
} from '@awhh/machines';
import { apiError } from '../common/api-error.js';
import { CheckinRepository, type DoorTicket } from '../door/door.port.js';
import { ManualCheckins } from '../door/manual-checkin.js';
import { JobRepository } from '../jobs/jobs.port.js';
import { ORDER_JOBS, orderJob } from '../orders/order-jobs.js';
import { TRANSFER_JOBS, transferJob } from '../tickets/ticket-transfer.jobs.js';
import { OrganizerDashboard } from './organizer-dashboard.js';

export const GUEST_NOT_FOUND_MESSAGE = 'Dieses Ticket gibt es bei diesem Event nicht.';
export const GUEST_REVOKED_MESSAGE =
  'Dieses Ticket ist storniert und kann nicht eingecheckt werden.';
export const RESEND_REVOKED_MESSAGE =
  'Dieses Ticket ist storniert; es wird nicht noch einmal verschickt.';
export const RESEND_NO_ADDRESS_MESSAGE =
  'Zu diesem Ticket ist keine E-Mail-Adresse gespeichert; es kann nicht verschickt werden.';
const EVENT_NOT_FOUND_MESSAGE = 'Dieses Event gibt es nicht.';

const STATUS_WORDS: Record<AttendeeStatus, string> = {
  valid: 'Gültig',
  checkedIn: 'Eingecheckt',
  revoked: 'Storniert',
};

/** The CSV's columns, German as the organizer's spreadsheet shows them. */
const CSV_HEADERS = [
  'Name',
  'Firma',
  'E-Mail',
  'Ticketart',
  'Status',
  'Eingecheckt am',
  'Eingecheckt um',
  'Gerät',
  'Ticket-Code',
  'Bestellnummer',
  'Platz',
  'Gästeliste',
];

/**
 * rules "The organizer": the guest list of one event, read from the door's list of its
 * tickets (the same check-ins the door phones see): all of it, or what a search finds, the
 * door's guest search (`searchGuests`) over name, company and e-mail address, the order
 * number, and the short code; the CSV of it; a check-in by hand and its undo; a ticket mail
 * sent again.
 */
@Injectable()
export class OrganizerGuests {
  constructor(
    @Inject(CheckinRepository) private readonly checkins: CheckinRepository,
    @Inject(ManualCheckins) private readonly manual: ManualCheckins,
    @Inject(OrganizerDashboard) private readonly dashboard: OrganizerDashboard,
    @Inject(JobRepository) private readonly jobs: JobRepository,
  ) {}

  async list(idParam: string, query: unknown): Promise<Attendees> {
    const eventId = eventIdOf(idParam);
    const parsed = attendeesQuerySchema.safeParse(query ?? {});
    if (!parsed.success) {
      throw apiError(400, parsed.error.issues[0]?.message ?? 'Die Suche ist ungültig.');
    }
    const { q, offset, limit } = parsed.data;
    const tickets = await this.tickets(eventId);
    const found = q === '' ? byName(tickets) : search(eventId, tickets, q);
    return {
      attendees: found.slice(offset, offset + limit).map(attendeeOf),
      total: found.length,
      offset,
      limit,
    };
  }

  /**
   * rules "The organizer": the whole list as CSV for a spreadsheet: UTF-8 with a byte-order
   * mark (Excel reads umlauts right only with it), `;` between cells (German Excel's list
   * separator), CRLF lines, German headers.
   */
  async csv(idParam: string): Promise<{ filename: string; body: string }> {
    const eventId = eventIdOf(idParam);
    const rows = byName(await this.tickets(eventId)).map(attendeeOf);
    const lines = [CSV_HEADERS, ...rows.map(csvRow)].map((cells) => cells.map(csvCell).join(';'));
    return { filename: `gaesteliste-${eventId}.csv`, body: `\uFEFF${lines.join('\r\n')}\r\n` };
  }

  /**
   * A check-in by hand, under the door's rules: a revoked ticket is refused, one checked in
   * already keeps its first check-in (409 naming it).
   */
  async checkIn(idParam: string, ticketIdParam: string): Promise<{ attendee: Attendee }> {
    const eventId = eventIdOf(idParam);
    const ticketId = ticketIdOf(ticketIdParam);
    const done = await this.manual.checkIn(eventId, ticketId, ORGANIZER_DEVICE);
    if (done.outcome === 'unknown') throw apiError(404, GUEST_NOT_FOUND_MESSAGE);
    if (done.outcome === 'revoked') throw apiError(409, GUEST_REVOKED_MESSAGE);
    const attendee = await this.attendee(eventId, ticketId);
    if (done.outcome === 'already') {
      const at = new Date(Number(done.checkIn.scannedAt));
      throw apiError(
        409,
        `Bereits eingecheckt am ${formatNumericDate(at)} um ${formatClock(at)} Uhr (${done.checkIn.device}).`,
        { attendee },
      );
    }
    return { attendee };
  }

  /** Undoes the ticket's check-in, whichever device made it (rules "The organizer"). */
  async undoCheckIn(idParam: string, ticketIdParam: string): Promise<{ attendee: Attendee }> {
    const eventId = eventIdOf(idParam);
    const ticketId = ticketIdOf(ticketIdParam);
    const undone = await this.manual.undo(eventId, ticketId);
    if (!undone) throw apiError(404, GUEST_NOT_FOUND_MESSAGE);
    return { attendee: await this.attendee(eventId, ticketId) };
  }

  /**
   * The ticket mail again, through the outbox: the order's resend job (the order's address
   * gets its valid tickets, as `POST /api/tickets/resend` sends them), or for a ticket passed
   * on the new holder's mail of its transfer (rules "Named tickets"). A second request while
   * one waits adds nothing.
   */
  async resend(idParam: string, ticketIdParam: string): Promise<{ attendee: Attendee }> {
    const eventId = eventIdOf(idParam);
    const ticketId = ticketIdOf(ticketIdParam);
    const ticket = (await this.checkins.eventTickets(eventId)).find((t) => t.id === ticketId);
    if (!ticket) throw apiError(404, GUEST_NOT_FOUND_MESSAGE);
    if (ticket.status !== 'valid') throw apiError(409, RESEND_REVOKED_MESSAGE);
    if (!ticket.email) throw apiError(409, RESEND_NO_ADDRESS_MESSAGE);
    const generation = ticket.generation ?? 0;
    await this.jobs.enqueueAgain(
      generation > 0
        ? transferJob(TRANSFER_JOBS.holderMail, { ...ticket, generation })
        : orderJob(ORDER_JOBS.ticketResend, ticket.orderId),
      Date.now(),
    );
    return { attendee: attendeeOf(ticket) };
  }

  /** The event's tickets; 404 when neither a ticket nor the catalog knows the event. */
  private async tickets(eventId: number): Promise<DoorTicket[]> {
    const tickets = await this.checkins.eventTickets(eventId);
    if (tickets.length === 0 && !(await this.dashboard.event(eventId))) {
      throw apiError(404, EVENT_NOT_FOUND_MESSAGE);
    }
    return tickets;
  }

  private async attendee(eventId: number, ticketId: string): Promise<Attendee> {
    const ticket = (await this.checkins.eventTickets(eventId)).find((t) => t.id === ticketId);
    if (!ticket) throw apiError(404, GUEST_NOT_FOUND_MESSAGE);
    return attendeeOf(ticket);
  }
}

function eventIdOf(param: string): number {
  if (!/^\d{1,10}$/.test(param)) throw apiError(404, EVENT_NOT_FOUND_MESSAGE);
  return Number(param);
}

export function ticketIdOf(param: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(param)) throw apiError(404, GUEST_NOT_FOUND_MESSAGE);
  return param;
}

/** An order made in the shop (rules "Orders made in the shop") is the shop's to cancel. */
function isShopOrder(orderId: string): boolean {
  return orderId.startsWith('shop-');
}

export function attendeeOf(t: DoorTicket): Attendee {
  const checkedInAt = t.checkedInAt === null ? null : Number(t.checkedInAt);
  const status: AttendeeStatus =
    t.status === 'revoked' ? 'revoked' : checkedInAt !== null ? 'checkedIn' : 'valid';
  return {
    ticketId: t.id,
    name: t.holder,
    company: t.company ?? null,
    email: t.email,
    tier: t.tier,
    status,
    checkedInAt: checkedInAt === null ? null : new Date(checkedInAt).toISOString(),
    device: checkedInAt === null ? null : t.checkedInDevice,
    // A revoked ticket shows no code, as on its page (rules "Tickets and the door").
    code: t.code && t.status === 'valid' ? formatTicketCode(t.code) : null,
    orderNumber: t.orderNumber,
    orderId: isShopOrder(t.orderId) ? null : t.orderId,
    seat: t.seat,
    seats: t.seats,
    guestList: t.guestList,
  };
}

/**
 * The whole list by name (nameless tickets last), then in order, line and seat order. The
 * names compare folded as the search folds them (Müller as Muller, as German lists file
 * umlauts): a plain comparison of 2,000 keys, where a collator's would cost the budget.
 */
function byName(tickets: readonly DoorTicket[]): DoorTicket[] {
  return tickets
    .map((ticket, at) => ({ ticket, at, key: ticket.holder ? foldForSearch(ticket.holder) : '' }))
    .sort(
      (a, b) =>
        Number(a.key === '') - Number(b.key === '') ||
        (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
        a.at - b.at,
    )
    .map((row) => row.ticket);
}

/**
 * The door's guest search (rules "Tickets and the door": accents and umlauts do not count)
 * over the holder's name, company and address as one text, so a part of any of them finds
 * the ticket; a whole address by its key, digits as the order number; a short code typed
 * in any form finds its ticket first.
 */
function search(eventId: number, tickets: readonly DoorTicket[], q: string): DoorTicket[] {
  const byId = new Map(tickets.map((t) => [t.id, t]));
  const code = normalizeTicketCode(q);
  const exact = code ? tickets.filter((t) => t.code === code) : [];
  const query = parseGuestQuery(eventId, q);
  const wantsEmail = query.kind === 'email';
  const index = guestIndex(
    eventId,
    tickets.map((t): DoorListTicket => ({
      id: t.id,
      seat: t.seat,
      seats: t.seats,
      tier: t.tier,
      // A seat nobody was named for yet is found by its buyer, as at the door.
      holder: [t.holder ?? t.buyer, t.company, t.email].filter(Boolean).join(' ') || null,
      status: t.status,
      ...(t.orderNumber ? { orderNumber: t.orderNumber } : {}),
      ...(wantsEmail && t.email ? { emailKey: guestEmailKey(eventId, t.email) } : {}),
    })),
  );
  const hits = searchGuests(index, query, Number.POSITIVE_INFINITY).map((t) => byId.get(t.id)!);
  const seen = new Set(exact.map((t) => t.id));
  return [...exact, ...hits.filter((t) => !seen.has(t.id))];
}

function csvRow(a: Attendee): string[] {
  const at = a.checkedInAt;
  return [
    a.name ?? '',
    a.company ?? '',
    a.email ?? '',
    a.tier ?? '',
    STATUS_WORDS[a.status],
    at ? (formatNumericDate(at) ?? '') : '',
    at ? (formatClock(at) ?? '') : '',
    a.device ?? '',
    a.code ?? '',
    a.orderNumber ?? '',
    a.seats > 1 ? `${a.seat} von ${a.seats}` : String(a.seat),
    a.guestList ? 'ja' : '',
  ];
}

/**
 * One cell, always quoted: whichever separator a spreadsheet guesses (`;`, `,`, a tab), a
 * cell stays one cell. A cell a spreadsheet would read as a formula (= + - @, their
 * full-width forms, or a tab or line break, also after leading spaces) starts with an
 * apostrophe, so it shows as text and runs nothing (rules "The organizer", CSV).
 */
export function csvCell(value: string): string {
  const safe = /^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\t\r\n]/u.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}
