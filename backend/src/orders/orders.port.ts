import type { OrderContext, OrderStatus } from '@awhh/machines';

/**
 * The orders' store port (docs/architecture.md, "Ports and adapters"): orders with their
 * lines, and the provider's webhook events. The Kysely adapters are `order.repository.ts`
 * and `webhook-event.repository.ts`; in a transaction, `tx.get(OrderRepository)`.
 */

/** An order as the order machine sees it (`status` + `context`) with what the checkout recorded beside. */
export interface Order {
  id: string;
  /** The provider's session id; the order's own id when free; null until the provider opened one. */
  sessionId: string | null;
  /** `stripe`, `test`, or `none` for an order paid at creation. */
  provider: string;
  status: OrderStatus;
  context: OrderContext;
  /** The catalog's spelling of the coupon; the hand-off sends this one. */
  couponCode: string | null;
  /** The coupon as the visitor typed it; pages show this one (rules "Everything the shop sells"). */
  couponEntered: string | null;
  currency: string;
  paymentMethod: string;
  successUrl: string;
  cancelUrl: string;
  createdAt: number;
  /** When the payment session and its hold end (rules "Capacity"). */
  expiresAt: number;
  paidAt: number | null;
}

export interface OrderLine {
  productId: number;
  variationId: number | null;
  name: string;
  image: string | null;
  quantity: number;
  /** Integer cents. */
  unitAmount: number;
  /**
   * The coupon's discount on this line in cents, as the checkout priced it
   * (`couponLineDiscounts`, rules "Coupons"); what the line cost is its units less this.
   */
  discount: number;
  /** Units whose price a partial refund gave back (rules "Refunds"); 0 for a new order. */
  refundedQuantity: number;
}

export interface NewOrder {
  order: Order;
  lines: readonly OrderLine[];
  /** Keyed hash of the client's address, for the limit of open checkouts per address. */
  clientKey?: string | null;
}

/** A client's checkouts still waiting for their payment. */
export interface OpenCheckouts {
  count: number;
  /** Epoch ms when the first of them lapses; null when there is none. */
  firstExpiresAt: number | null;
  /** Units their lines hold, per product (all its variants together). */
  unitsByProduct: Map<number, number>;
}

/** Either lookup finds the order; the id wins when both are given. */
export interface OrderKey {
  id?: string | null;
  sessionId?: string | null;
  /** The provider's payment id: a refund at the provider names only that. */
  paymentReference?: string | null;
  /** WooCommerce's id of the handed-off order: a change in the shop names that. */
  catalogOrderId?: string | null;
}

/** The order with its lines; its places are its holds (`holds/`, owned by the order's id). */
export abstract class OrderRepository {
  /** Inserts the order and its lines. */
  abstract create(order: NewOrder): Promise<void>;
  /**
   * Serialises checkouts of one client until the transaction ends, so two cannot both
   * pass the limit of open checkouts.
   */
  abstract lockClient(clientKey: string): Promise<void>;
  /** The client's orders still open for payment and not yet lapsed at `now`. */
  abstract openForClient(clientKey: string, now: number): Promise<OpenCheckouts>;
  abstract find(key: OrderKey): Promise<Order | undefined>;
  /** As `find`, and holds the row against concurrent transitions until the transaction ends. */
  abstract lock(key: OrderKey): Promise<Order | undefined>;
  abstract lines(orderId: string): Promise<OrderLine[]>;
  /** The payment session the provider opened for the order. */
  abstract recordSession(
    orderId: string,
    session: { id: string; url: string },
    now: number,
  ): Promise<void>;
  /** Writes a transition's result: status, context, session id and payment time. */
  abstract save(order: Order, now: number): Promise<void>;
  /** Orders of this provider still waiting for their payment's outcome, oldest first. */
  /**
   * docs/ledger.md "A hand-off is done only when the shop holds what was charged": the orders
   * in the shop (handed off) with a ticket for an evening that starts at `startsAfter` (an
   * ISO date) or later, oldest first.
   */
  abstract handedOffUpcoming(startsAfter: string, limit: number): Promise<Order[]>;
  abstract findUnsettled(query: {
    provider: string;
    createdBefore: number;
    limit: number;
  }): Promise<Order[]>;
  /**
   * rules "Hand-off refused": the orders WooCommerce refused and not handed off since,
   * latest first (the refusal's time is the order's last change).
   */
  abstract refusedHandOffs(limit: number): Promise<RefusedHandOff[]>;
  /**
   * rules "Refunds": units of the order's lines whose price a partial refund gave back,
   * added to what the lines had (by `position`, the line's index in `lines`).
   */
  abstract addRefundedUnits(
    orderId: string,
    units: readonly { position: number; quantity: number }[],
  ): Promise<void>;
  /**
   * rules "The organizer": places per product and variation in checkouts still waiting for
   * their payment (open and not lapsed at `now`, or an async payment under way).
   */
  abstract openPlaces(now: number): Promise<OpenPlaces[]>;
}

/** Places of one product or variation in checkouts waiting for their payment. */
export interface OpenPlaces {
  productId: number;
  variationId: number | null;
  quantity: number;
}

/** A paid order WooCommerce refused, as /webhook-test lists it: no personal data. */
export interface RefusedHandOff {
  orderId: string;
  reason: string;
  at: number;
}

export interface RecordedEvent {
  type: string;
  receivedAt: number;
  outcome: string;
}

/**
 * WooCommerce's deliveries share the table, their type prefixed (rules "WooCommerce
 * webhooks"); /webhook-test shows them apart from the payment provider's.
 */
export const SHOP_EVENT_PREFIX = 'woocommerce:';

/** Whose events a list shows: the payment provider's or the shop's. */
export type EventSource = 'payments' | 'shop';

/** Provider events by id, kept for good: the provider retries for days (rules "Webhook"). */
export abstract class WebhookEventRepository {
  /** False when an event with this id was recorded before. */
  abstract record(event: { id: string; type: string }, now: number): Promise<boolean>;
  abstract setOutcome(id: string, outcome: string): Promise<void>;
  /** Newest first, of one source (the shop's: types with SHOP_EVENT_PREFIX). */
  abstract recent(limit: number, source: EventSource): Promise<RecordedEvent[]>;
}
