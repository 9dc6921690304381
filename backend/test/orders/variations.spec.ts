import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { CatalogProduct, CatalogVariation } from '../../src/catalog/catalog.port.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
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

function tier(id: number, option: string, price: number, stock: number | null, regular = price) {
  return {
    id,
    attributes: [{ name: 'Ticket', option }],
    price,
    regular_price: regular,
    sale_price: regular > price ? price : null,
    on_sale: regular > price,
    stock_quantity: stock,
    stock_status: stock === 0 ? 'outofstock' : 'instock',
    sharesParentStock: false,
    purchasable: true,
    image: null,
  } satisfies CatalogVariation;
}

/** The recorded shop's variable event: Early Bird sold out, Regulär, VIP on sale with 4 seats. */
function tieredEvent(variants: CatalogVariation[] = defaultTiers()): CatalogProduct {
  return {
    id: 42,
    name: 'Sommer-Afterwork auf der MS Hamburg',
    slug: 'sommer-afterwork-ms-hamburg',
    type: 'variable',
    variations: variants.map((v) => v.id),
    meta_data: [],
    // WooCommerce puts the lowest variation price on the parent.
    price: 25,
    images: [{ src: '/images/42.jpg' }],
    stock_status: 'instock',
    stock_quantity: null,
    categories: [],
    kind: 'event',
    variants,
  };
}

function defaultTiers() {
  return [tier(43, 'Early Bird', 25, 0), tier(44, 'Regulär', 35, 40), tier(45, 'VIP', 49, 4, 59)];
}

const variationLine = (variationId: number, price: number, quantity = 1) => ({
  ...line(42, price, quantity, 'Sommer-Afterwork auf der MS Hamburg'),
  variationId,
});

describe.each(DATABASES)('variable products at checkout (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication | null = null;
  let catalog: FakeCatalog;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    catalog = new FakeCatalog();
    catalog.products.push(tieredEvent());
    app = await createTestApp({ databaseUrl: db.url, catalog });
    await resetStore(app);
  });
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('a variable parent is never a line: 400 "Bitte wähle …"', async () => {
    const res = await postCheckout(app!, checkoutBody([line(42, 25, 3)]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.json().message).toMatch(/^Bitte wähle .*Sommer-Afterwork auf der MS Hamburg/);
  });

  it('a variation of a simple product or an unknown variation is not on offer (400)', async () => {
    const simpleWithVariation = { ...line(101, 25), variationId: 7 };
    const simple = await postCheckout(app!, checkoutBody([simpleWithVariation]));
    expect(simple.statusCode).toBe(400);
    const unknown = await postCheckout(app!, checkoutBody([variationLine(99, 49)]));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/gibt es in unserem Angebot nicht/);
  });

  it('prices a tier from its variation: the parent price for VIP is a 409 with the VIP price', async () => {
    const res = await postCheckout(app!, checkoutBody([variationLine(45, 25)]));
    expect(res.statusCode).toBe(409);
    expect(res.json().lines).toEqual([
      {
        productId: 42,
        variationId: 45,
        name: 'Sommer-Afterwork auf der MS Hamburg – VIP',
        price: 49,
        available: 4,
      },
    ]);
  });

  it('names the line "Event – VIP" and charges the sale price', async () => {
    const res = await postCheckout(app!, checkoutBody([variationLine(45, 49, 2)]));
    expect(res.statusCode).toBe(201);
    const summary = await inject(app!, {
      method: 'GET',
      url: `/api/checkout/session/${encodeURIComponent(res.json().id)}`,
    });
    expect(summary.json()).toMatchObject({
      lines: [{ name: 'Sommer-Afterwork auf der MS Hamburg – VIP', quantity: 2, unitAmount: 4900 }],
      total: 9800,
    });
  });

  it('a sold-out tier cannot be bought (409 ausverkauft), though other tiers can', async () => {
    const soldOut = await postCheckout(app!, checkoutBody([variationLine(43, 25)]));
    expect(soldOut.statusCode).toBe(409);
    expect(soldOut.json().message).toBe(
      '„Sommer-Afterwork auf der MS Hamburg – Early Bird“ ist leider ausverkauft.',
    );
    const regular = await postCheckout(app!, checkoutBody([variationLine(44, 35)]));
    expect(regular.statusCode).toBe(201);
  });

  it('30 concurrent checkouts on a 4-seat tier sell at most 4', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => postCheckout(app!, checkoutBody([variationLine(45, 49)]))),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(4);
    expect(statuses.filter((s) => s === 409)).toHaveLength(26);
    const rows = await app!
      .get(StoreDatabase)
      .db.selectFrom('holds')
      .select(['product_key', 'quantity'])
      .where('released', '=', 0)
      .execute();
    expect(rows.every((r) => r.product_key === 45)).toBe(true);
    expect(rows.reduce((sum, r) => sum + r.quantity, 0)).toBe(4);
    // Another tier of the same event is untouched by the VIP rush.
    expect((await postCheckout(app!, checkoutBody([variationLine(44, 35, 5)]))).statusCode).toBe(
      201,
    );
  });

  it('tiers that share the parent stock (manage_stock "parent") share its capacity', async () => {
    const shared = (v: CatalogVariation) => ({ ...v, sharesParentStock: true });
    const event = tieredEvent([
      shared(tier(44, 'Regulär', 35, null)),
      shared(tier(45, 'VIP', 49, null)),
    ]);
    event.stock_quantity = 3;
    catalog.products = catalog.products.filter((p) => p.id !== 42).concat(event);
    const first = await postCheckout(app!, checkoutBody([variationLine(44, 35, 2)]));
    expect(first.statusCode).toBe(201);
    const second = await postCheckout(app!, checkoutBody([variationLine(45, 49, 2)]));
    expect(second.statusCode).toBe(409);
    expect(second.json().lines[0]).toMatchObject({ variationId: 45, available: 1 });
  });

  it('hands the order off with the variation id', async () => {
    // A free order (100 % coupon) is handed off at once, without a payment page.
    const res = await postCheckout(
      app!,
      checkoutBody([variationLine(44, 35, 2)], {
        coupon: { code: 'GRATIS', discountType: 'percent', discount: 100 },
      }),
    );
    expect(res.statusCode).toBe(201);
    await waitFor(() => catalog.orders.size === 1);
    const [handedOff] = [...catalog.orders.values()];
    expect(handedOff!.order.lines).toEqual([
      expect.objectContaining({
        productId: 42,
        variationId: 44,
        quantity: 2,
        name: 'Sommer-Afterwork auf der MS Hamburg – Regulär',
      }),
    ]);
  });
});
