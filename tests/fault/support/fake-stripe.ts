import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * The part of Stripe's API the checkout uses (coupons, Checkout Sessions and their
 * retrieval, refunds), on loopback, recording the form parameters it received. The site
 * reaches it through STRIPE_API_BASE; events are delivered by the test itself, signed
 * with the SDK helper, and `complete` pays a session without any event.
 */

export const STRIPE_SECRET_KEY = 'sk_test_' + 'fault'.repeat(6);
export const STRIPE_WEBHOOK_SECRET = 'whsec_' + 'fault'.repeat(6);

export interface FakeSession {
  id: string;
  params: Record<string, unknown>;
  /** unit_amount of every line, in cents, as Stripe will charge them. */
  unitAmounts: number[];
  quantities: number[];
  orderId: string;
  couponAmountOff: number;
  paymentIntent: string;
  amountTotal: number;
  /** As Stripe keeps it: open until the buyer pays (`complete`) or it expires. */
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid';
  customerEmail: string | null;
}

export class FakeStripe {
  readonly sessions: FakeSession[] = [];
  readonly coupons = new Map<string, number>();
  readonly refunds: Record<string, unknown>[] = [];
  readonly calls: { method: string; path: string }[] = [];
  private server: Server | null = null;
  url = '';

  get env(): Record<string, string> {
    return {
      STRIPE_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET,
      STRIPE_API_BASE: this.url,
    };
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      void this.handle(req, res).catch(() => res.destroy());
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }

  session(id: string): FakeSession | undefined {
    return this.sessions.find((s) => s.id === id);
  }

  /** The buyer paid on Stripe's page; Stripe's own state says so, no event is delivered. */
  complete(session: FakeSession, email = 'kauf@example.org'): void {
    Object.assign(session, { status: 'complete', paymentStatus: 'paid', customerEmail: email });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    this.calls.push({ method: req.method ?? 'GET', path });
    const params = parseForm(await readBody(req));
    if (req.headers.authorization !== `Bearer ${STRIPE_SECRET_KEY}`) {
      return json(res, 401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key' },
      });
    }
    if (req.method === 'POST' && path === '/v1/coupons') {
      const id = `co_${randomBytes(6).toString('hex')}`;
      const amountOff = Number(params.amount_off ?? 0);
      this.coupons.set(id, amountOff);
      return json(res, 200, {
        id,
        object: 'coupon',
        amount_off: amountOff,
        currency: params.currency,
      });
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
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
        id,
        params,
        unitAmounts,
        quantities,
        orderId: metadata.order_id ?? String(params.client_reference_id ?? ''),
        couponAmountOff,
        paymentIntent: `pi_${randomBytes(10).toString('hex')}`,
        amountTotal: Math.max(0, subtotal - couponAmountOff),
        status: 'open',
        paymentStatus: 'unpaid',
        customerEmail: null,
      };
      this.sessions.push(session);
      return json(res, 200, {
        id,
        object: 'checkout.session',
        url: `https://checkout.stripe.com/c/pay/${id}`,
        payment_status: 'unpaid',
        status: 'open',
        amount_total: session.amountTotal,
        client_reference_id: params.client_reference_id ?? null,
        metadata,
      });
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && retrieve) {
      const session = this.session(decodeURIComponent(retrieve[1]!));
      if (!session) {
        return json(res, 404, {
          error: { type: 'invalid_request_error', message: 'No such checkout.session' },
        });
      }
      const paid = session.paymentStatus === 'paid';
      return json(res, 200, {
        id: session.id,
        object: 'checkout.session',
        status: session.status,
        payment_status: session.paymentStatus,
        amount_total: session.amountTotal,
        client_reference_id: session.orderId,
        metadata: { order_id: session.orderId },
        payment_intent: paid
          ? { id: session.paymentIntent, object: 'payment_intent', status: 'succeeded' }
          : null,
        customer_details: session.customerEmail ? { email: session.customerEmail } : null,
      });
    }
    if (req.method === 'POST' && path === '/v1/refunds') {
      this.refunds.push(params);
      return json(res, 200, {
        id: `re_${randomBytes(8).toString('hex')}`,
        object: 'refund',
        status: 'succeeded',
      });
    }
    return json(res, 404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` },
    });
  }
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

/** The Stripe-Signature header for `payload`, made with the SDK's own helper. */
export function signature(payload: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: STRIPE_WEBHOOK_SECRET,
    timestamp,
  });
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
export function parseForm(body: Buffer): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body.toString('utf8'))) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]!);
      const slot = part as unknown as number & string;
      if (last) {
        (node as Record<string, unknown>)[slot] = value;
        return;
      }
      (node as Record<string, unknown>)[slot] ??= nextIsIndex ? [] : {};
      node = (node as Record<string, unknown>)[slot] as Record<string, unknown>;
    });
  }
  return root;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks)));
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${Date.now()}` });
  res.end(JSON.stringify(body));
}
