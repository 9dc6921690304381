import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  DATABASES,
  FakeCatalog,
  inject,
  line,
  postCheckout,
  resetStore,
  waitFor,
} from '../support/checkout-test-app.js';

jest.setTimeout(120_000);

describe.each(DATABASES)('capacity and order hand-off (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication | null = null;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.drop();
  });
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('300 concurrent checkouts for 50 tickets: exactly 50 reservations, the rest 409', async () => {
    const catalog = new FakeCatalog();
    app = await createTestApp({ databaseUrl: db.url, catalog });
    await resetStore(app);
    const body = checkoutBody([line(101, 25, 1)]);
    const responses = await Promise.all(
      Array.from({ length: 300 }, () => postCheckout(app!, body)),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    expect(statuses.filter((s) => s === 409)).toHaveLength(250);
    const conflict = responses.find((r) => r.statusCode === 409)!.json();
    expect(conflict.message).toBe('„Afterwork im Hafen“ ist leider ausverkauft.');
    expect(conflict.lines).toEqual([
      { productId: 101, name: 'Afterwork im Hafen', price: 25, available: 0 },
    ]);

    const rows = await app
      .get(StoreDatabase)
      .db.selectFrom('holds')
      .select(['quantity'])
      .where('product_key', '=', 101)
      .where('released', '=', 0)
      .execute();
    expect(rows.reduce((sum, r) => sum + r.quantity, 0)).toBe(50);
  });

  async function payThroughTestPage(target: NestFastifyApplication) {
    const res = await postCheckout(target, checkoutBody([line(101, 25, 3)]));
    expect(res.statusCode).toBe(201);
    const { id, url } = res.json();
    const paid = await inject(target, {
      method: 'POST',
      url: `${new URL(url).pathname}/pay`,
      ...buyerForm(),
    });
    expect(paid.statusCode).toBe(303);
    return id as string;
  }

  it('retries the hand-off while the catalog is down and delivers once it recovers', async () => {
    const catalog = new FakeCatalog();
    catalog.failing = true;
    app = await createTestApp({ databaseUrl: db.url, catalog });
    await resetStore(app);
    const sessionId = await payThroughTestPage(app);

    await waitFor(() => catalog.createOrderCalls >= 3);
    const job = await app
      .get(StoreDatabase)
      .db.selectFrom('jobs')
      .selectAll()
      .where('name', '=', 'order-handoff')
      .executeTakeFirstOrThrow();
    expect(job.done_at).toBeNull();
    expect(job.last_error).toMatch(/503/);
    expect(job.attempts).toBeGreaterThanOrEqual(3);

    catalog.failing = false;
    await waitFor(() => catalog.orders.size === 1);
    await waitFor(async () => {
      const order = (
        await inject(app!, { method: 'GET', url: `/api/checkout/session/${sessionId}` })
      ).json();
      return order.orderNumber === '1000';
    });
    expect(catalog.orders.size).toBe(1);
  });

  it('keeps an undelivered order across a restart and delivers it from the new process', async () => {
    const down = new FakeCatalog();
    down.failing = true;
    app = await createTestApp({ databaseUrl: db.url, catalog: down });
    await resetStore(app);
    const sessionId = await payThroughTestPage(app);
    await waitFor(() => down.createOrderCalls >= 1);
    await app.close();
    app = null;
    expect(down.orders.size).toBe(0);

    const up = new FakeCatalog();
    app = await createTestApp({ databaseUrl: db.url, catalog: up });
    await waitFor(() => up.orders.size === 1);
    const handOff = [...up.orders.values()][0]!.order;
    expect(handOff).toMatchObject({
      total: 7500,
      lines: [{ productId: 101, quantity: 3, unitAmount: 2500 }],
    });
    await waitFor(async () => {
      const order = (
        await inject(app!, { method: 'GET', url: `/api/checkout/session/${sessionId}` })
      ).json();
      return order.status === 'paid' && order.orderNumber === '1000';
    });
  });

  it('two processes on one store deliver each order exactly once', async () => {
    const catalog = new FakeCatalog();
    app = await createTestApp({ databaseUrl: db.url, catalog });
    await resetStore(app);
    const second = await createTestApp({ databaseUrl: db.url, catalog });
    try {
      const ids = await Promise.all(
        Array.from({ length: 6 }, (_, i) => payThroughTestPage(i % 2 === 0 ? app! : second)),
      );
      await waitFor(() => catalog.orders.size === 6);
      await new Promise((r) => setTimeout(r, 300));
      expect(catalog.createOrderCalls).toBe(6);
      expect(new Set(ids).size).toBe(6);
    } finally {
      await second.close();
    }
  });
});
