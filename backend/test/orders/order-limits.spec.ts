import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { apiErrorSchema, type CheckoutResponse, checkoutResponseSchema } from '@awhh/machines';
import type { CatalogProduct, CatalogVariation } from '../../src/catalog/catalog.port.js';
import { ConfigError, parseConfig } from '../../src/config/config.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  API_DATABASES,
  FakeCatalog,
  freshIp,
  inject,
  line,
  postCheckout,
  resetStore,
  waitFor,
} from '../support/checkout-test-app.js';

jest.setTimeout(120_000);

/** An evening of 120 seats, two tiers drawing from the event's own stock. */
const EVENING = 501;
function tier(id: number, option: string): CatalogVariation {
  return {
    id,
    attributes: [{ name: 'Ticket', option }],
    price: 25,
    regular_price: 25,
    sale_price: null,
    on_sale: false,
    stock_quantity: 120,
    stock_status: 'instock',
    sharesParentStock: true,
    purchasable: true,
    image: null,
  };
}
function evening(): CatalogProduct {
  const variants = [tier(502, 'Regulär'), tier(503, 'Begleitung')];
  return {
    id: EVENING,
    name: 'Ganzer Abend im Hafenklang',
    slug: 'ganzer-abend',
    type: 'variable',
    variations: variants.map((v) => v.id),
    meta_data: [],
    price: 25,
    images: [],
    stock_status: 'instock',
    stock_quantity: 120,
    categories: [],
    kind: 'event',
    variants,
  };
}
const tierLine = (variationId: number, quantity: number) => ({
  ...line(EVENING, 25, quantity, 'Ganzer Abend im Hafenklang'),
  variationId,
});

/** A print WooCommerce sells individually ("Limit purchases to 1 item per order"). */
const PRINT = 504;
function print(): CatalogProduct {
  return {
    id: PRINT,
    name: 'Signierter Siebdruck',
    slug: 'siebdruck',
    meta_data: [],
    price: 40,
    images: [],
    stock_status: 'instock',
    stock_quantity: 30,
    categories: [],
    kind: 'product',
    sold_individually: true,
  };
}

describe('MAX_TICKETS_PER_ORDER', () => {
  it('defaults to 10 and accepts 1 to 20 (the most one checkout may hold)', () => {
    expect(parseConfig({}).maxTicketsPerOrder).toBe(10);
    expect(parseConfig({ MAX_TICKETS_PER_ORDER: '1' }).maxTicketsPerOrder).toBe(1);
    expect(parseConfig({ MAX_TICKETS_PER_ORDER: '20' }).maxTicketsPerOrder).toBe(20);
  });

  it.each(['0', '21', '99', '2.5', 'zehn', '-1'])(
    'refuses "%s" with a ConfigError naming it',
    (raw) => {
      expect(() => parseConfig({ MAX_TICKETS_PER_ORDER: raw })).toThrow(ConfigError);
      expect(() => parseConfig({ MAX_TICKETS_PER_ORDER: raw })).toThrow(/MAX_TICKETS_PER_ORDER/);
    },
  );
});

describe.each(API_DATABASES)('order limits at checkout (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication | null = null;
  let catalog: FakeCatalog;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.drop();
  });
  async function start(env: NodeJS.ProcessEnv = {}) {
    catalog = new FakeCatalog();
    catalog.products.push(evening(), print());
    app = await createTestApp({ databaseUrl: db.url, catalog, env });
    await resetStore(app);
    return app;
  }
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  async function reservedUnits(productKey: number): Promise<number> {
    const rows = await app!
      .get(StoreDatabase)
      .db.selectFrom('holds')
      .select(['quantity'])
      .where('product_key', '=', productKey)
      .where('released', '=', 0)
      .where('expires_at', '>', Date.now())
      .execute();
    return rows.reduce((sum, r) => sum + r.quantity, 0);
  }

  async function freeSeats(): Promise<number | null> {
    const res = await inject(app!, {
      method: 'GET',
      url: `/api/waitlist/availability/${EVENING}`,
    });
    expect(res.statusCode).toBe(200);
    return res.json().free;
  }

  function refusal(res: { statusCode: number; json(): unknown }) {
    const body = apiErrorSchema.parse(res.json());
    expect(body.statusCode).toBe(res.statusCode);
    return body;
  }

  it('one unpaid request for 99 + 21 seats is refused (400) and holds nothing', async () => {
    await start();
    expect(await freeSeats()).toBe(120);
    const res = await postCheckout(app!, checkoutBody([tierLine(502, 99), tierLine(503, 21)]));
    expect(res.statusCode).toBe(400);
    expect(refusal(res).message).toBe(
      'Eine Bestellung umfasst höchstens 20 Artikel. Bitte verringere die Anzahl im Warenkorb.',
    );
    expect(await reservedUnits(EVENING)).toBe(0);
    expect(await freeSeats()).toBe(120);
    // The next buyer still gets a seat.
    expect((await postCheckout(app!, checkoutBody([tierLine(502, 2)]))).statusCode).toBe(201);
  });

  it('an event: at most MAX_TICKETS_PER_ORDER (10) over all its tiers, 400 beyond', async () => {
    await start();
    const over = await postCheckout(app!, checkoutBody([tierLine(502, 6), tierLine(503, 5)]));
    expect(over.statusCode).toBe(400);
    expect(refusal(over).message).toBe(
      'Von „Ganzer Abend im Hafenklang“ sind höchstens 10 pro Bestellung möglich (alle Varianten zusammen). Bitte verringere die Anzahl im Warenkorb.',
    );
    expect(await freeSeats()).toBe(120);
    const simple = await postCheckout(app!, checkoutBody([line(101, 25, 11)]));
    expect(simple.statusCode).toBe(400);
    expect(refusal(simple).message).toMatch(/^Von „Afterwork im Hafen“ sind höchstens 10 pro/);

    const ten = await postCheckout(app!, checkoutBody([tierLine(502, 6), tierLine(503, 4)]));
    expect(ten.statusCode).toBe(201);
    expect(await freeSeats()).toBe(110);
  });

  it('MAX_TICKETS_PER_ORDER sets the per-event limit', async () => {
    await start({ MAX_TICKETS_PER_ORDER: '4' });
    const five = await postCheckout(app!, checkoutBody([tierLine(502, 3), tierLine(503, 2)]));
    expect(five.statusCode).toBe(400);
    expect(refusal(five).message).toMatch(/höchstens 4 pro Bestellung/);
    expect((await postCheckout(app!, checkoutBody([tierLine(502, 4)]))).statusCode).toBe(201);
  });

  it('at most 20 units in all, merch included (400 beyond)', async () => {
    await start();
    const over = await postCheckout(app!, checkoutBody([line(101, 25, 10), line(102, 12.5, 11)]));
    expect(over.statusCode).toBe(400);
    expect(refusal(over).message).toMatch(/^Eine Bestellung umfasst höchstens 20 Artikel/);
    expect(await reservedUnits(101)).toBe(0);
    const twenty = await postCheckout(app!, checkoutBody([line(101, 25, 10), line(102, 12.5, 10)]));
    expect(twenty.statusCode).toBe(201);
  });

  it("WooCommerce's sold_individually: one per order", async () => {
    await start();
    const two = await postCheckout(app!, checkoutBody([line(PRINT, 40, 2)]));
    expect(two.statusCode).toBe(400);
    expect(refusal(two).message).toBe('„Signierter Siebdruck“ gibt es nur einmal pro Bestellung.');
    expect(await reservedUnits(PRINT)).toBe(0);
    expect((await postCheckout(app!, checkoutBody([line(PRINT, 40, 1)]))).statusCode).toBe(201);
  });

  it('a 4th open checkout from one address: 429 with Retry-After, nothing reserved', async () => {
    await start();
    const ip = freshIp();
    for (let i = 0; i < 3; i++) {
      const res = await postCheckout(app!, checkoutBody([tierLine(502, 2)]), ip);
      expect(res.statusCode).toBe(201);
    }
    expect(await freeSeats()).toBe(114);
    const fourth = await postCheckout(app!, checkoutBody([tierLine(502, 2)]), ip);
    expect(fourth.statusCode).toBe(429);
    expect(refusal(fourth).message).toMatch(
      /^Von deinem Anschluss aus sind schon 3 Bestellungen offen, die noch nicht bezahlt sind\. .*dein Warenkorb bleibt erhalten\.$/,
    );
    const retryAfter = Number(fourth.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(31 * 60);
    expect(await freeSeats()).toBe(114);
    // Another address is not affected.
    expect((await postCheckout(app!, checkoutBody([tierLine(502, 2)]))).statusCode).toBe(201);
  });

  it("one address holds at most an evening's order limit in open checkouts: 10 + 1 is a German 429 naming the evening; merch and other addresses go on", async () => {
    await start();
    const ip = freshIp();
    expect((await postCheckout(app!, checkoutBody([tierLine(502, 6)]), ip)).statusCode).toBe(201);
    expect((await postCheckout(app!, checkoutBody([tierLine(503, 4)]), ip)).statusCode).toBe(201);
    const free = await freeSeats();
    const more = await postCheckout(app!, checkoutBody([tierLine(502, 1)]), ip);
    expect(more.statusCode).toBe(429);
    expect(refusal(more).message).toMatch(
      /^Von deinem Anschluss aus sind in offenen, noch nicht bezahlten Bestellungen schon Plätze für „.+“ reserviert; zusammen mit dieser wären es mehr als 10\. .*dein Warenkorb bleibt erhalten\.$/,
    );
    expect(Number(more.headers['retry-after'])).toBeGreaterThan(0);
    expect(await freeSeats()).toBe(free);
    // Merch is no evening: it is not counted against it.
    expect((await postCheckout(app!, checkoutBody([line(102, 12.5, 1)]), ip)).statusCode).toBe(201);
    // Another address is not affected.
    expect((await postCheckout(app!, checkoutBody([tierLine(502, 1)]))).statusCode).toBe(201);
  });

  it('an IPv6 client is counted by its /64 network', async () => {
    await start();
    for (let i = 1; i <= 3; i++) {
      const res = await postCheckout(app!, checkoutBody([line(102, 12.5)]), `2001:db8:1:2::${i}`);
      expect(res.statusCode).toBe(201);
    }
    const sameNetwork = await postCheckout(
      app!,
      checkoutBody([line(102, 12.5)]),
      '2001:db8:1:2:ffff:1:2:3',
    );
    expect(sameNetwork.statusCode).toBe(429);
    const otherNetwork = await postCheckout(
      app!,
      checkoutBody([line(102, 12.5)]),
      '2001:db8:1:3::1',
    );
    expect(otherNetwork.statusCode).toBe(201);
  });

  it('a paid or cancelled checkout frees its slot', async () => {
    await start();
    const ip = freshIp();
    const sessions: CheckoutResponse[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await postCheckout(app!, checkoutBody([line(102, 12.5)]), ip);
      expect(res.statusCode).toBe(201);
      sessions.push(checkoutResponseSchema.parse(res.json()));
    }
    expect((await postCheckout(app!, checkoutBody([line(102, 12.5)]), ip)).statusCode).toBe(429);

    const paid = await inject(app!, {
      method: 'POST',
      url: `${new URL(sessions[0]!.url!).pathname}/pay`,
      ...buyerForm(),
    });
    expect(paid.statusCode).toBe(303);
    await waitFor(async () => {
      const order = (
        await inject(app!, { method: 'GET', url: `/api/checkout/session/${sessions[0]!.id}` })
      ).json();
      return order.status === 'paid';
    });
    expect((await postCheckout(app!, checkoutBody([line(102, 12.5)]), ip)).statusCode).toBe(201);
    expect((await postCheckout(app!, checkoutBody([line(102, 12.5)]), ip)).statusCode).toBe(429);

    const cancelled = await inject(app!, {
      method: 'POST',
      url: `${new URL(sessions[1]!.url!).pathname}/cancel`,
    });
    expect(cancelled.statusCode).toBeLessThan(400);
    expect((await postCheckout(app!, checkoutBody([line(102, 12.5)]), ip)).statusCode).toBe(201);
  });

  it('the store keeps a keyed hash of the address, never the address, and only while open', async () => {
    await start();
    const ip = '10.77.0.1';
    const res = await postCheckout(app!, checkoutBody([line(102, 12.5)]), ip);
    const { id } = checkoutResponseSchema.parse(res.json());
    const { db } = app!.get(StoreDatabase);
    const row = await db
      .selectFrom('orders')
      .select(['id', 'client_key'])
      .where('session_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.client_key).toMatch(/^[\w-]{32}$/);
    expect(row.client_key).not.toContain('10.77');
    const cancelled = await inject(app!, {
      method: 'POST',
      url: `/api/checkout/test-provider/${id}/cancel`,
    });
    expect(cancelled.statusCode).toBeLessThan(400);
    await waitFor(async () => {
      const after = await db
        .selectFrom('orders')
        .select('client_key')
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      return after.client_key === null;
    });
  });
});
