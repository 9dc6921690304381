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

/**
 * A local stand-in for api.stripe.com: records every request the SDK sends (so tests can
 * assert the exact form parameters) and answers with minimal Stripe-shaped objects.
 */
export class FakeStripe {
  readonly requests: FakeStripeRequest[] = [];
  /** When set, every request is answered with this HTTP status and a Stripe error body. */
  failWith: number | null = null;
  private server: Server | null = null;
  private counter = 0;

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
    const n = ++this.counter;
    if (req.method === 'POST' && path === '/v1/coupons') {
      return {
        status: 200,
        body: { id: `co_fake_${n}`, object: 'coupon', amount_off: Number(form.amount_off) },
      };
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const id = `cs_test_fake_${n}`;
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
