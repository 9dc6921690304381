import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import { recordedShop, wooCoupon } from '../../../tests/support/woocommerce-fixtures.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  API_DATABASES,
  inject,
  postCheckout,
  resetStore,
  waitFor,
} from '../support/checkout-test-app.js';
import { shopCatalog } from '../support/shop-catalog.js';

jest.setTimeout(120_000);

// rules "Refunds": money refunded in part at the provider (here the test provider's
// "Teilweise erstatten", delivered as Stripe's charge.refunded with amount_refunded) keeps
// the tickets valid unless it covers whole tickets: those are revoked, and the shop's
// refund names their line with its quantity, so WooCommerce's stock comes back.

/** The recorded shop: simple event 15 (29 €, 3 places), event 42's tiers Regulär 44 (35 €) and VIP 45 (49 €). */
const EVENT = { id: 15, price: 29 };
const REGULAR = { id: 42, variationId: 44, price: 35 };
const VIP = { id: 42, variationId: 45, price: 49 };

type Item = { id: number; variationId?: number; price: number };
const item = (product: Item, quantity: number) => ({
  name: `Produkt ${product.id}`,
  amount: product.price,
  quantity,
  currency: 'eur',
  images: [],
  productId: product.id,
  ...(product.variationId ? { variationId: product.variationId } : {}),
});

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

describe.each(API_DATABASES)('partial refunds (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let shop: FakeWooCommerce;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    shop = await FakeWooCommerce.start(recordedShop());
    shop.coupons.push(wooCoupon('ZEHN', { amount: '10.00', discount_type: 'percent' }));
    const catalog = shopCatalog(shop);
    app = await createTestApp({ databaseUrl: db.url, catalog });
    await resetStore(app);
  });
  afterEach(async () => {
    await app.close();
    await shop.stop();
  });

  const store = () => app.get(StoreDatabase).db;
  const orderRow = (id: string) =>
    store().selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const tickets = (orderId: string) =>
    store()
      .selectFrom('tickets')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('line_position')
      .orderBy('seat')
      .execute();
  const shopRefundsDone = async () =>
    (
      await store().selectFrom('jobs').select('done_at').where('name', '=', 'shop-refund').execute()
    ).every((j) => j.done_at !== null);

  /** Pays the lines on the test provider and waits for the hand-off. */
  async function paidAndHandedOff(lines: ReturnType<typeof item>[], coupon: string | null = null) {
    const res = await postCheckout(
      app,
      checkoutBody(lines, {
        coupon: coupon ? { code: coupon, discountType: 'percent', discount: 0 } : null,
      }),
    );
    expect(res.statusCode).toBe(201);
    const page = new URL(res.json().url).pathname;
    const paid = await inject(app, { method: 'POST', url: `${page}/pay`, ...buyerForm() });
    expect(paid.statusCode).toBe(303);
    const { id: orderId } = await store()
      .selectFrom('orders')
      .select('id')
      .where('session_id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    await waitFor(async () => (await orderRow(orderId)).status === 'handedOff', 10_000);
    const wooId = Number((await orderRow(orderId)).catalog_order_id);
    return { orderId, page, woo: shop.orders.find((o) => o.id === wooId)! };
  }

  async function refundPart(page: string, betrag: string) {
    return inject(app, { method: 'POST', url: `${page}/refund/partial`, ...form({ betrag }) });
  }

  it('rules "Refunds": one ticket\'s price back revokes one ticket, the other stays valid; the shop\'s refund names its line and the stock comes back', async () => {
    const { orderId, page, woo } = await paidAndHandedOff([item(EVENT, 2)]);
    const event = shop.products.find((p) => p.id === EVENT.id)!;
    const stockAfterSale = Number(event.stock_quantity);

    const res = await refundPart(page, '29,00');
    expect(res.statusCode).toBe(303);
    await waitFor(() => shop.refundsOf(woo.id).length === 1, 10_000);

    const order = await orderRow(orderId);
    expect(order).toMatchObject({ status: 'handedOff', refunded_amount: 2900 });
    // The later seat goes; the first one still admits.
    expect((await tickets(orderId)).map((t) => [t.seat, t.status, t.refunded_at !== null])).toEqual(
      [
        [1, 'valid', false],
        [2, 'revoked', true],
      ],
    );
    const post = shop.requests.find((r) => r.method === 'POST' && r.path.endsWith('/refunds'));
    expect(post?.body).toMatchObject({
      amount: '29.00',
      api_refund: false,
      restock_items: true,
      line_items: [{ id: woo.line_items[0]!.id, quantity: 1, refund_total: '29.00' }],
    });
    expect(event.stock_quantity).toBe(stockAfterSale + 1);
    // A partial refund leaves the shop's order as it was, but for the refund.
    expect(woo.status).toBe('processing');
    const lines = await store()
      .selectFrom('order_lines')
      .select('refunded_quantity')
      .where('order_id', '=', orderId)
      .execute();
    expect(lines).toEqual([{ refunded_quantity: 1 }]);
    // The page says what went back so far.
    const shown = await inject(app, { method: 'GET', url: page });
    expect(shown.body).toContain('Bisher erstattet: 29,00\u00a0€ von 58,00\u00a0€.');
  });

  it('rules "Refunds": an amount smaller than any ticket keeps every ticket valid; the shop\'s refund moves no stock', async () => {
    const { orderId, page, woo } = await paidAndHandedOff([item(EVENT, 2)]);
    const event = shop.products.find((p) => p.id === EVENT.id)!;
    const stockAfterSale = Number(event.stock_quantity);

    expect((await refundPart(page, '10')).statusCode).toBe(303);
    await waitFor(() => shop.refundsOf(woo.id).length === 1, 10_000);
    await waitFor(shopRefundsDone, 10_000);

    expect(await orderRow(orderId)).toMatchObject({ status: 'handedOff', refunded_amount: 1000 });
    expect((await tickets(orderId)).map((t) => t.status)).toEqual(['valid', 'valid']);
    const post = shop.requests.find((r) => r.method === 'POST' && r.path.endsWith('/refunds'));
    expect(post?.body).toMatchObject({ amount: '10.00', restock_items: true });
    const items = (post?.body as { line_items: Record<string, unknown>[] }).line_items;
    expect(items).toEqual([{ id: woo.line_items[0]!.id, refund_total: '10.00' }]);
    expect(event.stock_quantity).toBe(stockAfterSale);
  });

  it('rules "Refunds": the dearest ticket the amount covers goes (after the coupon), and a dispute won never restores a refunded ticket', async () => {
    // 10 % off: VIP cost 44,10 €, Regulär 31,50 €.
    const { orderId, page, woo } = await paidAndHandedOff([item(VIP, 1), item(REGULAR, 1)], 'ZEHN');
    expect((await refundPart(page, '40,00')).statusCode).toBe(303);
    await waitFor(() => shop.refundsOf(woo.id).length === 1, 10_000);
    // 40 € does not cover the VIP ticket: the Regulär one goes.
    expect((await tickets(orderId)).map((t) => [t.tier, t.status])).toEqual([
      ['VIP', 'valid'],
      ['Regulär', 'revoked'],
    ]);
    expect(shop.refundsOf(woo.id)[0]).toMatchObject({ amount: '40.00' });
    const post = shop.requests.find((r) => r.method === 'POST' && r.path.endsWith('/refunds'));
    expect((post?.body as { line_items: unknown[] }).line_items).toEqual([
      { id: woo.line_items[0]!.id, refund_total: '8.50' },
      { id: woo.line_items[1]!.id, quantity: 1, refund_total: '31.50' },
    ]);

    // The bank disputes the payment, then decides for the shop: the VIP ticket admits again,
    // the refunded one does not.
    expect((await inject(app, { method: 'POST', url: `${page}/dispute` })).statusCode).toBe(303);
    await waitFor(async () => (await orderRow(orderId)).status === 'disputed');
    expect((await inject(app, { method: 'POST', url: `${page}/dispute/won` })).statusCode).toBe(
      303,
    );
    await waitFor(async () => (await orderRow(orderId)).status === 'handedOff');
    expect((await tickets(orderId)).map((t) => t.status)).toEqual(['valid', 'revoked']);
  });

  it('rules "Refunds": the test provider refuses an amount that is no amount, zero, or more than is left, in German (422)', async () => {
    const { orderId, page } = await paidAndHandedOff([item(EVENT, 1)]);
    for (const [betrag, message] of [
      ['', 'Bitte gib einen Betrag in Euro ein, z. B. 12,50.'],
      ['zwölf', 'Bitte gib den Betrag in Euro mit höchstens zwei Nachkommastellen an'],
      ['1,234', 'höchstens zwei Nachkommastellen'],
      ['0,00', 'Der Betrag muss größer als 0,00 € sein.'],
      ['29,01', 'Es sind höchstens 29,00\u00a0€ erstattbar.'],
    ]) {
      const res = await refundPart(page, betrag!);
      expect([betrag, res.statusCode]).toEqual([betrag, 422]);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain(message);
      expect(res.body).toContain('aria-invalid="true"');
    }
    expect(await orderRow(orderId)).toMatchObject({ status: 'handedOff', refunded_amount: 0 });
    // The whole amount in part is a full refund, as at Stripe.
    expect((await refundPart(page, '29')).statusCode).toBe(303);
    await waitFor(async () => (await orderRow(orderId)).status === 'refunded', 10_000);
    expect((await tickets(orderId)).map((t) => t.status)).toEqual(['revoked']);
  });
});
