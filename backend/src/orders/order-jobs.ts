import type { NewJob } from '../jobs/jobs.port.js';

/**
 * The jobs about one order (rules "Webhook", "E-mail"), queued by its transitions in their
 * transaction: the ticket mail (once per paid order), the tickets of its address again on
 * request, the hand-off to the catalog, the refund of a late payment without a place.
 */
export const ORDER_JOBS = {
  ticketMail: 'ticket-mail',
  ticketResend: 'ticket-resend',
  handoff: 'order-handoff',
  refund: 'late-payment-refund',
  /** rules "Hand-off refused": the organizer's mail about a hand-off the shop refused. */
  handoffRefusedMail: 'handoff-refused-mail',
  /** rules "Refunds reach the shop": the shop's refund after money went back at the provider. */
  shopRefund: 'shop-refund',
  /**
   * docs/ledger.md: the places of an order the shop no longer counts (refunded, trashed
   * there) back into the shop's stock, where WooCommerce keeps them out.
   */
  shopRestock: 'shop-restock',
} as const;

export type OrderJobName = (typeof ORDER_JOBS)[keyof typeof ORDER_JOBS];

export interface OrderJobPayload {
  orderId: string;
}

/** What the order service needs of a running job to record its outcome with the order. */
export interface OrderJob {
  id: number;
  payload: OrderJobPayload;
}

/** One job per name and order, however often the triggering event arrives. */
export function orderJob(name: OrderJobName, orderId: string): NewJob {
  return { name, key: orderId, subject: orderId, payload: { orderId } };
}

/**
 * One shop refund per provider refund: a second partial refund is another job, and a
 * repeated report of the same refund is the same one.
 */
export function shopRefundJob(orderId: string, refundReference: string): NewJob {
  return {
    name: ORDER_JOBS.shopRefund,
    key: `${orderId}:${refundReference}`,
    subject: orderId,
    payload: { orderId },
  };
}

export interface ShopRestockPayload extends OrderJobPayload {
  /** The shop's id of the order. */
  catalogOrderId: string;
}

/**
 * One restock per order of the shop: the shop's own bookkeeping (`_reduced_stock`) makes a
 * second run put nothing back, the key makes a repeated report queue nothing.
 */
export function shopRestockJob(orderId: string, catalogOrderId: string): NewJob {
  return {
    name: ORDER_JOBS.shopRestock,
    key: catalogOrderId,
    subject: orderId,
    payload: { orderId, catalogOrderId } satisfies ShopRestockPayload,
  };
}

/** The jobs' log fields. */
export function describeOrderJob(payload: OrderJobPayload): Record<string, unknown> {
  return { orderId: payload.orderId };
}
