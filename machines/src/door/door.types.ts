// Wire shapes of the door check-in API (rules "Tickets and the door").

/** One event the door can check in for (`GET /api/checkin/events`). */
export interface DoorEventSummary {
  id: number;
  name: string;
  startsAt: string | null;
  venue: string | null;
  /** How many tickets the event has issued. */
  tickets: number;
}

/**
 * The answer to `POST /api/checkin/session`: what a device sends instead of the door code
 * (`Authorization: Bearer <token>`) until `expiresAt`, the end of the next day in Berlin.
 */
export interface DoorSession {
  token: string;
  expiresAt: string;
}

/** What unlocking gives the page: the events, and the credential to keep on the device. */
export interface DoorUnlocked {
  events: DoorEventSummary[];
  /** The door session the typed code was traded for (or the saved session that worked). */
  code: string;
}

export interface DoorTicket {
  id: string;
  seat: number;
  seats: number;
  tier: string | null;
  holder: string | null;
  /** A guest-list seat (rules "Orders made in the shop"); absent when not. */
  guestList?: boolean;
  status: 'valid' | 'revoked';
  checkedInAt?: string | null;
  checkedInDevice?: string | null;
  /** The short ticket code as stored (`K7QM3XPA`, ticket-code.ts); absent in older lists. */
  code?: string;
  /** The order number the buyer was given, for the guest-list search (today's and upcoming events). */
  orderNumber?: string;
  /** `guestEmailKey` of the buyer's address, never the address (today's and upcoming events). */
  emailKey?: string;
  /** The holder's company, beside the name (rules "Named tickets"); absent when none. */
  company?: string;
  /**
   * The buyer's name on a seat nobody has been named for yet (rules "Named tickets"), so the
   * guest-list search finds it by whoever bought it; absent when the seat has a holder.
   */
  buyer?: string;
  /**
   * How often the ticket was passed on (rules "Named tickets"): a token of an earlier
   * generation is refused as "Weitergegeben". Absent: never passed on.
   */
  generation?: number;
  /** Short codes the ticket had before it was passed on: typed, "Weitergegeben". */
  passedOnCodes?: string[];
}

/** Other events' codes, as keys (`ticketCodeKey`): a typed code of theirs is "Anderes Event". */
export interface DoorElsewhere {
  eventId: number;
  codeKeys: string[];
}

/** `GET /api/checkin/events/:eventId/tickets`. */
export interface DoorTicketList {
  eventId: number;
  generatedAt: string;
  tickets: DoorTicket[];
  /** Today's and upcoming other events; absent in older lists. */
  elsewhere?: DoorElsewhere[];
}

/** The claims a ticket token carries (backend/src/tickets/ticket-signer.ts). */
export interface TicketClaims {
  /** Ticket id. */
  t: string;
  /** Event (product) id. */
  e: number;
  /** Seat, 1-based. */
  s: number;
  /**
   * The token's generation (rules "Named tickets"): passing a ticket on signs a new token
   * with the next one. Absent in a ticket's first token (generation 0).
   */
  g?: number;
}

/** A check-in this device knows of: its own scan, or one the server reported. */
export interface DoorCheckin {
  ticketId: string;
  at: string;
  device: string | null;
}

/**
 * One scan in the outbox of `POST /api/checkin/scans` (idempotent by scanId): the QR
 * code's token, or a typed short code with the event it was typed for (codes are unique
 * per event).
 */
export interface DoorScan {
  scanId: string;
  token?: string;
  code?: string;
  eventId?: number;
  scannedAt: string;
  device: string;
}

/** `early`: scanned before the evening's check-in opened (12 hours before its start). */
export type DoorScanStatus = 'ok' | 'already' | 'invalid' | 'revoked' | 'early';

export interface DoorScanResult {
  scanId: string;
  status: DoorScanStatus;
  firstScannedAt?: string | null;
  firstDevice?: string | null;
  /** With "early": when check-in opens (ISO 8601). */
  opensAt?: string;
}

export type DoorVerdict =
  /**
   * `offline`: the server was not asked or gave no answer in time (rules "Tickets and the
   * door": the door asks it first when online), so the device's list decided.
   */
  | { kind: 'valid'; ticket: DoorTicket; offline?: boolean }
  | { kind: 'already'; ticket: DoorTicket; at: string; device: string | null }
  | { kind: 'revoked'; ticket: DoorTicket }
  /**
   * rules "Tickets and the door": a valid ticket scanned before the evening's check-in
   * opens (12 hours before its start, `opensAt`): nobody is let in, nothing is counted.
   */
  | { kind: 'tooEarly'; ticket: DoorTicket; opensAt: string }
  /** An old token or short code of a ticket that was passed on to someone else. */
  | { kind: 'passedOn'; ticket: DoorTicket }
  | { kind: 'invalid'; reason: 'unreadable' | 'signature' | 'unknown' }
  | { kind: 'otherEvent'; eventId: number; event?: { name: string; startsAt: string | null } };

/** A failed request as the door machine needs to know it (status 0: no network). */
export interface DoorFailure {
  status: number;
  message: string;
  retryAfterSeconds?: number;
}
