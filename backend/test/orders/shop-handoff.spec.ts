import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import { recordedShop, type WooCoupon } from '../../../tests/support/woocommerce-fixtures.js';
import { handoffRetryCli } from '../../src/handoff-retry.cli.js';
import { OrderService } from '../../src/orders/order.service.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  API_DATABASES,
  freshIp,
  inject,
  line,
  postCheckout,
  PUBLIC_URL,
  resetStore,
  waitFor,
} from '../support/checkout-test-app.js';
import { shopCatalog } from '../support/shop-catalog.js';

/** rules "Hand-off refused": the reason in German, WooCommerce's own words beside it. */
const USED_UP =
  'Der Gutschein „fest5“ ist aufgebraucht: sein Nutzungslimit ist erreicht. (WooCommerce: „Usage limit for coupon "fest5" has been reached.“)';
jest.setTimeout(120_000);

// rules "Hand-off refused" and "Refunds reach the shop", against the fake WooCommerce
// answering like the recorded shop: a refused hand-off is not retried, leaves no draft,
// tells the organizer and goes through once the cause is fixed; money refunded at the
// provider becomes the shop's refund, with restock when it is all of it.

const ORGANIZER = 'orga@afterwork.example';
const ORGANIZER_CODE = 'Pp8h-Ab6x-Pzdp-5g4f';
/** The recorded shop's simple event: 29 €, 3 places. */
const EVENT = 15;

describe.each(API_DATABASES)('the shop both ways: hand-off refused, refunds (%s)', (kind) => {
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
    const catalog = shopCatalog(shop);
    app = await createTestApp({
      databaseUrl: db.url,
      catalog,
      env: { ORGANIZER_EMAIL: ORGANIZER, ORGANIZER_CODE },
    });
    await resetStore(app);
  });
  afterEach(async () => {
    await app.close();
    await shop.stop();
  });

  const store = () => app.get(StoreDatabase).db;

  async function pay(quantity: number, coupon: Record<string, unknown> | null = null) {
    const res = await postCheckout(app, checkoutBody([line(EVENT, 29, quantity)], { coupon }));
    expect(res.statusCode).toBe(201);
    const { id: sessionId, url } = res.json();
    const paid = await inject(app, {
      method: 'POST',
      url: `${new URL(url).pathname}/pay`,
      ...buyerForm(),
    });
    expect(paid.statusCode).toBe(303);
    const order = await store()
      .selectFrom('orders')
      .selectAll()
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    return { sessionId, orderId: order.id, paymentPage: new URL(url).pathname };
  }

  const orderRow = (id: string) =>
    store().selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const handoffJob = (id: string) =>
    store()
      .selectFrom('jobs')
      .selectAll()
      .where('name', '=', 'order-handoff')
      .where('key', '=', id)
      .executeTakeFirstOrThrow();
  const shopOrder = (reference: string) =>
    shop.orders.find((o) =>
      o.meta_data.some((m) => m.key === 'awhh_reference' && m.value === reference),
    );

  it('rules "Hand-off refused": a 4xx is not retried, the draft is removed, the organizer mailed, and one retry hands it off once fixed', async () => {
    const fest5 = shop.coupons.find((c) => c.code === 'fest5') as WooCoupon;
    const { orderId, sessionId } = await pay(1, {
      code: 'FEST5',
      discountType: 'fixed_cart',
      discount: 5,
    });
    // Used up in the shop meanwhile: WooCommerce refuses the order and leaves a draft.
    fest5.usage_limit = 1;
    fest5.usage_count = 1;
    await waitFor(async () => (await handoffJob(orderId)).done_at !== null, 10_000);

    const job = await handoffJob(orderId);
    expect(job.failed_at).not.toBeNull();
    expect(job.last_error).toContain('Usage limit for coupon "fest5" has been reached.');
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ status: 'paid', catalog_order_id: null });
    expect(order.handoff_error).toBe(USED_UP);
    // No pile of drafts: the one WooCommerce left was deleted (DELETE …?force=true).
    expect(shop.drafts).toHaveLength(0);
    expect(
      shop.requests.filter((r) => r.method === 'DELETE' && /\/orders\/\d+$/.test(r.path)),
    ).toHaveLength(1);
    // No retry loop: one POST, however long one waits.
    await new Promise((r) => setTimeout(r, 500));
    expect(
      shop.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/orders')),
    ).toHaveLength(1);
    // The organizer is told, with the reason and the retry command.
    await waitFor(async () => {
      const mails = await store()
        .selectFrom('mails')
        .selectAll()
        .where('to_address', '=', ORGANIZER)
        .execute();
      return mails.length === 1;
    });
    const mail = await store()
      .selectFrom('mails')
      .selectAll()
      .where('to_address', '=', ORGANIZER)
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe(`Übergabe fehlgeschlagen: Bestellung ${orderId}`);
    expect(mail.text).toContain('has been reached');
    expect(mail.text).toContain(`npm run handoff:retry -- ${orderId}`);
    // The success page's summary still shows a paid order.
    const summary = await inject(app, { method: 'GET', url: `/api/checkout/session/${sessionId}` });
    expect(summary.statusCode).toBe(200);
    expect(summary.json().status).toBe('paid');

    // /webhook-test lists it as "Übergabe fehlgeschlagen" with WooCommerce's message.
    const listed = await inject(app, { method: 'GET', url: '/api/checkout/handoffs/refused' });
    expect(listed.json().orders).toEqual([
      expect.objectContaining({
        orderId,
        state: 'Übergabe fehlgeschlagen',
        reason: USED_UP,
      }),
    ]);
    // Its button (test mode) asks for the retry; the cause not fixed, the shop refuses again.
    const again = await inject(app, {
      method: 'POST',
      url: `/api/checkout/handoffs/${orderId}/retry`,
    });
    expect(again.statusCode).toBe(202);
    await waitFor(async () => (await orderRow(orderId)).handoff_error !== null, 10_000);
    await waitFor(async () => (await handoffJob(orderId)).failed_at !== null, 10_000);
    expect(shop.drafts).toHaveLength(0);

    // The cause fixed, one command hands it off (`npm run handoff:retry -- <order>`).
    fest5.usage_limit = null;
    const printed: string[] = [];
    const cli = (id: string) =>
      handoffRetryCli([id], { DATABASE_URL: db.url }, (l) => printed.push(l));
    expect(await cli('ord_gibtesnicht')).toBe(1);
    expect(await cli(orderId)).toBe(0);
    expect(printed.at(-1)).toContain('wird wiederholt');
    await waitFor(async () => (await orderRow(orderId)).status === 'handedOff', 10_000);
    expect(shopOrder(orderId)?.status).toBe('processing');
    expect((await orderRow(orderId)).handoff_error).toBeNull();
    expect((await handoffJob(orderId)).failed_at).toBeNull();
    // Nothing left to retry.
    expect(await cli(orderId)).toBe(1);
    expect((await app.get(OrderService).retryHandOff(orderId))?.retried).toBe(false);
  });

  it('rules "Hand-off refused": the organizer\'s dashboard lists it with WooCommerce\'s message and hands it off again with one action', async () => {
    const fest5 = shop.coupons.find((c) => c.code === 'fest5') as WooCoupon;
    const { orderId } = await pay(1, { code: 'FEST5', discountType: 'fixed_cart', discount: 5 });
    fest5.usage_limit = 1;
    fest5.usage_count = 1;
    await waitFor(async () => (await orderRow(orderId)).handoff_error !== null, 10_000);

    const organizer = (method: 'GET' | 'POST', url: string, cookie?: string) =>
      inject(app, {
        method,
        url,
        headers: { origin: PUBLIC_URL, ...(cookie ? { cookie } : {}) },
      });
    // Only behind the sign-in.
    expect((await organizer('GET', '/api/organizer/handoffs')).statusCode).toBe(401);
    const signIn = await inject(app, {
      method: 'POST',
      url: '/api/organizer/session',
      headers: { origin: PUBLIC_URL, 'x-forwarded-for': freshIp() },
      payload: { code: ORGANIZER_CODE },
    });
    expect(signIn.statusCode).toBe(204);
    const cookie = signIn.headers['set-cookie']!.split(';')[0]!;

    const listed = await organizer('GET', '/api/organizer/handoffs', cookie);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({
      orders: [
        {
          orderId,
          reason: USED_UP,
          at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ],
    });
    // Unknown or malformed orders: a German 404, nothing retried.
    for (const id of ['ord_gibtesnicht', 'x'.repeat(81), '%20']) {
      const res = await organizer('POST', `/api/organizer/handoffs/${id}/retry`, cookie);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toMatch(/keine fehlgeschlagene Übergabe/);
    }

    // The cause fixed in the shop, one action hands it off.
    fest5.usage_limit = null;
    const retried = await organizer('POST', `/api/organizer/handoffs/${orderId}/retry`, cookie);
    expect(retried.statusCode).toBe(202);
    await waitFor(async () => (await orderRow(orderId)).status === 'handedOff', 10_000);
    expect(shopOrder(orderId)?.status).toBe('processing');
    expect((await organizer('GET', '/api/organizer/handoffs', cookie)).json()).toEqual({
      orders: [],
    });
    // Nothing left to retry.
    expect(
      (await organizer('POST', `/api/organizer/handoffs/${orderId}/retry`, cookie)).statusCode,
    ).toBe(404);
  });

  it('rules "Hand-off refused": a 5xx keeps retrying with backoff', async () => {
    shop.failNext(2, 503, '/wp-json/wc/v3/orders', false, 'POST');
    const { orderId } = await pay(1);
    await waitFor(async () => (await orderRow(orderId)).status === 'handedOff', 15_000);
    expect((await handoffJob(orderId)).failed_at).toBeNull();
  });

  it('rules "Refunds reach the shop": a full refund on the test provider becomes the shop\'s refund with restock, once', async () => {
    const { orderId, sessionId, paymentPage } = await pay(2);
    await waitFor(async () => (await orderRow(orderId)).status === 'handedOff', 10_000);
    const product = shop.products.find((p) => p.id === EVENT)!;
    const stockAfterSale = product.stock_quantity;
    const refund = await inject(app, { method: 'POST', url: `${paymentPage}/refund` });
    expect(refund.statusCode).toBe(303);
    await waitFor(() => shopOrder(orderId)?.status === 'refunded', 10_000);
    const wooId = Number((await orderRow(orderId)).catalog_order_id);
    const refunds = shop.refundsOf(wooId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: '58.00', refunded_payment: false });
    expect(product.stock_quantity).toBe(Number(stockAfterSale) + 2);
    const post = shop.requests.find((r) => r.method === 'POST' && r.path.endsWith('/refunds'));
    expect(post?.body).toMatchObject({
      api_refund: false,
      restock_items: true,
      line_items: [expect.objectContaining({ quantity: 2, refund_total: '58.00' })],
    });
    expect((await orderRow(orderId)).status).toBe('refunded');
    void sessionId;
    // The job again (its lease ran out mid-way, say): the shop's refunds add up already.
    await store()
      .updateTable('jobs')
      .set({ done_at: null, next_attempt_at: Date.now() })
      .where('name', '=', 'shop-refund')
      .execute();
    await waitFor(async () =>
      (
        await store()
          .selectFrom('jobs')
          .select('done_at')
          .where('name', '=', 'shop-refund')
          .execute()
      ).every((j) => j.done_at !== null),
    );
    expect(shop.refundsOf(wooId)).toHaveLength(1);
  });
});
