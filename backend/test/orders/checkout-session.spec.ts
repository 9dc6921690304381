import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { checkoutResponseSchema, orderSummarySchema } from '@awhh/machines';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  API_DATABASES,
  FakeCatalog,
  inject,
  line,
  postCheckout,
  PUBLIC_URL,
  resetStore,
  waitFor,
} from '../support/checkout-test-app.js';

jest.setTimeout(60_000);

describe.each(API_DATABASES)('checkout sessions with the test provider (%s)', (kind) => {
  let app: NestFastifyApplication;
  let catalog: FakeCatalog;
  let db: { url: string; drop(): Promise<void> };

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    catalog = new FakeCatalog();
    app = await createTestApp({ databaseUrl: db.url, catalog });
    await resetStore(app);
  });
  afterEach(async () => {
    await app.close();
  });

  async function reservedUnits(productKey: number): Promise<number> {
    const store = app.get(StoreDatabase);
    const rows = await store.db
      .selectFrom('holds')
      .select(['quantity'])
      .where('product_key', '=', productKey)
      .where('released', '=', 0)
      .where('expires_at', '>', Date.now())
      .execute();
    return rows.reduce((sum, r) => sum + r.quantity, 0);
  }

  it('prices from the catalog, answers {id, url} and shows the open order', async () => {
    const res = await postCheckout(app, checkoutBody([line(101, 25, 2), line(102, 12.5)]));
    expect(res.statusCode).toBe(201);
    const session = checkoutResponseSchema.parse(res.json());
    expect(session.url).toBe(`${PUBLIC_URL}/api/checkout/test-provider/${session.id}`);

    const summary = await inject(app, {
      method: 'GET',
      url: `/api/checkout/session/${session.id}`,
    });
    expect(summary.statusCode).toBe(200);
    const order = orderSummarySchema.parse(summary.json());
    expect(order).toMatchObject({
      status: 'open',
      subtotal: 6250,
      discount: 0,
      total: 6250,
      currency: 'eur',
      orderNumber: null,
    });
    expect(order.lines).toEqual([
      { name: 'Afterwork im Hafen', quantity: 2, unitAmount: 2500 },
      { name: 'AWHH Stofftasche', quantity: 1, unitAmount: 1250 },
    ]);
    expect(await reservedUnits(101)).toBe(2);
  });

  it('answers 409 with the current price when the client amount was tampered with', async () => {
    const res = await postCheckout(app, checkoutBody([line(101, 0.01, 1)]));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      statusCode: 409,
      error: 'Conflict',
      lines: [{ productId: 101, name: 'Afterwork im Hafen', price: 25 }],
    });
    expect(res.json().message).toMatch(/Preis/);
    expect(await reservedUnits(101)).toBe(0);
  });

  it('rejects unknown products (400) and quantities above 99 (400)', async () => {
    const unknown = await postCheckout(app, checkoutBody([line(999, 5)]));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/gibt es in unserem Angebot nicht/);
    const tooMany = await postCheckout(app, checkoutBody([line(102, 12.5, 100)]));
    expect(tooMany.statusCode).toBe(400);
  });

  it('accepts redirect URLs only on its own origin', async () => {
    for (const extra of [
      { success_url: 'https://evil.example/success' },
      { cancel_url: 'https://evil.example/cart' },
      { success_url: 'http://shop.test.evil.example/success' },
    ]) {
      const res = await postCheckout(app, checkoutBody([line(102, 12.5)], extra));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Die Rücksprungadresse muss auf unserer Website liegen.');
    }
  });

  it('answers "ausverkauft" and "nur noch N verfügbar" when stock is short', async () => {
    const few = await postCheckout(app, checkoutBody([line(103, 30, 3)]));
    expect(few.statusCode).toBe(409);
    expect(few.json().message).toBe('Von „Limitiertes Shirt“ sind nur noch 2 verfügbar.');
    expect(few.json().lines).toEqual([
      { productId: 103, name: 'Limitiertes Shirt', price: 30, available: 2 },
    ]);

    expect((await postCheckout(app, checkoutBody([line(103, 30, 2)]))).statusCode).toBe(201);
    const gone = await postCheckout(app, checkoutBody([line(103, 30, 1)]));
    expect(gone.statusCode).toBe(409);
    expect(gone.json().message).toBe('„Limitiertes Shirt“ ist leider ausverkauft.');
  });

  it('re-validates the coupon and applies it in cents', async () => {
    const res = await postCheckout(
      app,
      checkoutBody([line(102, 12.5, 3)], {
        coupon: { code: 'sommer10', discountType: 'percent', discount: 10 },
      }),
    );
    expect(res.statusCode).toBe(201);
    const order = (
      await inject(app, { method: 'GET', url: `/api/checkout/session/${res.json().id}` })
    ).json();
    expect(order).toMatchObject({
      subtotal: 3750,
      discount: 375,
      total: 3375,
      // rules "Everything the shop sells": as the visitor typed it.
      couponCode: 'sommer10',
    });

    const expired = await postCheckout(
      app,
      checkoutBody([line(102, 12.5)], {
        coupon: { code: 'ALT', discountType: 'percent', discount: 10 },
      }),
    );
    expect(expired.statusCode).toBe(422);
    expect(expired.json().message).toMatch(/abgelaufen/);
  });

  it('pays a 0 € order at once, without a provider, and hands it to the catalog', async () => {
    const res = await postCheckout(
      app,
      checkoutBody([line(101, 25)], {
        success_url: `${PUBLIC_URL}/success?session_id={CHECKOUT_SESSION_ID}`,
        coupon: { code: 'GRATIS', discountType: 'percent', discount: 100 },
      }),
    );
    expect(res.statusCode).toBe(201);
    const { id, url } = res.json();
    expect(url).toBe(`${PUBLIC_URL}/success?session_id=${id}`);
    await waitFor(() => catalog.orders.size === 1);
    // The catalog answers before the order number is stored beside the order: wait for both.
    const summary = async () =>
      (await inject(app, { method: 'GET', url: `/api/checkout/session/${id}` })).json();
    await waitFor(async () => (await summary()).orderNumber !== null);
    expect(await summary()).toMatchObject({ status: 'paid', total: 0, orderNumber: '1000' });
  });

  it('completes through the hosted test page: paid order, one hand-off, success redirect', async () => {
    const { id, url } = (await postCheckout(app, checkoutBody([line(101, 25, 2)]))).json();
    const page = await inject(app, { method: 'GET', url: new URL(url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('Testmodus');
    expect(page.body).toContain('Jetzt bezahlen');
    expect(page.body).toContain('Abbrechen');
    expect(page.body).toContain('50,00');
    expect(page.body).not.toMatch(/<script/i);

    const paid = await inject(app, {
      method: 'POST',
      url: `${new URL(url).pathname}/pay`,
      ...buyerForm(),
    });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${PUBLIC_URL}/success?session_id=${id}`);
    await waitFor(() => catalog.orders.size === 1);
    const handOff = [...catalog.orders.values()][0]!.order;
    expect(handOff).toMatchObject({
      total: 5000,
      currency: 'eur',
      lines: [{ productId: 101, quantity: 2, unitAmount: 2500, name: 'Afterwork im Hafen' }],
    });
    await waitFor(async () => {
      const order = (
        await inject(app, { method: 'GET', url: `/api/checkout/session/${id}` })
      ).json();
      return order.status === 'paid' && order.orderNumber === '1000';
    });

    const events = (
      await inject(app, { method: 'GET', url: '/api/checkout/webhook/events' })
    ).json();
    expect(events.mode).toBe('test');
    expect(events.events[0]).toMatchObject({ type: 'checkout.session.completed', outcome: 'paid' });
    expect(JSON.stringify(events)).not.toContain(id);
  });

  it('cancelling on the test page expires the session and frees the places', async () => {
    const { id, url } = (await postCheckout(app, checkoutBody([line(103, 30, 2)]))).json();
    expect(await reservedUnits(103)).toBe(2);
    const canceled = await inject(app, {
      method: 'POST',
      url: `${new URL(url).pathname}/cancel`,
      headers: { 'content-type': 'text/plain' },
      payload: '',
    });
    expect(canceled.statusCode).toBe(303);
    expect(canceled.headers.location).toBe(`${PUBLIC_URL}/cart`);
    expect(await reservedUnits(103)).toBe(0);
    const order = (await inject(app, { method: 'GET', url: `/api/checkout/session/${id}` })).json();
    expect(order.status).toBe('expired');
    expect((await postCheckout(app, checkoutBody([line(103, 30, 2)]))).statusCode).toBe(201);
  });

  it('sends itself a signed test event in test mode', async () => {
    const res = await inject(app, { method: 'POST', url: '/api/checkout/webhook/test' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ received: true, outcome: 'test' });
  });

  it('limits session creation per IP with a German 429', async () => {
    // Refused attempts count too (and open no checkout, which has a limit of its own).
    const body = checkoutBody([line(999, 12.5)]);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++)
      statuses.push((await postCheckout(app, body, '192.0.2.7')).statusCode);
    expect(statuses.every((s) => s === 400)).toBe(true);
    const limited = await postCheckout(app, body, '192.0.2.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/Zu viele Bestellversuche/);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
