import Stripe from 'stripe';
import type { StripeConfig } from '../../config/config.js';
import {
  type PaymentDelivery,
  type PaymentEvent,
  type PaymentSession,
  type PaymentSessionRequest,
  PaymentsPort,
} from './payments.port.js';
import { retrievedSessionEvent, verifyStripeDelivery } from './stripe-events.js';

/** Stripe limits a coupon's name to 40 characters. */
const COUPON_NAME_MAX = 40;

/**
 * Reconciliation asks while the buyer waits on the success page; it only checks, and the
 * next poll or sweep asks again, so it waits less than a payment call.
 */
const RETRIEVE_OPTIONS: Stripe.RequestOptions = { timeout: 5_000, maxNetworkRetries: 1 };

/** Stripe Checkout (rules "Payments" production adapter). */
export class StripePaymentsAdapter extends PaymentsPort {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(
    private readonly config: StripeConfig,
    private readonly publicUrl: string,
  ) {
    super();
    this.stripe = new Stripe(config.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      ...apiBaseOptions(config.apiBase),
    });
  }

  async createSession(request: PaymentSessionRequest): Promise<PaymentSession> {
    const discounts: Stripe.Checkout.SessionCreateParams.Discount[] = [];
    if (request.discount) {
      // A one-off coupon with the exact amount the server computed keeps Stripe's total
      // cent-for-cent equal to the order's (a percent_off coupon would round per line).
      const coupon = await this.stripe.coupons.create(
        {
          amount_off: request.discount.amountOff,
          currency: request.currency,
          duration: 'once',
          max_redemptions: 1,
          name: request.discount.code.slice(0, COUPON_NAME_MAX),
          metadata: { order_id: request.orderId },
        },
        { idempotencyKey: `awhh-coupon-${request.orderId}` },
      );
      discounts.push({ coupon: coupon.id });
    }

    const params: Stripe.Checkout.SessionCreateParams = {
      mode: 'payment',
      line_items: request.lines.map((line) => ({
        quantity: line.quantity,
        price_data: {
          currency: request.currency,
          unit_amount: line.unitAmount,
          product_data: {
            name: line.name,
            ...(line.image ? { images: [new URL(line.image, this.publicUrl + '/').href] } : {}),
          },
        },
      })),
      // The SDK's pinned API version names the static list of methods this way
      // (formerly `payment_method_types`).
      allowed_payment_method_types:
        request.paymentMethodTypes as Stripe.Checkout.SessionCreateParams.AllowedPaymentMethodType[],
      locale: 'de',
      expires_at: Math.floor(request.expiresAt / 1000),
      client_reference_id: request.orderId,
      metadata: { order_id: request.orderId },
      payment_intent_data: { metadata: { order_id: request.orderId } },
      // rules "Everything the shop sells": the order and WooCommerce's billing fields need
      // the buyer's name. A required name field asks for it without the billing address
      // (`billing_address_collection: 'required'`) a ticket purchase does not need.
      name_collection: { individual: { enabled: true, optional: false } },
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      ...(discounts.length > 0 ? { discounts } : {}),
      ...(request.email ? { customer_email: request.email } : {}),
    };
    const session = await this.stripe.checkout.sessions.create(params, {
      idempotencyKey: `awhh-session-${request.orderId}`,
    });
    if (!session.url) throw new Error(`Stripe returned session ${session.id} without a URL`);
    return { id: session.id, url: session.url };
  }

  parseWebhook(rawBody: Buffer | string, signature: string): PaymentDelivery {
    return verifyStripeDelivery(rawBody, signature, this.config.webhookSecret);
  }

  async retrieveSession(sessionId: string): Promise<PaymentEvent | null> {
    const session = await this.stripe.checkout.sessions.retrieve(
      sessionId,
      { expand: ['payment_intent'] },
      RETRIEVE_OPTIONS,
    );
    return retrievedSessionEvent(session);
  }

  async refund(paymentReference: string, amount: number, idempotencyKey: string) {
    const refund = await this.stripe.refunds.create(
      { payment_intent: paymentReference, amount, reason: 'requested_by_customer' },
      { idempotencyKey },
    );
    return { id: refund.id };
  }
}

/** STRIPE_API_BASE (tests: a local fake Stripe server) as the SDK's host/port/protocol. */
function apiBaseOptions(apiBase: string | null): Partial<Stripe.StripeConfig> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  return {
    host: url.hostname,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
  };
}
