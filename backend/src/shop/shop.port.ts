/**
 * The shop module's store port (rules "Orders made in the shop"); the Kysely adapters are
 * `shop-order.repository.ts`. In a transaction: `tx.get(ShopOrderRepository)`.
 */

/** An order made in WooCommerce itself, as the shop last reported it. */
export interface ShopOrder {
  /** `shop-<WooCommerce order id>`: its tickets' order id. */
  id: string;
  /** WooCommerce's order number. */
  number: string;
  /** WooCommerce's status in the report applied last (`deleted` once the shop has no such order). */
  status: string;
  /** The shop's `date_modified_gmt` of that report, epoch ms: an older report changes nothing. */
  modifiedAt: number;
  /** Billing address and name; kept only while the order has tickets to mail and to list. */
  email: string | null;
  holder: string | null;
  /** Integer cents: 0 is a guest list. */
  total: number;
}

export abstract class ShopOrderRepository {
  /**
   * The order, held against concurrent reports of it until the transaction ends (a row
   * lock on PostgreSQL; SQLite's write transaction holds the whole store).
   */
  abstract lock(id: string): Promise<ShopOrder | undefined>;
  abstract find(id: string): Promise<ShopOrder | undefined>;
  /** Inserts the order or replaces what is kept of it. */
  abstract save(order: ShopOrder, now: number): Promise<void>;
  /** Orders with tickets bought with this address (any case), newest first. */
  abstract idsOfEmail(email: string): Promise<string[]>;
}

/** How far the sweep has read the shop's orders, and what its last run did. */
export interface SweepState {
  /** The latest `date_modified_gmt` (epoch ms) among the orders read; null before any. */
  highWater: number | null;
  lastRunAt: number | null;
  lastRead: number;
  lastApplied: number;
  /** The last run's failure (masked); null when it succeeded. */
  lastError: string | null;
}

export abstract class ShopSweepRepository {
  abstract state(name: string): Promise<SweepState>;
  /**
   * Records a run. The high-water mark only moves forward, so two runs that overlap (a
   * lease taken over) never set it back.
   */
  abstract recordRun(
    name: string,
    run: Omit<SweepState, 'highWater'>,
    highWater: number | null,
  ): Promise<void>;
}
