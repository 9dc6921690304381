import { apiErrorSchema, orderSummarySchema } from '@awhh/machines';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { orderReference, wooEvent } from '../support/woocommerce-fixtures.js';
import {
  deliver,
  FakeStripe,
  type FakeSession,
  sessionEvent,
  signature,
} from '../support/fake-stripe.js';
import {
  type BackendProcess,
  createCheckout,
  eventually,
  sleep,
} from './support/backend-process.js';
import { openFakeShop, type FakeShop } from './support/fake-shop.js';

/**
 * rules "Webhook": Stripe delivers events when it likes: before the buyer is back on the
 * success page, minutes later, twice, or out of order. Whatever the order, a paid session
 * becomes one paid order and one WooCommerce order.
 */

let woo: FakeWooCommerce;
let stripe: FakeStripe;
let site: BackendProcess;

let shop: FakeShop;

beforeAll(async () => {
  shop = await openFakeShop(
    new FakeWooCommerce({ products: [wooEvent(601, { price: '30.00', stock_quantity: 40 })] }),
    'fault-webhook',
  );
  ({ woo, stripe } = shop);
  site = await shop.start();
});

afterAll(() => shop?.close());

async function checkout(quantity = 1): Promise<FakeSession> {
  const res = await createCheckout(site.url, [
    { productId: 601, name: 'Testevent 601', amount: 30, quantity },
  ]);
  const body = (await res.json()) as { id: string; url: string };
  expect(res.status).toBe(201);
  expect(body.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
  const session = stripe.session(body.id);
  expect(session).toBeDefined();
  return session!;
}

async function summary(session: FakeSession) {
  const res = await fetch(`${site.url}/api/checkout/session/${session.id}`);
  expect(res.status).toBe(200);
  return orderSummarySchema.parse(await res.json());
}

/** WooCommerce orders carrying this order's reference (rules "Webhook": handed off once). */
function handOffs(session: FakeSession): number {
  return woo.orders.filter((o) => orderReference(o) === session.orderId).length;
}

async function expectOneHandOff(session: FakeSession): Promise<void> {
  await eventually(async () => handOffs(session) >= 1, 15_000, 'the WooCommerce hand-off');
  // Give a duplicate the chance to show up before counting.
  await sleep(1_500);
  expect(handOffs(session)).toBe(1);
}

async function deliverOk(payload: string): Promise<void> {
  const res = await deliver(site.url, payload);
  expect(res.status).toBe(200);
}

describe('fault: the webhook before the redirect, late, twice, out of order', () => {
  it('before the redirect: the success page already finds the order paid, handed off once', async () => {
    const session = await checkout(2);
    await deliverOk(sessionEvent(session, 'checkout.session.completed'));
    const order = await summary(session);
    expect(order.status).toBe('paid');
    expect(order.total).toBe(6000);
    await expectOneHandOff(session);
  });

  it('late: the success page sees "open" first, then "paid" once the event arrives', async () => {
    const session = await checkout();
    expect((await summary(session)).status).toBe('open');
    await sleep(1_000);
    expect(handOffs(session)).toBe(0);
    await deliverOk(sessionEvent(session, 'checkout.session.completed'));
    expect((await summary(session)).status).toBe('paid');
    await expectOneHandOff(session);
  });

  it('a replay older than the 300 s tolerance, or forged, is refused with 400 JSON and changes nothing', async () => {
    const session = await checkout();
    const payload = sessionEvent(session, 'checkout.session.completed');
    const stale = await deliver(
      site.url,
      payload,
      signature(payload, Math.floor(Date.now() / 1000) - 600),
    );
    expect(stale.status).toBe(400);
    expect(apiErrorSchema.parse(await stale.json()).statusCode).toBe(400);
    const forged = await deliver(
      site.url,
      payload.replace('"paid"', '"paid" '),
      signature(payload),
    );
    expect(forged.status).toBe(400);
    const unsigned = await fetch(`${site.url}/api/checkout/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
    });
    expect(unsigned.status).toBe(400);
    expect((await summary(session)).status).toBe('open');
    await sleep(1_000);
    expect(handOffs(session)).toBe(0);
  });

  it('twice (and five times, concurrently): one paid order, one hand-off', async () => {
    const session = await checkout();
    const payload = sessionEvent(session, 'checkout.session.completed');
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(site.url, payload)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // A second, distinct event for the same payment (Stripe sends both for async methods).
    await deliverOk(sessionEvent(session, 'checkout.session.async_payment_succeeded'));
    expect((await summary(session)).status).toBe('paid');
    await expectOneHandOff(session);
  });

  it('out of order: async_payment_succeeded before completed(unpaid) ends paid, once', async () => {
    const session = await checkout();
    await deliverOk(sessionEvent(session, 'checkout.session.async_payment_succeeded'));
    await deliverOk(
      sessionEvent(session, 'checkout.session.completed', { paymentStatus: 'unpaid' }),
    );
    expect((await summary(session)).status).toBe('paid');
    await expectOneHandOff(session);
  });

  it('out of order: completed after expired is accepted while capacity remains, not refunded', async () => {
    const session = await checkout();
    await deliverOk(sessionEvent(session, 'checkout.session.expired'));
    expect((await summary(session)).status).toBe('expired');
    await deliverOk(sessionEvent(session, 'checkout.session.completed'));
    expect((await summary(session)).status).toBe('paid');
    await expectOneHandOff(session);
    expect(stripe.requestsTo('/v1/refunds')).toEqual([]);
  });

  it('an expired session whose payment never came is never handed off', async () => {
    const session = await checkout();
    await deliverOk(sessionEvent(session, 'checkout.session.expired'));
    await deliverOk(sessionEvent(session, 'checkout.session.expired'));
    expect((await summary(session)).status).toBe('expired');
    await sleep(1_500);
    expect(handOffs(session)).toBe(0);
  });
});
