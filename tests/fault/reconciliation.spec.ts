import { orderSummarySchema } from '@awhh/machines';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { orderReference, wooEvent } from '../support/woocommerce-fixtures.js';
import type { FakeSession, FakeStripe } from '../support/fake-stripe.js';
import {
  type BackendProcess,
  createCheckout,
  eventually,
  sleep,
  startBackend,
} from './support/backend-process.js';
import { openFakeShop, type FakeShop } from './support/fake-shop.js';

/**
 * rules "The order's life": the webhook is missing or misconfigured and never delivers.
 * Buyers pay at Stripe and land on /success, whose polling hits two API processes on one
 * store; each paid order is still recorded and handed to WooCommerce exactly once,
 * because an open order is checked with Stripe (reconciliation).
 */

let woo: FakeWooCommerce;
let stripe: FakeStripe;
let shop: FakeShop;
let first: BackendProcess;
let second: BackendProcess | null = null;

beforeAll(async () => {
  shop = await openFakeShop(
    new FakeWooCommerce({ products: [wooEvent(901, { price: '20.00', stock_quantity: 40 })] }),
    'fault-reconcile',
  );
  ({ woo, stripe } = shop);
  first = await shop.start();
  second = await startBackend(shop.env);
});

afterAll(async () => {
  await second?.kill('SIGTERM');
  await shop?.close();
});

async function checkout(site: BackendProcess): Promise<FakeSession> {
  const res = await createCheckout(site.url, [
    { productId: 901, name: 'Testevent 901', amount: 20, quantity: 1 },
  ]);
  expect(res.status).toBe(201);
  return stripe.session(((await res.json()) as { id: string }).id)!;
}

async function status(site: BackendProcess, session: FakeSession): Promise<string> {
  const res = await fetch(`${site.url}/api/checkout/session/${session.id}`);
  expect(res.status).toBe(200);
  return orderSummarySchema.parse(await res.json()).status;
}

const handOffs = (session: FakeSession) =>
  woo.orders.filter((o) => orderReference(o) === session.orderId).length;

describe('fault: no webhook ever arrives', () => {
  it('every paid order is recorded and handed off exactly once, found from the success page', async () => {
    const sites = [first, second!];
    const sessions = await Promise.all(
      Array.from({ length: 6 }, (_, i) => checkout(sites[i % 2]!)),
    );
    const paid = sessions.slice(0, 5);
    const abandoned = sessions[5]!;
    for (const session of paid) stripe.pay(session.id);

    // Each buyer's success page polls; the polls land on either process, at once.
    await Promise.all(
      paid.map((session) =>
        eventually(
          async () => {
            const seen = await Promise.all(sites.map((site) => status(site, session)));
            return seen.every((s) => s === 'paid');
          },
          15_000,
          `session ${session.id} paid`,
        ),
      ),
    );
    expect(await status(first, abandoned)).toBe('open');

    await eventually(
      async () => paid.every((s) => handOffs(s) >= 1),
      15_000,
      'every paid order in WooCommerce',
    );
    // Give a duplicate the chance to show up before counting.
    await sleep(1_500);
    expect(paid.map(handOffs)).toEqual(paid.map(() => 1));
    expect(handOffs(abandoned)).toBe(0);
    expect(woo.orders).toHaveLength(paid.length);
    expect(stripe.requestsTo('/v1/refunds')).toEqual([]);
  });
});
