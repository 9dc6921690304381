import type { TicketStatus } from '@awhh/machines';

/**
 * The door's store port (rules "Tickets and the door"); the Kysely adapter is
 * `checkin.repository.ts`.
 */

/** rules "Tickets and the door": an event as the door chooses it, from its issued tickets. */
export interface CheckinEvent {
  eventId: number;
  /** As the catalog described the event at issue time (one of them, had it changed between sales). */
  eventName: string;
  /** ISO 8601, or null when the catalog had no date. */
  startsAt: string | null;
  venue: string | null;
  valid: number;
  revoked: number;
  checkedIn: number;
}

/** A ticket in the door's download list. */
export interface DoorTicket {
  id: string;
  /** The ticket's order: the site's (`ord_…`) or one made in the shop (`shop-…`). */
  orderId: string;
  seat: number;
  seats: number;
  tier: string | null;
  holder: string | null;
  /** A guest-list seat (rules "Orders made in the shop"). */
  guestList: boolean;
  /** rules "Named tickets": the holder's company, and how often the ticket was passed on. */
  company?: string | null;
  generation?: number;
  /** The short codes it had before it was passed on, oldest first. */
  passedOnCodes?: readonly string[];
  status: TicketStatus;
  /** The event's start as the ticket was issued for it (ISO 8601), or null. */
  startsAt: string | null;
  /** The first check-in's scan time (epoch ms) and device; null until checked in. */
  checkedInAt: number | null;
  checkedInDevice: string | null;
  /** The short ticket code as stored (`K7QM3XPA`). */
  code: string | null;
  /** The order's number as the buyer was given it (the shop's), for the guest-list search. */
  orderNumber: string | null;
  /** The buyer's address: the service sends only its key (`guestEmailKey`), never the address. */
  email: string | null;
  /** The buyer's name (the site's order or the shop's billing name), for unnamed seats. */
  buyer: string | null;
}

/** Another event's ticket code, for the door's "Anderes Event" on a typed code. */
export interface OtherEventCode {
  eventId: number;
  code: string;
  /** The event's start as the ticket was issued for it (ISO 8601), or null. */
  startsAt: string | null;
}

/** What a scan is checked against: the ticket's event, seat and status. */
export interface TicketAtDoor {
  id: string;
  eventId: number;
  seat: number;
  status: TicketStatus;
  /** Epoch ms: no scan of the ticket can have happened before. */
  issuedAt: number;
  /** The event's start as the catalog gave it (ISO 8601), or null. */
  startsAt: string | null;
  /** rules "Named tickets": only a token of this generation admits. */
  generation: number;
}

export interface CheckIn {
  ticketId: string;
  scanId: string;
  /** Epoch ms, as the device scanned it. */
  scannedAt: number;
  device: string;
}

/** `early`: a genuine ticket scanned before its evening's check-in opened. */
export type ScanStatus = 'ok' | 'already' | 'invalid' | 'revoked' | 'early';

export interface ScanRecord {
  scanId: string;
  /** Null when the token is not one of our tickets. */
  ticketId: string | null;
  scannedAt: number;
  device: string;
  status: ScanStatus;
}

/**
 * The door's check-ins. Not part of Transaction: a sync is one transaction of its own
 * (`transaction`), run by nothing else.
 */
export abstract class CheckinRepository {
  /** Every event with issued tickets, with its counts. */
  abstract events(): Promise<CheckinEvent[]>;
  /** The event's tickets in order, line and seat order, with their first check-in. */
  abstract eventTickets(eventId: number): Promise<DoorTicket[]>;
  /** Runs `work` in one write transaction with this repository bound to it. */
  abstract transaction<T>(work: (checkins: CheckinRepository) => Promise<T>): Promise<T>;
  /**
   * The tickets named by short codes (stored form), keyed `${eventId}:${code}`: a code is
   * unique within its event only.
   */
  abstract ticketsByCode(
    codes: readonly { eventId: number; code: string }[],
  ): Promise<Map<string, { id: string; eventId: number; seat: number }>>;
  /** Codes of other events' tickets whose start is at or after `since` (ISO 8601), or undated. */
  abstract otherEventCodes(eventId: number, since: string): Promise<OtherEventCode[]>;
  /** Ticket id (null for an invalid token) of each scan id synced before. */
  abstract knownScans(scanIds: readonly string[]): Promise<Map<string, string | null>>;
  abstract ticketsAtDoor(ticketIds: readonly string[]): Promise<Map<string, TicketAtDoor>>;
  /**
   * Per ticket: inserts the check-in, or replaces the stored one when this one was scanned
   * earlier (ties: the smaller scan id), in one statement per batch, so concurrent syncs on
   * several processes end with the same first check-in. At most one check-in per ticket.
   */
  abstract keepEarliest(checkIns: readonly CheckIn[], now: number): Promise<void>;
  abstract firstCheckIns(ticketIds: readonly string[]): Promise<Map<string, CheckIn>>;
  /** Idempotent by scan id: a scan recorded before is left as it is. */
  abstract recordScans(scans: readonly ScanRecord[], now: number): Promise<void>;
  /**
   * rules "The organizer": the ticket's check-in is undone; returns the one removed, null
   * when there was none. Its scans stay recorded (a repeated sync of them adds nothing).
   */
  abstract removeCheckIn(ticketId: string): Promise<CheckIn | null>;
}
