import type { TicketStatus } from '@awhh/machines';
import type { RefundableTicket } from './refunded-tickets.js';

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
  /** A guest-list seat: an order of 0 € made in the shop (rules "Orders made in the shop"). */
  guestList?: boolean;
}

export interface StoredTicket extends NewTicket {
  guestList: boolean;
  status: TicketStatus;
  issuedAt: number;
  revokedAt: number | null;
  /**
   * The short ticket code (`K7QM3XPA`, printed `K7QM-3XPA`): random, unique within its
   * event, made by `issue` (rules "Tickets and the door"). Null only where a store made none.
   */
  code: string | null;
  /** The holder's company (rules "Named tickets"). */
  company: string | null;
  /** The address of the holder the ticket was passed on to; null: the buyer's. */
  holderEmail: string | null;
  /** How often it was passed on: its token carries this, earlier tokens are refused. */
  generation: number;
}

/** rules "Named tickets": who comes with a ticket. */
export interface TicketHolder {
  name: string;
  company: string | null;
}

/** rules "Named tickets": the new holder of a ticket passed on. */
export interface TicketTransfer extends TicketHolder {
  email: string;
}

/** Why a ticket cannot be passed on (or named by its holder). */
export type TransferRefusal = 'stale' | 'revoked' | 'checkedIn';

/**
 * rules "The organizer": the tickets of one order line, with what their order paid (the
 * dashboard's sales and revenue).
 */
export interface TicketSale {
  eventId: number;
  variationId: number | null;
  /** The event and tier as the tickets were issued for them. */
  eventName: string;
  /** ISO 8601, or null. */
  startsAt: string | null;
  venue: string | null;
  tier: string | null;
  orderId: string;
  /** Seats of the line that were issued, and those of them still valid. */
  seats: number;
  validSeats: number;
  /** Epoch ms: when they were issued, at the payment. */
  issuedAt: number;
  /** The line's unit price and the order's figures, integer cents. */
  unitAmount: number;
  orderSubtotal: number;
  orderTotal: number;
  orderRefunded: number;
  /**
   * The shop's stock counts the places: the order was handed to the shop, or made there
   * (no order of the site; its money is the shop's, so the figures above are 0).
   */
  inShop: boolean;
}

export abstract class TicketRepository {
  /**
   * Inserts the seats, each with a fresh short code (a code its event has already is drawn
   * again); a seat already issued (same order line and seat) is left as it is.
   */
  abstract issue(tickets: readonly NewTicket[], now: number): Promise<void>;
  abstract find(id: string): Promise<StoredTicket | undefined>;
  /** In the order's line and seat order. */
  abstract forOrder(orderId: string): Promise<StoredTicket[]>;
  /**
   * Valid tickets of orders bought with this e-mail address (any case), newest order first;
   * not those passed on to someone else (rules "Named tickets").
   */
  abstract validForEmail(email: string): Promise<StoredTicket[]>;
  /**
   * Valid tickets of these orders, in the given order's sequence, then line and seat; not
   * those passed on to someone else.
   */
  abstract validForOrders(orderIds: readonly string[]): Promise<StoredTicket[]>;
  /** rules "Named tickets": valid tickets passed on to this address (any case). */
  abstract passedOnTo(email: string): Promise<StoredTicket[]>;
  /** The order's valid tickets become revoked; returns how many changed. */
  abstract revokeForOrder(orderId: string, now: number): Promise<number>;
  /**
   * The order's revoked tickets admit again (a dispute decided for the shop); returns how
   * many changed. Only a disputed order's tickets are revoked while the order may be paid;
   * those whose price a refund gave back stay revoked.
   */
  abstract restoreForOrder(orderId: string): Promise<number>;
  /**
   * rules "The organizer": the tickets per order line of every order with a ticket of these
   * events (null: of any event), with their order's figures; lines of other events in such
   * an order come too, as what the order paid is spread over all of them.
   */
  abstract eventSales(eventIds: readonly number[] | null): Promise<TicketSale[]>;
  /**
   * rules "Refunds": the order's tickets as a partial refund weighs them: whether one was
   * checked in, and whether a refund gave its price back before.
   */
  abstract refundable(orderId: string): Promise<RefundableTicket[]>;
  /**
   * rules "Refunds": a refund gave these tickets' price back: they are revoked for good (a
   * dispute won restores none of them).
   */
  abstract markRefunded(ticketIds: readonly string[], now: number): Promise<void>;
  /**
   * rules "Named tickets": the ticket's holder. With `generation`, only while the ticket is
   * still of that generation (a holder naming it with their token); false when nothing
   * changed because of that, or when there is no such ticket.
   */
  abstract setHolder(id: string, holder: TicketHolder, generation?: number): Promise<boolean>;
  /**
   * rules "Named tickets": passes the ticket on. Only a valid ticket of `generation`, not
   * checked in, changes: its generation is raised, it gets a new short code (its old one
   * kept in `ticket_transfers`) and the new holder. Returns the ticket as it is now, or why
   * it did not change.
   */
  abstract transfer(
    id: string,
    generation: number,
    to: TicketTransfer,
    now: number,
  ): Promise<StoredTicket | TransferRefusal>;
  /** Whether the door checked the ticket in. */
  abstract isCheckedIn(id: string): Promise<boolean>;
  /**
   * Locks the ticket's row for the transaction while it is valid and of `generation`;
   * false otherwise. What decides a ticket's fate (passing it on, giving it back) takes
   * this lock first, so two such decisions on one ticket run one after the other.
   */
  abstract lockCurrent(id: string, generation: number): Promise<boolean>;
  /** rules "Named tickets": how often the ticket was passed on since `since` (epoch ms). */
  abstract transfersSince(id: string, since: number): Promise<number>;
  /** rules "Named tickets": the name of who passed it on to `generation`; null: unknown. */
  abstract givenBy(id: string, generation: number): Promise<string | null>;
  /**
   * rules "Giving a ticket back": the waiting list bought the place the ticket's holder of
   * `generation` gave back. The ticket is revoked for good (its price goes back, so a
   * dispute won does not restore it); false when it no longer was that valid ticket.
   */
  abstract revokeReturned(id: string, generation: number, now: number): Promise<boolean>;
}
