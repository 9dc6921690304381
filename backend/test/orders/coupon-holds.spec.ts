import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  COUPON_USED_BY_EMAIL_MESSAGE,
  COUPON_USED_UP_MESSAGE,
  COUPON_WRONG_EMAIL_MESSAGE,
} from '@awhh/machines';
import { FakeStripe } from '../../../tests/support/fake-stripe.js';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import {
  recordedShop,
  type WooCoupon,
  type WooOrder,
} from '../../../tests/support/woocommerce-fixtures.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  DATABASES,
  fastOptions,
  inject,
  line,
  postCheckout,
  resetStore,
  STRIPE_KEY,
  waitFor,
} from '../support/checkout-test-app.js';
import { shopCatalog } from '../support/shop-catalog.js';

jest.setTimeout(120_000);

// rules "Coupons": an open checkout holds one use of its coupon (and one of its buyer's, for
// a per-buyer limit) from its creation until the shop has counted the paid order, or until
// it is canceled or lapses; checkouts at the same time never use a coupon more often than
// WooCommerce allows (docs/decisions/0013-coupon-uses-are-held.md). Against the fake
// WooCommerce answering like the recorded shop, on SQLite and PostgreSQL.

/** The recorded EINMALIG: 15 %, `usage_limit` 1 and `usage_limit_per_user` 1, unused. */
function recordedCoupon(name: string): WooCoupon {
  const path = join(
    __dirname,
    '../../../tests/support/woocommerce-11',
    `coupons.code-${name}.json`,
  );
  const recording = JSON.parse(readFileSync(path, 'utf8')) as { body: WooCoupon[] };
  return recording.body[0]!;
}

/** The recorded shop's "Winterzauber After Work": 32 €, 200 places (seats are not the limit here). */
const EVENT = 20;
const PRICE = 32;

const einmalig = { code: 'EINMALIG', discountType: 'percent', discount: 15 };

describe.each(DATABASES)('rules "Coupons": coupon uses are held (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let shop: FakeWooCommerce;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.drop();
  });

  async function start(options = fastOptions()) {
    const data = recordedShop();
    const once = recordedCoupon('EINMALIG');
    // The same coupon without the overall limit: one use per buyer only.
    const perBuyer = { ...once, id: 9101, code: 'jeeinmal', usage_limit: null };
    shop = await FakeWooCommerce.start({ ...data, coupons: [...data.coupons, once, perBuyer] });
    const catalog = shopCatalog(shop);
    // Both sides in one process: the cart's check (products) and the checkout.
    app = await createTestApp({ databaseUrl: db.url, catalog, options, env: { MODULES: 'all' } });
    await resetStore(app);
  }
  afterEach(async () => {
    await app?.close();
    await shop?.stop();
  });

  const store = () => app.get(StoreDatabase).db;
  const checkout = (coupon: object | null, email?: string) =>
    postCheckout(
      app,
      checkoutBody([line(EVENT, PRICE, 1)], { coupon, ...(email ? { email } : {}) }),
    );
  const ordersWith = (code: string) =>
    store().selectFrom('orders').selectAll().where('coupon_code', '=', code).execute();
  const validate = (code: string) =>
    inject(app, { method: 'POST', url: '/api/coupons/validate', payload: { code } });
  const shopOrdersWith = (code: string) =>
    shop.orders.filter((o: WooOrder) =>
      o.coupon_lines.some((c) => (c as { code?: string }).code === code),
    );

  /** 30 visitors order with the coupon at once, each from its own address. */
  async function thirtyAtOnce() {
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => checkout(einmalig, `gast${i}@example.org`)),
    );
    const created = responses.filter((r) => r.statusCode === 201);
    const refused = responses.filter((r) => r.statusCode !== 201);
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(29);
    for (const r of refused) {
      expect(r.statusCode).toBe(422);
      expect(r.json()).toEqual({
        statusCode: 422,
        error: 'Unprocessable Entity',
        message: COUPON_USED_UP_MESSAGE,
      });
    }
    // Nothing of the refused ones was written: one order, one coupon use, one seat.
    expect(await ordersWith('einmalig')).toHaveLength(1);
    expect(await store().selectFrom('orders').select('id').execute()).toHaveLength(1);
    const uses = await store().selectFrom('coupon_holds').selectAll().execute();
    expect(uses).toHaveLength(1);
    expect(uses[0]).toMatchObject({ code: 'einmalig', released: 0 });
    // The buyer's key, never the address.
    expect(uses[0]!.holder).toMatch(/^[\w-]{32}$/);
    expect(JSON.stringify(uses)).not.toContain('@');
    expect(await store().selectFrom('holds').select('id').execute()).toHaveLength(1);
    const { id: sessionId, url } = created[0]!.json() as { id: string; url: string };
    return { sessionId, paymentPage: new URL(url).pathname };
  }

  it('30 checkouts at once with a coupon of usage_limit 1: one open order carries it, the cart hears so, one paid order after paying', async () => {
    await start();
    const { sessionId, paymentPage } = await thirtyAtOnce();
    const [open] = await ordersWith('einmalig');
    expect(open).toMatchObject({ session_id: sessionId, status: 'open', discount: 480 });

    // A second visitor's cart is told early: the last use is held.
    const early = await validate('einmalig');
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe(COUPON_USED_UP_MESSAGE);

    const paid = await inject(app, { method: 'POST', url: `${paymentPage}/pay`, ...buyerForm() });
    expect(paid.statusCode).toBe(303);
    await waitFor(async () => (await ordersWith('einmalig'))[0]!.status === 'handedOff', 10_000);
    const orders = await ordersWith('einmalig');
    expect(orders).toHaveLength(1);
    expect(orders[0]!.paid_at).not.toBeNull();
    // The shop counted it (usage_count, used_by) with the one order that carries it.
    expect(shopOrdersWith('einmalig')).toHaveLength(1);
    const counted = shop.coupons.find((c) => c.code === 'einmalig')!;
    expect(counted.usage_count).toBe(1);
    // The address given at the checkout, fixed on the payment page (the form posted another).
    expect(orders[0]!.email).toMatch(/^gast\d+@example\.org$/);
    expect(counted.used_by).toEqual([orders[0]!.email]);

    // Used up for good now: the shop's count refuses it, before and after the hold settled.
    const after = await checkout(einmalig, 'spaeter@example.org');
    expect(after.statusCode).toBe(422);
    expect(after.json().message).toBe(COUPON_USED_UP_MESSAGE);
    expect(await ordersWith('einmalig')).toHaveLength(1);
    expect(shop.drafts).toHaveLength(0);
  });

  it('once the checkout holding it is canceled, the next one can use it', async () => {
    await start();
    const { paymentPage } = await thirtyAtOnce();
    expect((await checkout(einmalig, 'wartend@example.org')).statusCode).toBe(422);
    const canceled = await inject(app, { method: 'POST', url: `${paymentPage}/cancel` });
    expect(canceled.statusCode).toBe(303);
    expect((await validate('EINMALIG')).statusCode).toBe(200);
    const next = await checkout(einmalig, 'wartend@example.org');
    expect(next.statusCode).toBe(201);
    // "Abbrechen" ends the session as Stripe's expiry does.
    const statuses = (await ordersWith('einmalig')).map((o) => o.status).sort();
    expect(statuses).toEqual(['expired', 'open']);
  });

  it('once the checkout holding it lapses, the next one can use it', async () => {
    await start(fastOptions({ reconcileIntervalMs: 0 }));
    await thirtyAtOnce();
    expect((await checkout(einmalig, 'wartend@example.org')).statusCode).toBe(422);
    // The payment session ran out (moved into the past rather than waited for, so a slow
    // machine cannot run it out early); its expiry event need not have arrived.
    const past = Date.now() - 1;
    for (const table of ['orders', 'holds', 'coupon_holds'] as const) {
      await store().updateTable(table).set({ expires_at: past }).execute();
    }
    const next = await checkout(einmalig, 'wartend@example.org');
    expect(next.statusCode).toBe(201);
    expect(await ordersWith('einmalig')).toHaveLength(2);
  });

  it('usage_limit_per_user 1: of two open checkouts with one address only one gets it; another address does', async () => {
    await start();
    const jeeinmal = { code: 'JeEinmal', discountType: 'percent', discount: 15 };
    const [first, second] = await Promise.all([
      checkout(jeeinmal, 'karla@example.org'),
      checkout(jeeinmal, 'Karla@Example.org '),
    ]);
    const statuses = [first!.statusCode, second!.statusCode].sort();
    expect(statuses).toEqual([201, 422]);
    const refused = [first!, second!].find((r) => r.statusCode === 422)!;
    expect(refused.json()).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: COUPON_USED_BY_EMAIL_MESSAGE,
      needsEmail: true,
    });
    expect(await ordersWith('jeeinmal')).toHaveLength(1);
    expect(await store().selectFrom('coupon_holds').select('id').execute()).toHaveLength(1);

    const other = await checkout(jeeinmal, 'otto@example.org');
    expect(other.statusCode).toBe(201);
    expect(await ordersWith('jeeinmal')).toHaveLength(2);
    // The per-buyer limit needs an address: without one the checkout asks for it.
    const without = await checkout(jeeinmal);
    expect(without.statusCode).toBe(422);
    expect(without.json().needsEmail).toBe(true);
  });
});

describe('rules "Coupons": the payment page takes the address the coupon was checked for', () => {
  let db: { url: string; drop(): Promise<void> };
  let shop: FakeWooCommerce;
  let stripe: FakeStripe;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    stripe = await FakeStripe.start({ secretKey: STRIPE_KEY });
  });
  afterAll(async () => {
    await stripe.stop();
    await db.drop();
  });
  afterEach(async () => {
    await app?.close();
    await shop?.stop();
  });

  async function start(stripeApiBase?: string) {
    const data = recordedShop();
    shop = await FakeWooCommerce.start({
      ...data,
      coupons: [...data.coupons, recordedCoupon('NURKARLA')],
    });
    const catalog = shopCatalog(shop);
    app = await createTestApp({ databaseUrl: db.url, catalog, stripeApiBase });
    await resetStore(app);
  }

  const nurkarla = { code: 'NURKARLA', discountType: 'fixed_cart', discount: 10 };
  const checkout = (email?: string) =>
    postCheckout(
      app,
      checkoutBody([line(EVENT, PRICE, 1)], { coupon: nurkarla, ...(email ? { email } : {}) }),
    );

  it('Stripe: the session is opened with customer_email, so Stripe shows it fixed', async () => {
    await start(stripe.url);
    const wrong = await checkout('otto@example.org');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ message: COUPON_WRONG_EMAIL_MESSAGE, needsEmail: true });
    expect(stripe.requestsTo('/v1/checkout/sessions')).toHaveLength(0);

    const res = await checkout('karla@example.org');
    expect(res.statusCode).toBe(201);
    const [session] = stripe.requestsTo('/v1/checkout/sessions');
    expect(session!.form['customer_email']).toBe('karla@example.org');
  });

  it('the test provider shows the address fixed and keeps it whatever the form posts', async () => {
    await start();
    const res = await checkout('karla@example.org');
    expect(res.statusCode).toBe(201);
    const { id, url } = res.json() as { id: string; url: string };
    const path = new URL(url).pathname;
    const page = await inject(app, { method: 'GET', url: path });
    expect(page.body).toMatch(
      /<input id="email" name="email" type="email"[^>]*value="karla@example.org" readonly aria-describedby="email-hinweis">/,
    );
    expect(page.body).toContain(
      'Diese Adresse hast du bei der Bestellung angegeben; sie lässt sich hier nicht ändern.',
    );
    // The name still asks to be typed.
    expect(page.body).toMatch(/<input id="name"[^>]*value=""(?! readonly)/);

    const paid = await inject(app, {
      method: 'POST',
      url: `${path}/pay`,
      ...buyerForm({ email: 'otto@example.org', name: 'Otto Normal' }),
    });
    expect(paid.statusCode).toBe(303);
    await waitFor(async () => {
      const row = await app
        .get(StoreDatabase)
        .db.selectFrom('orders')
        .selectAll()
        .where('session_id', '=', id)
        .executeTakeFirstOrThrow();
      return row.status === 'handedOff';
    }, 10_000);
    const [order] = shop.orders.filter((o) =>
      o.coupon_lines.some((c) => (c as { code?: string }).code === 'nurkarla'),
    );
    expect(order!.billing).toMatchObject({ email: 'karla@example.org', first_name: 'Otto' });
    expect(shop.drafts).toHaveLength(0);
  });
});
