import type { TicketReturnStatus } from '@awhh/machines';

/**
 * rules "Giving a ticket back": the returns' store port; the Kysely adapter is
 * `ticket-return.repository.ts`; in a transaction, `tx.get(TicketReturnRepository)`.
 */
export interface NewTicketReturn {
  id: string;
  ticketId: string;
  /** The ticket's generation (its holder) that offers it: only that one is revoked. */
  generation: number;
  orderId: string;
  productKey: number;
  /** What goes back once the place is bought, cents: the ticket's price less `fee`. */
  refund: number;
  fee: number;
  /** Epoch ms after which nobody can take the place any more. */
  closesAt: number;
}

export interface TicketReturn extends NewTicketReturn {
  status: TicketReturnStatus;
  /** The waiting-list offer the place is lent to now, or null. */
  offerId: number | null;
  /** The waiting-list buyer's order that bought the place. */
  takenBy: string | null;
  refundReference: string | null;
  createdAt: number;
  updatedAt: number;
}

export abstract class TicketReturnRepository {
  /**
   * Inserts the return unless the ticket has a live one (offered, taken, refunded); returns
   * it or undefined. Call under the capacity lock of its unit.
   */
  abstract add(entry: NewTicketReturn, now: number): Promise<TicketReturn | undefined>;
  abstract find(id: string): Promise<TicketReturn | undefined>;
  /** The ticket's return that is offered, taken or refunded; undefined when none is. */
  abstract liveForTicket(ticketId: string): Promise<TicketReturn | undefined>;
  /** Offered returns, oldest first; of one stock unit when `productKey` is given. */
  abstract offered(productKey?: number): Promise<TicketReturn[]>;
  /** Offered returns lent to the offer whose hold is `holdId`. */
  abstract offeredForHold(holdId: number): Promise<TicketReturn[]>;
  /** The returns' places are lent to `offerId` (null: to nobody). */
  abstract lend(ids: readonly string[], offerId: number | null, now: number): Promise<void>;
  /**
   * `from` → `to` (the machine decided it may), with what the move records; false when the
   * return was no longer in `from` (another process moved it first).
   */
  abstract move(
    id: string,
    from: TicketReturnStatus,
    to: TicketReturnStatus,
    now: number,
    record?: { takenBy?: string; refundReference?: string | null },
  ): Promise<boolean>;
}
