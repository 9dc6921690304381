import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { BuyerDetails } from '../buyer-details.js';
import {
  type PaymentDelivery,
  type PaymentEvent,
  type PaymentSession,
  type PaymentSessionRequest,
  PaymentsPort,
} from './payments.port.js';
import { verifyStripeDelivery, WEBHOOK_TEST_EVENT } from './stripe-events.js';

export const TEST_PROVIDER_PATH = '/api/checkout/test-provider';

/** A session of the hosted page, as `complete` and `cancel` address it. */
export interface TestSession {
  id: string;
  orderId: string;
}

/** A delivery signed as Stripe signs one, for the order pipeline's webhook entry. */
export interface SignedDelivery {
  payload: string;
  signature: string;
}

interface SessionState {
  orderId: string;
  expiresAt: number;
  outcome: 'open' | 'paid' | 'canceled';
  paymentReference: string | null;
  buyer: BuyerDetails | null;
}

/** Sessions this process remembers for reconciliation; older ones are forgotten first. */
const MAX_REMEMBERED_SESSIONS = 5_000;

/**
 * The embedded payment provider used when STRIPE_SECRET_KEY is not set (rules
 * "Payments"). It hosts its own payment page and reports the outcome as Stripe-shaped
 * events signed with a secret only this process knows, so they pass the very same
 * verification and pipeline as a Stripe webhook. It remembers its sessions' outcomes,
 * which reconciliation reads like Stripe's session state (per process: a restart or
 * another process knows none, and reconciliation then leaves the order to its events).
 * No money moves.
 */
export class TestPaymentsAdapter extends PaymentsPort {
  readonly name = 'test' as const;
  private readonly webhookSecret = `whsec_test_${randomBytes(24).toString('hex')}`;
  private readonly sessions = new Map<string, SessionState>();

  constructor(private readonly publicUrl: string) {
    super();
  }

  async createSession(request: PaymentSessionRequest): Promise<PaymentSession> {
    const id = `tps_${randomBytes(18).toString('base64url')}`;
    this.remember(id, {
      orderId: request.orderId,
      expiresAt: request.expiresAt,
      outcome: 'open',
      paymentReference: null,
      buyer: null,
    });
    return { id, url: `${this.publicUrl}${TEST_PROVIDER_PATH}/${id}` };
  }

  parseWebhook(rawBody: Buffer | string, signature: string): PaymentDelivery {
    return verifyStripeDelivery(rawBody, signature, this.webhookSecret);
  }

  async retrieveSession(sessionId: string): Promise<PaymentEvent | null> {
    const session = this.sessions.get(sessionId);
    if (!session) return null;
    const base = { sessionId, orderId: session.orderId, paymentReference: null };
    if (session.outcome === 'paid') {
      return {
        ...base,
        type: 'payment.succeeded',
        paymentReference: session.paymentReference,
        email: session.buyer?.email ?? null,
        name: session.buyer?.name ?? null,
      };
    }
    if (session.outcome === 'canceled' || session.expiresAt <= Date.now()) {
      return { ...base, type: 'session.expired', email: null, name: null };
    }
    return null;
  }

  async refund(_paymentReference: string, _amount: number, idempotencyKey: string) {
    return { id: `tpr_${idempotencyKey}` };
  }

  /**
   * The hosted page's "Jetzt bezahlen": the session is paid, and the delivery says so. The
   * buyer travels as Stripe's `customer_details` (name collection fills `individual_name`).
   */
  complete(session: TestSession, buyer: BuyerDetails): SignedDelivery {
    const paymentReference = `tpi_${randomBytes(12).toString('base64url')}`;
    this.settle(session, { outcome: 'paid', paymentReference, buyer });
    return this.signed('checkout.session.completed', {
      object: 'checkout.session',
      id: session.id,
      client_reference_id: session.orderId,
      metadata: { order_id: session.orderId },
      payment_status: 'paid',
      payment_intent: paymentReference,
      customer_details: { email: buyer.email, name: buyer.name, individual_name: buyer.name },
    });
  }

  /** The hosted page's "Abbrechen": the session ends unpaid, as an expired one. */
  cancel(session: TestSession): SignedDelivery {
    this.settle(session, { outcome: 'canceled', paymentReference: null, buyer: null });
    return this.signed('checkout.session.expired', {
      object: 'checkout.session',
      id: session.id,
      client_reference_id: session.orderId,
      metadata: { order_id: session.orderId },
      payment_status: 'unpaid',
      payment_intent: null,
    });
  }

  /**
   * "Zahlungsstreit": the buyer's bank disputes the payment (a chargeback), and later the
   * dispute is decided for the shop, reported as Stripe reports them
   * (`charge.dispute.created`, `charge.dispute.closed` with `won`, naming the payment intent).
   */
  disputePayment(paymentReference: string, outcome: 'opened' | 'won'): SignedDelivery {
    const id = paymentReference.replace(/^tpi_/, '');
    return this.signed(outcome === 'won' ? 'charge.dispute.closed' : 'charge.dispute.created', {
      object: 'dispute',
      id: `tdp_${id}`,
      charge: `tch_${id}`,
      payment_intent: paymentReference,
      status: outcome === 'won' ? 'won' : 'needs_response',
    });
  }

  /**
   * "Zahlung erstatten": the whole payment goes back, reported as Stripe reports a refund
   * made in its dashboard (`charge.refunded` naming the payment intent). With `partial`
   * ("Teilweise erstatten"), part of it: Stripe's `charge.refunded` with `refunded: false`
   * and everything refunded so far in `amount_refunded` (cents), the newest refund first.
   */
  refundPayment(
    paymentReference: string,
    partial?: { amount: number; amountRefunded: number },
  ): SignedDelivery {
    const suffix = randomBytes(12).toString('base64url');
    return this.signed('charge.refunded', {
      object: 'charge',
      id: `tch_${suffix}`,
      payment_intent: paymentReference,
      refunded: partial === undefined,
      ...(partial ? { amount: partial.amount, amount_refunded: partial.amountRefunded } : {}),
      refunds: { object: 'list', data: [{ id: `tre_${suffix}` }] },
    });
  }

  /** The webhook test page's event: signed like the others, about no session. */
  testEvent(): SignedDelivery {
    return this.signed(WEBHOOK_TEST_EVENT, {
      object: 'test',
      id: `test_${randomBytes(8).toString('hex')}`,
    });
  }

  /** Another process may have opened the session; this one learns of it here. */
  private settle(
    session: TestSession,
    outcome: Pick<SessionState, 'outcome' | 'paymentReference' | 'buyer'>,
  ): void {
    const known = this.sessions.get(session.id);
    this.remember(session.id, {
      orderId: session.orderId,
      expiresAt: known?.expiresAt ?? Date.now(),
      ...outcome,
    });
  }

  private remember(id: string, state: SessionState): void {
    this.sessions.delete(id);
    this.sessions.set(id, state);
    if (this.sessions.size > MAX_REMEMBERED_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.sessions.delete(oldest);
    }
  }

  private signed(type: string, object: Record<string, unknown>): SignedDelivery {
    const created = Math.floor(Date.now() / 1000);
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
