import type { TicketStatus } from '@awhh/machines';

/**
 * The tickets' store port (rules "Tickets and the door"); the Kysely adapter is
 * `ticket.repository.ts`. The paid transition issues seats in its transaction:
 * `tx.get(TicketRepository)`.
 */

/** A seat as the paid transition issues it (rules "Tickets and the door"). */
export interface NewTicket {
  id: string;
  orderId: string;
  linePosition: number;
  seat: number;
  seats: number;
  eventId: number;
  variationId: number | null;
  eventName: string;
  eventSlug: string | null;
  /** ISO 8601. */
  startsAt: string | null;
  venue: string | null;
  tier: string | null;
  holder: string | null;
}

export interface StoredTicket extends NewTicket {
  status: TicketStatus;
  issuedAt: number;
  revokedAt: number | null;
}

export abstract class TicketRepository {
  /** Inserts the seats; a seat already issued (same order line and seat) is left as it is. */
  abstract issue(tickets: readonly NewTicket[], now: number): Promise<void>;
  abstract find(id: string): Promise<StoredTicket | undefined>;
  /** In the order's line and seat order. */
  abstract forOrder(orderId: string): Promise<StoredTicket[]>;
  /** Valid tickets of orders bought with this e-mail address (any case), newest order first. */
  abstract validForEmail(email: string): Promise<StoredTicket[]>;
  /** The order's valid tickets become revoked; returns how many changed. */
  abstract revokeForOrder(orderId: string, now: number): Promise<number>;
  /**
   * The order's revoked tickets admit again (a dispute decided for the shop); returns how
   * many changed. Only a disputed order's tickets are revoked while the order may be paid.
   */
  abstract restoreForOrder(orderId: string): Promise<number>;
}
