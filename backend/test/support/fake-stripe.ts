import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeStripeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  /** The form body exactly as the SDK encoded it, one entry per bracketed key. */
  form: Record<string, string>;
}

/** A Checkout Session as Stripe keeps it: open until the buyer pays or it expires. */
export interface FakeSessionState {
  id: string;
  orderId: string;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid';
  /** The payment intent's own status, for async methods (SEPA) that settle later. */
  intentStatus: 'succeeded' | 'processing' | 'requires_payment_method' | null;
  paymentIntent: string | null;
  customer: { email: string; name: string } | null;
}

/**
 * A local stand-in for api.stripe.com: records every request the SDK sends (so tests can
 * assert the exact form parameters) and answers with minimal Stripe-shaped objects. It
 * keeps each session's state, which a test changes (`pay`, `expire`) without a webhook,
 * as a buyer and Stripe do while the webhook is missing.
 */
export class FakeStripe {
  readonly requests: FakeStripeRequest[] = [];
  readonly sessions = new Map<string, FakeSessionState>();
  /** When set, every request is answered with this HTTP status and a Stripe error body. */
  failWith: number | null = null;
  private server: Server | null = null;
  private counter = 0;

  /** The buyer paid on Stripe's page; no event is delivered. */
  pay(
    sessionId: string,
    customer = { email: 'gast@example.org', name: 'Karla Kundin' },
    method: 'card' | 'sepa_debit' = 'card',
  ): FakeSessionState {
    const session = this.sessionState(sessionId);
    Object.assign(session, {
      status: 'complete',
      paymentStatus: method === 'card' ? 'paid' : 'unpaid',
      intentStatus: method === 'card' ? 'succeeded' : 'processing',
      paymentIntent: `pi_fake_${sessionId}`,
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

  private sessionState(sessionId: string): FakeSessionState {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`FakeStripe has no session ${sessionId}`);
    return session;
  }

  get apiBase(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('FakeStripe is not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(({ status, body }) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  requestsTo(path: string): FakeStripeRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const path = (req.url ?? '').split('?')[0]!;
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    this.requests.push({
      method: req.method ?? '',
      path,
      idempotencyKey: header('idempotency-key'),
      authorization: header('authorization'),
      form,
    });
    if (this.failWith !== null) {
      return {
        status: this.failWith,
        body: { error: { type: 'api_error', message: 'fake outage' } },
      };
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && retrieve) {
      const session = this.sessions.get(decodeURIComponent(retrieve[1]!));
      if (!session) {
        return {
          status: 404,
          body: { error: { type: 'invalid_request_error', message: 'No such checkout.session' } },
        };
      }
      return { status: 200, body: sessionObject(session, req.url ?? '') };
    }
    const n = ++this.counter;
    if (req.method === 'POST' && path === '/v1/coupons') {
      return {
        status: 200,
        body: { id: `co_fake_${n}`, object: 'coupon', amount_off: Number(form.amount_off) },
      };
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const id = `cs_test_fake_${n}`;
      this.sessions.set(id, {
        id,
        orderId: form['metadata[order_id]'] ?? '',
        status: 'open',
        paymentStatus: 'unpaid',
        intentStatus: null,
        paymentIntent: null,
        customer: null,
      });
      return {
        status: 200,
        body: {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.com/c/pay/${id}`,
          metadata: { order_id: form['metadata[order_id]'] },
        },
      };
    }
    if (req.method === 'POST' && path === '/v1/refunds') {
      return { status: 200, body: { id: `re_fake_${n}`, object: 'refund', status: 'succeeded' } };
    }
    return {
      status: 404,
      body: { error: { type: 'invalid_request_error', message: `no fake for ${path}` } },
    };
  }
}

/** The session as `GET /v1/checkout/sessions/:id` answers it, `payment_intent` expanded when asked. */
function sessionObject(session: FakeSessionState, url: string): Record<string, unknown> {
  const expand = new URL(url, 'http://fake').searchParams.getAll('expand[0]');
  const intent =
    session.paymentIntent && expand.includes('payment_intent')
      ? { id: session.paymentIntent, object: 'payment_intent', status: session.intentStatus }
      : session.paymentIntent;
  return {
    id: session.id,
    object: 'checkout.session',
    status: session.status,
    payment_status: session.paymentStatus,
    client_reference_id: session.orderId,
    metadata: { order_id: session.orderId },
    payment_intent: intent,
    customer_details: session.customer
      ? { email: session.customer.email, name: session.customer.name }
      : null,
  };
}
