import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PaymentsPort } from '../../src/orders/payments/payments.port.js';
import { TestPaymentsAdapter } from '../../src/orders/payments/test-payments.adapter.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import { FakeStripe } from '../../../tests/support/fake-stripe.js';
import {
  checkoutBody,
  createTestApp,
  createTestDatabase,
  DATABASES,
  FakeCatalog,
  fastOptions,
  inject,
  line,
  postCheckout,
  resetStore,
  waitFor,
  STRIPE_KEY,
} from '../support/checkout-test-app.js';

jest.setTimeout(60_000);

/**
 * rules "The order's life": reconciliation. The webhook never arrives here; every paid
 * order is still recorded and handed off exactly once, found on the success page or by
 * the periodic sweep of every process.
 */
describe.each(DATABASES)('reconciliation without webhooks (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let stripe: FakeStripe;
  const apps: NestFastifyApplication[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    stripe = await FakeStripe.start({ secretKey: STRIPE_KEY });
  });
  afterAll(async () => {
    await stripe.stop();
    await db.drop();
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  async function start(catalog: FakeCatalog, options = fastOptions()) {
    const app = await createTestApp({
      databaseUrl: db.url,
      catalog,
      stripeApiBase: stripe.url,
      options,
    });
    apps.push(app);
    return app;
  }

  async function summary(app: NestFastifyApplication, sessionId: string) {
    return (await inject(app, { method: 'GET', url: `/api/checkout/session/${sessionId}` })).json();
  }

  async function checkout(app: NestFastifyApplication, quantity = 1): Promise<string> {
    const res = await postCheckout(app, checkoutBody([line(101, 25, quantity)]));
    expect(res.statusCode).toBe(201);
    return res.json().id;
  }

  async function activeReservations(app: NestFastifyApplication, sessionId: string) {
    const rows = await app
      .get(StoreDatabase)
      .db.selectFrom('holds')
      .innerJoin('orders', 'orders.id', 'holds.owner')
      .select('holds.quantity')
      .where('orders.session_id', '=', sessionId)
      .where('holds.released', '=', 0)
      .where('holds.expires_at', '>', Date.now())
      .execute();
    return rows.length;
  }

  it('the success page finds each paid order at Stripe: paid, handed off once, with the buyer from Stripe', async () => {
    const catalog = new FakeCatalog();
    const app = await start(catalog, fastOptions({ reconcileIntervalMs: 0, reconcileOnViewMs: 0 }));
    await resetStore(app);
    const sessions = [await checkout(app, 2), await checkout(app), await checkout(app)];
    const unpaid = await checkout(app);
    for (const id of sessions) stripe.pay(id, { email: 'stripe@example.org', name: 'Kim Kaufer' });

    // The buyer lands on /success, and the page polls, several times at once.
    const views = await Promise.all(
      sessions.flatMap((id) => [summary(app, id), summary(app, id), summary(app, id)]),
    );
    for (const view of views) expect(view.status).toBe('paid');
    expect((await summary(app, unpaid)).status).toBe('open');

    await waitFor(() => catalog.orders.size === 3);
    await new Promise((r) => setTimeout(r, 300));
    expect(catalog.createOrderCalls).toBe(3);
    const [first] = [...catalog.orders.values()].map((o) => o.order);
    expect(first).toMatchObject({
      email: 'stripe@example.org',
      buyer: { firstName: 'Kim', lastName: 'Kaufer' },
      paymentReference: expect.stringMatching(/^pi_fake_/),
    });
    await waitFor(async () => (await summary(app, sessions[0]!)).orderNumber !== null);
  });

  it('the sweep of two processes settles orders whose buyer never came back, each exactly once', async () => {
    const catalog = new FakeCatalog();
    const options = fastOptions({ reconcileAfterMs: 0, reconcileIntervalMs: 50 });
    const first = await start(catalog, options);
    await resetStore(first);
    const second = await start(catalog, options);

    const cards = [await checkout(first), await checkout(second), await checkout(first)];
    const sepa = await checkout(second);
    const expired = [await checkout(first), await checkout(second)];
    for (const id of cards) stripe.pay(id);
    stripe.pay(sepa, undefined, 'sepa_debit');
    for (const id of expired) stripe.expire(id);

    await waitFor(() => catalog.orders.size === 3);
    await waitFor(async () => (await activeReservations(first, expired[1]!)) === 0);
    await waitFor(async () => {
      const orders = await first
        .get(StoreDatabase)
        .db.selectFrom('orders')
        .select('status')
        .where('session_id', '=', sepa)
        .executeTakeFirstOrThrow();
      return orders.status === 'processing';
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(catalog.createOrderCalls).toBe(3);
    for (const id of expired) {
      expect(await activeReservations(first, id)).toBe(0);
    }
    // The async payment keeps its places until it settles; then it fails and frees them.
    expect(await activeReservations(first, sepa)).toBe(1);
    stripe.failPayment(sepa);
    await waitFor(async () => (await activeReservations(first, sepa)) === 0);
    expect(catalog.createOrderCalls).toBe(3);
    expect(stripe.requestsTo('/v1/refunds')).toHaveLength(0);
  });

  it('Stripe unreachable on the success page: the order shows as stored, and the next look finds it paid', async () => {
    const catalog = new FakeCatalog();
    const app = await start(catalog, fastOptions({ reconcileIntervalMs: 0, reconcileOnViewMs: 0 }));
    await resetStore(app);
    const id = await checkout(app);
    stripe.pay(id);
    stripe.failWith = 500;
    try {
      const view = await inject(app, { method: 'GET', url: `/api/checkout/session/${id}` });
      expect(view.statusCode).toBe(200);
      expect(view.json().status).toBe('open');
    } finally {
      stripe.failWith = null;
    }
    expect((await summary(app, id)).status).toBe('paid');
    await waitFor(() => catalog.orders.size === 1);
  });
});

describe('reconciliation with the test provider', () => {
  let db: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await app?.close();
    await db.drop();
  });

  it('reads its own state: a payment whose event got lost is found on the success page', async () => {
    const catalog = new FakeCatalog();
    app = await createTestApp({ databaseUrl: db.url, catalog });
    const res = await postCheckout(app, checkoutBody([line(101, 25)]));
    const sessionId: string = res.json().id;
    const { id: orderId } = await app
      .get(StoreDatabase)
      .db.selectFrom('orders')
      .select('id')
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    const adapter = app.get(PaymentsPort);
    if (!(adapter instanceof TestPaymentsAdapter)) throw new Error('expected the test provider');
    // Paid on the hosted page; the delivery never reaches the pipeline.
    adapter.complete(
      { id: sessionId, orderId },
      { email: 'gast@example.org', name: 'Karla Kundin' },
    );

    const view = await inject(app, { method: 'GET', url: `/api/checkout/session/${sessionId}` });
    expect(view.json()).toMatchObject({ status: 'paid', email: 'gast@example.org' });
    await waitFor(() => catalog.orders.size === 1);
  });
});
