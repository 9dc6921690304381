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
  status: 'valid' | 'revoked';
  checkedInAt?: string | null;
  checkedInDevice?: string | null;
}

/** `GET /api/checkin/events/:eventId/tickets`. */
export interface DoorTicketList {
  eventId: number;
  generatedAt: string;
  tickets: DoorTicket[];
}

/** The claims a ticket token carries (backend/src/tickets/ticket-signer.ts). */
export interface TicketClaims {
  /** Ticket id. */
  t: string;
  /** Event (product) id. */
  e: number;
  /** Seat, 1-based. */
  s: number;
}

/** A check-in this device knows of: its own scan, or one the server reported. */
export interface DoorCheckin {
  ticketId: string;
  at: string;
  device: string | null;
}

/** One scan in the outbox of `POST /api/checkin/scans` (idempotent by scanId). */
export interface DoorScan {
  scanId: string;
  token: string;
  scannedAt: string;
  device: string;
}

export type DoorScanStatus = 'ok' | 'already' | 'invalid' | 'revoked';

export interface DoorScanResult {
  scanId: string;
  status: DoorScanStatus;
  firstScannedAt?: string | null;
  firstDevice?: string | null;
}

export type DoorVerdict =
  | { kind: 'valid'; ticket: DoorTicket }
  | { kind: 'already'; ticket: DoorTicket; at: string; device: string | null }
  | { kind: 'revoked'; ticket: DoorTicket }
  | { kind: 'invalid'; reason: 'unreadable' | 'signature' | 'unknown' }
  | { kind: 'otherEvent'; eventId: number };

/** A failed request as the door machine needs to know it (status 0: no network). */
export interface DoorFailure {
  status: number;
  message: string;
  retryAfterSeconds?: number;
}
