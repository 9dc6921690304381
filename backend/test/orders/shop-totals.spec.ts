import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import {
  recordedShop,
  wooCoupon,
  type WooCoupon,
  type WooOrder,
} from '../../../tests/support/woocommerce-fixtures.js';
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

// rules "Coupons": the order WooCommerce stores after the hand-off has the total that was
// charged, whatever the coupon. The fake WooCommerce spreads a coupon as the recorded shop
// does (backend/test/products/fake-woocommerce-coupons.spec.ts), from the line subtotals
// the hand-off sends; a hand-off whose lines disagreed with the checkout would show here.

/** The recorded shop's products (tests/support/woocommerce-11): euros as the shop sells them. */
const SPEICHERSTADT = { id: 15, price: 29 };
const JAZZ = { id: 21, price: 22 };
const SUNDOWNER = { id: 18, price: 19.5 };
const MUG = { id: 26, price: 15 };
const TOTE = { id: 25, price: 12 };
const VIP = { id: 42, variationId: 45, price: 49 };
const SHIRT_L = { id: 28, variationId: 30, price: 27 };

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

const cents = (euros: unknown) => Math.round(Number(euros) * 100);

describe.each(API_DATABASES)('the shop stores the total that was charged (%s)', (kind) => {
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
    shop.coupons.push(
      wooCoupon('PROZENT15', { amount: '15.00', discount_type: 'percent' }),
      wooCoupon('ZEHNWEG', { amount: '10.00', discount_type: 'fixed_cart' }),
      wooCoupon('DREIJE', { amount: '3.00', discount_type: 'fixed_product' }),
      wooCoupon('NURVIP', { amount: '50.00', discount_type: 'percent', product_ids: [45] }),
      wooCoupon('GANZFREI', { amount: '100.00', discount_type: 'percent', product_ids: [15] }),
      wooCoupon('RIESIG', { amount: '500.00', discount_type: 'fixed_cart' }),
      wooCoupon('ALLEIN', { amount: '5.00', discount_type: 'percent', individual_use: true }),
    );
    const catalog = shopCatalog(shop);
    app = await createTestApp({ databaseUrl: db.url, catalog });
    await resetStore(app);
  });
  afterEach(async () => {
    await app.close();
    await shop.stop();
  });

  const store = () => app.get(StoreDatabase).db;
  const shopOrder = (reference: string): WooOrder | undefined =>
    shop.orders.find((o) =>
      o.meta_data.some((m) => m.key === 'awhh_reference' && m.value === reference),
    );

  /** Checks out with the coupon and pays on the test provider (a free order is paid at once). */
  async function checkout(lines: ReturnType<typeof item>[], code: string) {
    const coupon = { code, discountType: 'percent', discount: 0 };
    const res = await postCheckout(app, checkoutBody(lines, { coupon }));
    expect(res.statusCode).toBe(201);
    const { id: sessionId, url } = res.json();
    const order = await store()
      .selectFrom('orders')
      .selectAll()
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    return {
      order,
      pay: async () => {
        const paid = await inject(app, {
          method: 'POST',
          url: `${new URL(url).pathname}/pay`,
          ...buyerForm(),
        });
        expect(paid.statusCode).toBe(303);
      },
    };
  }

  async function handedOff(orderId: string): Promise<WooOrder> {
    await waitFor(async () => {
      const row = await store()
        .selectFrom('orders')
        .select('status')
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow();
      return row.status === 'handedOff';
    }, 10_000);
    return shopOrder(orderId)!;
  }

  async function expectShopTotal(lines: ReturnType<typeof item>[], code: string) {
    const { order, pay } = await checkout(lines, code);
    if (order.total > 0) await pay();
    const woo = await handedOff(order.id);
    expect(order.discount).toBeGreaterThan(0);
    expect(cents(woo.total)).toBe(order.total);
    expect(cents(woo.discount_total)).toBe(order.discount);
    // Each line as the checkout priced it: its subtotal and its share of the discount.
    const stored = await store()
      .selectFrom('order_lines')
      .selectAll()
      .where('order_id', '=', order.id)
      .orderBy('position')
      .execute();
    expect(woo.line_items.map((l) => [cents(l.subtotal), cents(l.total)])).toEqual(
      stored.map((l) => [l.unit_amount * l.quantity, l.unit_amount * l.quantity - l.discount]),
    );
    return { order, woo };
  }

  it('rules "Coupons": percent, floored per line with the missing cent added', async () => {
    const { order } = await expectShopTotal([item(SUNDOWNER, 3), item(SHIRT_L, 1)], 'PROZENT15');
    // 15 % of 85.50 € is 12.825 €: WooCommerce's 12.83 €, not 12.82 €.
    expect(order.discount).toBe(1283);
  });

  it('rules "Coupons": fixed_cart spread evenly per unit, the rest cent by cent', async () => {
    const { order } = await expectShopTotal([item(SUNDOWNER, 3), item(TOTE, 4)], 'ZEHNWEG');
    expect(order.discount).toBe(1000);
  });

  it('rules "Coupons": fixed_product per unit', async () => {
    const { order } = await expectShopTotal([item(JAZZ, 2), item(MUG, 1)], 'DREIJE');
    expect(order.discount).toBe(900);
  });

  it('rules "Coupons": a VIP-only coupon on VIP and a T-shirt discounts the VIP line alone', async () => {
    const { woo } = await expectShopTotal([item(VIP, 1), item(SHIRT_L, 1)], 'NURVIP');
    expect(woo.line_items.map((l) => l.total)).toEqual(['24.50', '27.00']);
  });

  it('rules "Coupons": 100 % on one item leaves the other line as it was', async () => {
    const { woo, order } = await expectShopTotal(
      [item(SPEICHERSTADT, 1), item(TOTE, 1)],
      'GANZFREI',
    );
    expect(order.total).toBe(1200);
    expect(woo.line_items.map((l) => l.total)).toEqual(['0.00', '12.00']);
  });

  it('rules "Deliberate deviations": a coupon larger than the order clamps the total at 0 in the shop too', async () => {
    const { order, woo } = await expectShopTotal([item(JAZZ, 1), item(MUG, 1)], 'RIESIG');
    expect(order.total).toBe(0);
    expect(woo.total).toBe('0.00');
  });

  it('rules "Coupons": a price changed in the shop after the checkout does not change the order the shop stores', async () => {
    const { order, pay } = await checkout([item(SUNDOWNER, 2), item(MUG, 1)], 'PROZENT15');
    // The organizer raises the price while the buyer is on the payment page.
    shop.products.find((p) => p.id === SUNDOWNER.id)!.price = '24.00';
    await pay();
    const woo = await handedOff(order.id);
    expect(woo.line_items[0]).toMatchObject({ subtotal: '39.00' });
    expect(cents(woo.total)).toBe(order.total);
  });

  it('rules "Coupons": a coupon changed in the shop after the checkout: the lines are set to what was charged', async () => {
    const { order, pay } = await checkout([item(SUNDOWNER, 2), item(MUG, 1)], 'PROZENT15');
    (shop.coupons.find((c) => c.code === 'prozent15') as WooCoupon).amount = '25.00';
    await pay();
    const woo = await handedOff(order.id);
    await waitFor(() => cents(woo.total) === order.total, 5_000);
    expect(cents(woo.discount_total)).toBe(order.discount);
    // The coupon stays on the order, its use counted.
    expect(woo.coupon_lines.map((c) => c.code)).toEqual(['prozent15']);
    expect(shop.coupons.find((c) => c.code === 'prozent15')?.usage_count).toBe(1);
  });

  it('rules "Coupons": one coupon per order, so individual_use holds though WooCommerce\'s REST API would apply two', async () => {
    // A list where the one coupon goes is refused with a German message.
    const list = await postCheckout(
      app,
      checkoutBody([item(SPEICHERSTADT, 1)], {
        coupon: [
          { code: 'ALLEIN', discountType: 'percent', discount: 5 },
          { code: 'PROZENT15', discountType: 'percent', discount: 15 },
        ],
      }),
    );
    expect(list.statusCode).toBe(400);
    expect(list.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(list.json().message).toMatch(/[äöüß]|Bitte|Gutschein|ungültig/i);
    // A second coupon beside the first is no field of the checkout: only the first counts.
    const res = await postCheckout(
      app,
      checkoutBody([item(SPEICHERSTADT, 1)], {
        coupon: { code: 'ALLEIN', discountType: 'percent', discount: 5 },
        coupons: [{ code: 'PROZENT15', discountType: 'percent', discount: 15 }],
      }),
    );
    expect(res.statusCode).toBe(201);
    const order = await store()
      .selectFrom('orders')
      .selectAll()
      .where('session_id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ coupon_code: 'allein', discount: 145, total: 2755 });
    const paid = await inject(app, {
      method: 'POST',
      url: `${new URL(res.json().url).pathname}/pay`,
      ...buyerForm(),
    });
    expect(paid.statusCode).toBe(303);
    const woo = await handedOff(order.id);
    expect(woo.coupon_lines.map((c) => c.code)).toEqual(['allein']);
    expect(cents(woo.total)).toBe(2755);
  });
});
