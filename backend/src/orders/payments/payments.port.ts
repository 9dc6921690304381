/** What the checkout asks a payment provider to collect; all amounts in integer cents. */
export interface PaymentSessionRequest {
  orderId: string;
  currency: string;
  lines: { name: string; unitAmount: number; quantity: number; image: string | null }[];
  /**
   * The coupon as the server applied it; the provider deducts exactly `amountOff`. `code`
   * is shown on the payment page as the visitor typed it (rules "Everything the shop sells").
   */
  discount: { code: string; amountOff: number } | null;
  paymentMethodTypes: string[];
  email: string | null;
  /** Carries the provider's `{CHECKOUT_SESSION_ID}` placeholder. */
  successUrl: string;
  cancelUrl: string;
  /** Epoch ms; the reservation ends at the same moment. */
  expiresAt: number;
}

export interface PaymentSession {
  id: string;
  url: string;
}

/**
 * The neutral events payment adapters translate their provider's into (rules "The
 * order's life"); nothing outside `payments/` knows a provider's own event names.
 */
export type PaymentEventType =
  | 'payment.succeeded'
  | 'payment.pending'
  | 'payment.failed'
  | 'session.expired'
  | 'payment.refunded'
  | 'dispute.opened'
  | 'dispute.won';

/** What a provider reports about one payment session (no personal data but the buyer's e-mail and name). */
export interface PaymentEvent {
  type: PaymentEventType;
  sessionId: string | null;
  /** The order id the checkout gave the provider, when the event carries it. */
  orderId: string | null;
  /** The provider's payment id; a refund needs it. */
  paymentReference: string | null;
  email: string | null;
  /** The buyer's full name as the payment page collected it (rules "Everything the shop sells"). */
  name: string | null;
  /** `payment.refunded`: the provider's id of the refund. */
  refundReference?: string | null;
  /**
   * `payment.refunded`: everything refunded so far, integer cents, when only part of the
   * payment went back; absent when it went back in full.
   */
  amountRefunded?: number | null;
}

/** A verified webhook delivery. */
export interface PaymentDelivery {
  /** The provider's event id: deliveries are idempotent by it (rules "Webhook"). */
  id: string;
  /** The provider's name for the event, shown on the webhook test page. */
  label: string;
  /** The signed test event of the webhook test page: it runs the pipeline and touches no order. */
  test: boolean;
  /** What the delivery means for an order; null for an event the order does not follow. */
  event: PaymentEvent | null;
}

export class WebhookSignatureError extends Error {}

/** Payments port (docs/architecture.md): Stripe Checkout or the built-in test provider. */
export abstract class PaymentsPort {
  abstract readonly name: 'stripe' | 'test';
  abstract createSession(request: PaymentSessionRequest): Promise<PaymentSession>;
  /** Verifies the signature over the raw bytes; throws WebhookSignatureError when forged or stale. */
  abstract parseWebhook(rawBody: Buffer | string, signature: string): PaymentDelivery;
  /**
   * Reconciliation (rules "The order's life"): the session's state as the event a webhook
   * would have brought, or null while the buyer can still pay (or the provider does not
   * know the session).
   */
  abstract retrieveSession(sessionId: string): Promise<PaymentEvent | null>;
  /** Refunds a captured payment in full; idempotent by `idempotencyKey`. */
  abstract refund(
    paymentReference: string,
    amount: number,
    idempotencyKey: string,
  ): Promise<{ id: string }>;
}

/** Stripe's default tolerance; a replayed delivery older than this is rejected (rules "Webhook"). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** `payment_method` of the request (rules §7, default "card") to Stripe's payment method types. */
const PAYMENT_METHOD_TYPES: Record<string, string[]> = {
  // Apple Pay and Google Pay are wallets on top of the card method in Stripe Checkout.
  card: ['card'],
  apple_pay: ['card'],
  google_pay: ['card'],
  sepa_debit: ['sepa_debit'],
  paypal: ['paypal'],
  klarna: ['klarna'],
  link: ['card', 'link'],
};

export function paymentMethodTypes(paymentMethod: string): string[] | null {
  return PAYMENT_METHOD_TYPES[paymentMethod] ?? null;
}
