import { z } from 'zod';

/**
 * The states an order is stored in (rules "The order's life"). `processing` is the
 * async payment (SEPA and the like) that has started but not settled; it keeps the name
 * the store and the API's session status already use.
 */
export const ORDER_STATUSES = [
  'open',
  'processing',
  'paid',
  'latePaymentAccepted',
  'handedOff',
  'disputed',
  'expired',
  'canceled',
  'refundPending',
  'refunded',
  'canceledInShop',
] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/**
 * What a transition asks the backend to do, in this order, inside the same write as the
 * new state. The backend runs them and nothing else.
 * - `reservation.hold`: keep the order's places until the catalog's stock counts them
 *   (paid) or the async payment settles (processing); re-takes a lapsed reservation for
 *   an accepted late payment (rules "Capacity").
 * - `reservation.release`: give the places back; capacity frees here, which is also when
 *   the waiting list offers them (rules "Waiting list").
 * - `reservation.settle`: the catalog's stock now carries the order; the reservation only
 *   has to outlive the catalog caches.
 * - `tickets.issue`: one ticket per event seat of a paid order (rules "Tickets and the door").
 * - `handoff.enqueue`: deliver the paid order to WooCommerce through the outbox (rules "Webhook").
 * - `refund.request`: refund a late payment that found no capacity, through the outbox.
 * - `tickets.revoke`: a refunded order's tickets no longer admit anyone (rules "Tickets
 *   and the door"); a disputed order's neither, while the bank decides.
 * - `tickets.restore`: a dispute decided for the shop: the order's tickets admit again
 *   (not those whose price a refund gave back).
 * - `tickets.revokeRefunded`: a partial refund: the tickets its amount covers in whole are
 *   revoked for good and their lines' units marked refunded (rules "Refunds"); the others
 *   stay valid.
 * - `handoff.reportFailure`: WooCommerce refused the hand-off for good: the organizer is
 *   told (rules "Hand-off refused").
 * - `handoff.retry`: the organizer fixed the cause; the hand-off runs again.
 * - `shop.refund`: money went back at the provider; WooCommerce records the same refund
 *   (rules "Refunds reach the shop").
 * - `shop.restock`: the shop no longer counts the order (cancelled, refunded, trashed
 *   there); what its stock still keeps out for it goes back, where WooCommerce does not do
 *   that itself (rules "Cancelled in the shop", docs/ledger.md).
 */
export const ORDER_EFFECTS = [
  'reservation.hold',
  'reservation.release',
  'reservation.settle',
  'tickets.issue',
  'handoff.enqueue',
  'refund.request',
  'tickets.revoke',
  'tickets.restore',
  'tickets.revokeRefunded',
  'handoff.reportFailure',
  'handoff.retry',
  'shop.refund',
  'shop.restock',
] as const;
export type OrderEffect = (typeof ORDER_EFFECTS)[number];

const cents = z.number().int().nonnegative();

/** Totals as the checkout priced them, integer cents; the total is clamped at 0 (rules "Deliberate deviations"). */
export const orderInputSchema = z
  .object({
    subtotal: cents,
    discount: cents,
    total: cents,
    email: z.string().nullable().optional(),
  })
  .refine((o) => o.total === Math.max(0, o.subtotal - o.discount), {
    message: 'total must be max(0, subtotal − discount)',
    path: ['total'],
  });
export type OrderInput = z.input<typeof orderInputSchema>;

export const orderContextSchema = z.object({
  subtotal: cents,
  discount: cents,
  total: cents,
  email: z.string().nullable(),
  /** The buyer's full name as the payment page collected it. */
  buyerName: z.string().nullable(),
  /** The provider's payment id; a refund needs it. */
  paymentReference: z.string().nullable(),
  catalogOrderId: z.string().nullable(),
  refundReference: z.string().nullable(),
  /**
   * Why WooCommerce refused the hand-off for good, in its words (rules "Hand-off
   * refused"); null (or absent) while nothing was refused.
   */
  handoffError: z.string().nullable().optional(),
  /** What the provider has refunded so far, integer cents (absent: nothing). */
  refundedAmount: cents.optional(),
});
export type OrderContext = z.infer<typeof orderContextSchema>;

/**
 * Neutral events: payment adapters translate their provider's events into these
 * (rules "The order's life"); the outbox sends the hand-off and refund outcomes.
 */
export type OrderEvent =
  | {
      type: 'payment.succeeded';
      /** The order's reservation is neither released nor lapsed at the moment of payment. */
      reservationHeld: boolean;
      /**
       * Stock − others' active reservations still fits the order's lines. Only read when
       * the reservation is not held; when it cannot be known, send no event at all so the
       * provider delivers it again later.
       */
      capacityRemains: boolean;
      paymentReference?: string | null;
      email?: string | null;
      name?: string | null;
    }
  | { type: 'payment.pending'; email?: string | null; name?: string | null }
  | { type: 'payment.failed' }
  | { type: 'session.expired' }
  | { type: 'order.cancel' }
  | { type: 'handoff.succeeded'; catalogOrderId: string }
  /** WooCommerce refused the hand-off (a 4xx): no retry can succeed until the cause is fixed. */
  | { type: 'handoff.failed'; reason: string }
  /** The organizer fixed the cause of a refused hand-off and asks for it again. */
  | { type: 'handoff.retry' }
  /**
   * Part of the payment went back at the provider; `amountRefunded` is everything refunded
   * so far (integer cents), less than the total.
   */
  | { type: 'payment.partiallyRefunded'; refundReference: string; amountRefunded: number }
  | { type: 'refund.succeeded'; refundReference: string }
  /**
   * The payment was refunded in full at the provider (the organizer refunding a buyer,
   * or the provider confirming the server's own refund).
   */
  | { type: 'payment.refunded'; refundReference: string }
  /** The buyer's bank disputes the payment (a chargeback): the money may go back. */
  | { type: 'dispute.opened' }
  /** The dispute is closed in the shop's favour: the money stays. */
  | { type: 'dispute.won' }
  /**
   * rules "Cancelled in the shop": the organizer set the handed-off order to cancelled,
   * refunded or failed in WooCommerce (its webhook or the sweep tells).
   */
  | { type: 'shop.cancelled' };

export interface OrderTransition {
  status: OrderStatus;
  context: OrderContext;
  /** What the backend must do for this transition; empty when nothing changed. */
  effects: OrderEffect[];
  changed: boolean;
}
