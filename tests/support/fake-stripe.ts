import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * One test double of the part of Stripe's API the checkout uses (coupons, Checkout
 * Sessions and their retrieval, refunds) on 127.0.0.1, shared by the backend's tests and
 * the fault, hostile and e2e suites. It speaks Stripe's wire format: form-encoded
 * requests under the secret key, Stripe-shaped objects and error bodies. It records every
 * request as the SDK sent it, and keeps each session's state, which a test changes (`pay`,
 * `expire`, `failPayment`) as a buyer and Stripe do, without any webhook. Webhook events
 * are built and delivered by the test itself (`sessionEvent`, `deliver`), signed with the
 * SDK's own helper.
 */

export const FAKE_STRIPE_SECRET_KEY = 'sk_test_' + 'fault'.repeat(6);
export const FAKE_STRIPE_WEBHOOK_SECRET = 'whsec_' + 'fault'.repeat(6);

export interface FakeStripeOptions {
  /** The one API key accepted; any other is refused with 401, as Stripe does. */
  secretKey?: string;
}

export interface FakeStripeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  /** The form body (or query) exactly as the SDK encoded it, one entry per bracketed key. */
  form: Record<string, string>;
  /** The same parameters as Stripe reads them: nested objects and arrays. */
  params: Record<string, unknown>;
}

export interface FakeBuyer {
  email: string;
  name: string;
}

/** A Checkout Session as Stripe keeps it: open until the buyer pays or it expires. */
export interface FakeSession {
  id: string;
  /** The creation parameters, nested (`line_items[0].price_data.unit_amount`). */
  params: Record<string, unknown>;
  orderId: string;
  /** unit_amount of every line, in cents, as Stripe will charge them. */
  unitAmounts: number[];
  quantities: number[];
  couponAmountOff: number;
  amountTotal: number;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid';
  /** Stripe creates it once the buyer confirms; shown on the session from then on. */
  paymentIntent: string;
  /** The payment intent's own status, for async methods (SEPA) that settle later. */
  intentStatus: 'succeeded' | 'processing' | 'requires_payment_method' | null;
  customer: FakeBuyer | null;
}

interface Answer {
  status: number;
  body: unknown;
}

const DEFAULT_BUYER: FakeBuyer = { email: 'gast@example.org', name: 'Karla Kundin' };

export class FakeStripe {
  /** Sessions in the order they were created. */
  readonly sessions: FakeSession[] = [];
  /** amount_off of every coupon created, by id. */
  readonly coupons = new Map<string, number>();
  readonly requests: FakeStripeRequest[] = [];
  readonly secretKey: string;
  /** When set, every request is answered with this HTTP status and a Stripe error body. */
  failWith: number | null = null;
  url = '';
  private server: Server | null = null;
  /** Ids count up per fake, so a test can name the objects it expects. */
  private counter = 0;

  constructor(options: FakeStripeOptions = {}) {
    this.secretKey = options.secretKey ?? FAKE_STRIPE_SECRET_KEY;
  }

  /** A fake already listening on a free port. */
  static async start(options: FakeStripeOptions = {}): Promise<FakeStripe> {
    const fake = new FakeStripe(options);
    await fake.start();
    return fake;
  }

  async start(port = 0): Promise<string> {
    const server = createServer((req, res) => {
      this.handle(req)
        .then((answer) => send(res, answer))
        .catch(() => res.destroy());
    });
    // Keep-alive sockets would hold stop() open.
    server.keepAliveTimeout = 1_000;
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The environment that points the site at this server. */
  get env(): Record<string, string> {
    return {
      STRIPE_SECRET_KEY: this.secretKey,
      STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
      STRIPE_API_BASE: this.url,
    };
  }

  session(id: string): FakeSession | undefined {
    return this.sessions.find((s) => s.id === id);
  }

  requestsTo(path: string): FakeStripeRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /**
   * The buyer paid on Stripe's page; Stripe's own state says so, no event is delivered.
   * A card payment is paid at once; SEPA leaves the session complete but unpaid while the
   * debit is processing.
   */
  pay(
    sessionId: string,
    customer: FakeBuyer = DEFAULT_BUYER,
    method: 'card' | 'sepa_debit' = 'card',
  ): FakeSession {
    const session = this.sessionState(sessionId);
    Object.assign(session, {
      status: 'complete',
      paymentStatus: method === 'card' ? 'paid' : 'unpaid',
      intentStatus: method === 'card' ? 'succeeded' : 'processing',
      customer,
    });
    return session;
  }

  /** An async payment (SEPA) that was pending failed. */
  failPayment(sessionId: string): void {
    this.sessionState(sessionId).intentStatus = 'requires_payment_method';
  }

  /** The session ran out unpaid. */
  expire(sessionId: string): void {
    this.sessionState(sessionId).status = 'expired';
  }

  private sessionState(sessionId: string): FakeSession {
    const session = this.session(sessionId);
    if (!session) throw new Error(`FakeStripe has no session ${sessionId}`);
    return session;
  }

  private async handle(req: IncomingMessage): Promise<Answer> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    // The SDK sends a GET's parameters (`expand[0]=…`) in the query, a POST's in the body.
    const encoded = method === 'GET' ? url.search.slice(1) : (await readBody(req)).toString('utf8');
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const params = parseForm(encoded);
    this.requests.push({
      method,
      path: url.pathname,
      idempotencyKey: header('idempotency-key'),
      authorization: header('authorization'),
      form: Object.fromEntries(new URLSearchParams(encoded)),
      params,
    });
    if (this.failWith !== null) {
      return stripeError(this.failWith, 'api_error', 'An unknown error occurred');
    }
    if (header('authorization') !== `Bearer ${this.secretKey}`) {
      return stripeError(401, 'invalid_request_error', 'Invalid API Key provided');
    }
    return this.route(method, url.pathname, params);
  }

  private route(method: string, path: string, params: Record<string, unknown>): Answer {
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && retrieve) {
      const id = decodeURIComponent(retrieve[1]!);
      const session = this.session(id);
      if (!session) {
        return stripeError(404, 'invalid_request_error', `No such checkout.session: '${id}'`, {
          code: 'resource_missing',
          param: 'session',
        });
      }
      const expand = (params.expand ?? []) as string[];
      return { status: 200, body: sessionObject(session, expand.includes('payment_intent')) };
    }
    if (method === 'POST' && path === '/v1/coupons') return this.createCoupon(params);
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createSession(params);
    if (method === 'POST' && path === '/v1/refunds') {
      return {
        status: 200,
        body: {
          id: `re_fake_${++this.counter}`,
          object: 'refund',
          amount: Number(params.amount),
          payment_intent: params.payment_intent,
          reason: params.reason ?? null,
          status: 'succeeded',
        },
      };
    }
    return stripeError(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${method}: ${path}).`,
    );
  }

  private createCoupon(params: Record<string, unknown>): Answer {
    const id = `co_fake_${++this.counter}`;
    const amountOff = Number(params.amount_off ?? 0);
    this.coupons.set(id, amountOff);
    return {
      status: 200,
      body: {
        id,
        object: 'coupon',
        amount_off: amountOff,
        currency: params.currency ?? null,
        duration: params.duration ?? 'once',
        max_redemptions: params.max_redemptions ? Number(params.max_redemptions) : null,
        name: params.name ?? null,
        metadata: params.metadata ?? {},
        valid: true,
      },
    };
  }

  private createSession(params: Record<string, unknown>): Answer {
    const n = ++this.counter;
    const items = (params.line_items ?? []) as {
      quantity?: string;
      price_data?: { unit_amount?: string };
    }[];
    const unitAmounts = items.map((i) => Number(i.price_data?.unit_amount));
    const quantities = items.map((i) => Number(i.quantity));
    const discounts = (params.discounts ?? []) as { coupon?: string }[];
    const couponAmountOff = discounts.reduce(
      (sum, d) => sum + (this.coupons.get(String(d.coupon)) ?? 0),
      0,
    );
    const subtotal = unitAmounts.reduce((sum, a, i) => sum + a * (quantities[i] ?? 0), 0);
    const metadata = (params.metadata ?? {}) as Record<string, string>;
    const session: FakeSession = {
      id: `cs_test_fake_${n}`,
      params,
      orderId: metadata.order_id ?? String(params.client_reference_id ?? ''),
      unitAmounts,
      quantities,
      couponAmountOff,
      amountTotal: Math.max(0, subtotal - couponAmountOff),
      status: 'open',
      paymentStatus: 'unpaid',
      paymentIntent: `pi_fake_${n}`,
      intentStatus: null,
      customer: null,
    };
    this.sessions.push(session);
    return { status: 200, body: sessionObject(session, false) };
  }
}

/** A Checkout Session object as the API shows it, `payment_intent` expanded when asked. */
function sessionObject(session: FakeSession, expandIntent: boolean): Record<string, unknown> {
  // Since API version 2022-08-01 a session's payment intent exists only once the buyer
  // confirmed the payment.
  const intent =
    session.status !== 'complete'
      ? null
      : expandIntent
        ? { id: session.paymentIntent, object: 'payment_intent', status: session.intentStatus }
        : session.paymentIntent;
  return {
    id: session.id,
    object: 'checkout.session',
    mode: 'payment',
    url: session.status === 'open' ? `https://checkout.stripe.com/c/pay/${session.id}` : null,
    status: session.status,
    payment_status: session.paymentStatus,
    amount_total: session.amountTotal,
    currency: 'eur',
    client_reference_id: session.params.client_reference_id ?? null,
    customer_email: session.params.customer_email ?? null,
    expires_at: session.params.expires_at ? Number(session.params.expires_at) : null,
    metadata: session.params.metadata ?? {},
    payment_intent: intent,
    customer_details: session.customer
      ? {
          email: session.customer.email,
          name: session.customer.name,
          individual_name: session.customer.name,
        }
      : null,
    livemode: false,
  };
}

export type StripeEventType =
  | 'checkout.session.completed'
  | 'checkout.session.expired'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed';

/** A Stripe event for a session the fake created, as Stripe would deliver it. */
export function sessionEvent(
  session: FakeSession,
  type: StripeEventType,
  options: {
    paymentStatus?: 'paid' | 'unpaid';
    eventId?: string;
    email?: string;
    /** What Checkout's name collection asked for (`customer_details.individual_name`). */
    name?: string;
  } = {},
): string {
  const paymentStatus =
    options.paymentStatus ??
    (type === 'checkout.session.completed' || type === 'checkout.session.async_payment_succeeded'
      ? 'paid'
      : 'unpaid');
  return JSON.stringify({
    id: options.eventId ?? `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: '2025-01-27.acacia',
    created: Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    pending_webhooks: 1,
    data: {
      object: {
        id: session.id,
        object: 'checkout.session',
        mode: 'payment',
        status: type === 'checkout.session.expired' ? 'expired' : 'complete',
        payment_status: paymentStatus,
        amount_total: session.amountTotal,
        currency: 'eur',
        client_reference_id: session.orderId,
        metadata: { order_id: session.orderId },
        payment_intent: paymentStatus === 'paid' ? session.paymentIntent : null,
        customer_details: {
          email: options.email ?? 'kauf@example.org',
          ...(options.name ? { name: options.name, individual_name: options.name } : {}),
        },
      },
    },
  });
}

/** Stripe's dispute statuses; `warning_*` are inquiries that may become a chargeback. */
export type DisputeStatus =
  | 'warning_needs_response'
  | 'warning_under_review'
  | 'warning_closed'
  | 'needs_response'
  | 'under_review'
  | 'won'
  | 'lost';

/**
 * A chargeback on a paid session's payment, as Stripe delivers it: `charge.dispute.created`
 * (status `needs_response`, or `warning_needs_response` for an inquiry) and, weeks later,
 * `charge.dispute.closed` with `won`, `lost` or `warning_closed`. The dispute names the
 * charge and the payment intent, and carries no metadata of the session.
 */
export function disputeEvent(
  session: Pick<FakeSession, 'paymentIntent' | 'amountTotal'>,
  type: 'charge.dispute.created' | 'charge.dispute.updated' | 'charge.dispute.closed',
  status: DisputeStatus = type === 'charge.dispute.closed' ? 'won' : 'needs_response',
  options: { eventId?: string } = {},
): string {
  const created = Math.floor(Date.now() / 1000);
  return JSON.stringify({
    id: options.eventId ?? `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: '2025-01-27.acacia',
    created,
    type,
    livemode: false,
    pending_webhooks: 1,
    data: {
      object: {
        id: `dp_${session.paymentIntent.replace(/^pi_/, '')}`,
        object: 'dispute',
        amount: session.amountTotal,
        currency: 'eur',
        charge: `ch_${session.paymentIntent.replace(/^pi_/, '')}`,
        payment_intent: session.paymentIntent,
        reason: 'fraudulent',
        status,
        is_charge_refundable: false,
        balance_transactions: [],
        evidence_details: { due_by: created + 14 * 86_400, has_evidence: false },
        metadata: {},
        livemode: false,
        created,
      },
    },
  });
}

/** The Stripe-Signature header for `payload`, made with the SDK's own helper. */
export function signature(
  payload: string,
  timestamp = Math.floor(Date.now() / 1000),
  secret = FAKE_STRIPE_WEBHOOK_SECRET,
): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

/** Delivers a signed event to the site's webhook, as Stripe does. */
export async function deliver(
  siteUrl: string,
  payload: string,
  sig = signature(payload),
): Promise<Response> {
  return fetch(`${siteUrl}/api/checkout/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': sig },
    body: payload,
  });
}

/** Stripe's form encoding (`line_items[0][price_data][unit_amount]=…`) back into objects. */
export function parseForm(encoded: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node[part] = value;
        return;
      }
      // An index next (`[0]`) makes an array; arrays take string keys like objects do.
      node[part] ??= /^\d+$/.test(parts[i + 1]!) ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function stripeError(
  status: number,
  type: 'api_error' | 'invalid_request_error',
  message: string,
  extra: { code?: string; param?: string } = {},
): Answer {
  return { status, body: { error: { type, message, ...extra } } };
}

function send(res: ServerResponse, answer: Answer): void {
  if (res.destroyed) return;
  res.writeHead(answer.status, {
    'content-type': 'application/json',
    'request-id': `req_${randomBytes(7).toString('hex')}`,
  });
  res.end(JSON.stringify(answer.body));
}
