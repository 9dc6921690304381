import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { BuyerDetails } from '../buyer-details.js';
import {
  type PaymentEvent,
  type PaymentSession,
  type PaymentSessionRequest,
  PaymentsPort,
} from './payments.port.js';
import { verifyStripeDelivery } from './stripe-events.js';

export const TEST_PROVIDER_PATH = '/api/checkout/test-provider';

export type TestProviderEventType =
  'checkout.session.completed' | 'checkout.session.expired' | 'awhh.webhook_test';

/**
 * The embedded payment provider used when STRIPE_SECRET_KEY is not set (DESIGN
 * "payments"). It hosts its own payment page and reports the outcome as Stripe-shaped
 * events signed with a secret only this process knows, so they pass the very same
 * verification and pipeline as a Stripe webhook. No money moves.
 */
export class TestPaymentsAdapter extends PaymentsPort {
  readonly name = 'test' as const;
  private readonly webhookSecret = `whsec_test_${randomBytes(24).toString('hex')}`;

  constructor(private readonly publicUrl: string) {
    super();
  }

  async createSession(_request: PaymentSessionRequest): Promise<PaymentSession> {
    const id = `tps_${randomBytes(18).toString('base64url')}`;
    return { id, url: `${this.publicUrl}${TEST_PROVIDER_PATH}/${id}` };
  }

  parseWebhook(rawBody: Buffer | string, signature: string): PaymentEvent {
    return verifyStripeDelivery(rawBody, signature, this.webhookSecret);
  }

  async refund(_paymentReference: string, _amount: number, idempotencyKey: string) {
    return { id: `tpr_${idempotencyKey}` };
  }

  /**
   * A signed delivery as Stripe would send it, for the hosted page and the webhook test. The
   * buyer travels as Stripe's `customer_details` (name collection fills `individual_name`).
   */
  signedEvent(
    type: TestProviderEventType,
    session: { id: string; orderId: string; buyer?: BuyerDetails } | null,
  ): { payload: string; signature: string } {
    const created = Math.floor(Date.now() / 1000);
    const object = session
      ? {
          object: 'checkout.session',
          id: session.id,
          client_reference_id: session.orderId,
          metadata: { order_id: session.orderId },
          payment_status: type === 'checkout.session.completed' ? 'paid' : 'unpaid',
          payment_intent:
            type === 'checkout.session.completed'
              ? `tpi_${randomBytes(12).toString('base64url')}`
              : null,
          ...(session.buyer
            ? {
                customer_details: {
                  email: session.buyer.email,
                  name: session.buyer.name,
                  individual_name: session.buyer.name,
                },
              }
            : {}),
        }
      : { object: 'test', id: `test_${randomBytes(8).toString('hex')}` };
    const payload = JSON.stringify({
      id: `evt_test_${randomBytes(16).toString('base64url')}`,
      object: 'event',
      type,
      created,
      livemode: false,
      data: { object },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: this.webhookSecret,
      timestamp: created,
    });
    return { payload, signature };
  }
}
