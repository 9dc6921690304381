import { couponTerms } from '@awhh/machines';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DemoCatalogAdapter } from '../../src/catalog/adapters/demo-catalog.adapter.js';
import {
  TEST_MODE_META_KEY,
  WooCommerceCatalogAdapter,
} from '../../src/catalog/adapters/woocommerce-catalog.adapter.js';
import type { OrderHandOff } from '../../src/catalog/catalog.port.js';
import { splitName } from '../../src/orders/buyer-details.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import { FakeStripe } from '../../../tests/support/fake-stripe.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  API_DATABASES,
  deliver,
  FakeCatalog,
  inject,
  line,
  postCheckout,
  PUBLIC_URL,
  resetStore,
  settleOutbox,
  signedDelivery,
  waitFor,
  STRIPE_KEY,
} from '../support/checkout-test-app.js';

jest.setTimeout(60_000);

const TEST_TITLE = 'Testzahlung (Testmodus – kein echtes Geld)';
const STRIPE_TITLE = 'Kreditkarte (Stripe Checkout)';

/** WooCommerce keeps coupon codes lower-case (fixtures/woocommerce-11 README). */
function withLowerCaseCoupon(catalog: FakeCatalog): FakeCatalog {
  catalog.coupons.push(couponTerms({ code: 'hafen20', discountType: 'fixed_cart', amount: 5 }));
  return catalog;
}

/**
 * A tiny stand-in for WooCommerce's order route: no earlier order with the reference, and
 * the POSTed order is kept as sent and answered the way WooCommerce 11 answers (201, id).
 */
class OrderRecorder {
  readonly posted: Record<string, unknown>[] = [];
  private server: Server | null = null;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = (req.url ?? '').split('?')[0];
        res.setHeader('content-type', 'application/json; charset=UTF-8');
        if (path !== '/wp-json/wc/v3/orders') {
          res.writeHead(404).end('{"code":"rest_no_route","data":{"status":404}}');
        } else if (req.method === 'GET') {
          res.writeHead(200).end('[]');
        } else {
          const order = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          this.posted.push(order);
          // As WooCommerce: the order's total is its lines' totals.
          const total = (order.line_items as { total: string }[])
            .reduce((sum, line) => sum + Number(line.total), 0)
            .toFixed(2);
          res.writeHead(201).end(JSON.stringify({ ...order, id: 46, status: 'processing', total }));
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  adapter(): WooCommerceCatalogAdapter {
    const { port } = this.server!.address() as AddressInfo;
    return new WooCommerceCatalogAdapter(
      { url: `http://127.0.0.1:${port}`, key: 'ck_test', secret: 'cs_test' },
      { retries: 0 },
    );
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

describe('splitting the full name into WooCommerce billing fields', () => {
  it.each([
    ['Karla Kundin', 'Karla', 'Kundin'],
    ['  Anna   Maria  von Berg ', 'Anna Maria von', 'Berg'],
    ['Cher', 'Cher', ''],
    ['Jörg Müller-Lüdenscheidt', 'Jörg', 'Müller-Lüdenscheidt'],
  ])('%j → first %j, last %j', (full, firstName, lastName) => {
    expect(splitName(full)).toEqual({ firstName, lastName });
  });
});

describe.each(API_DATABASES)('buyer details reach the order and WooCommerce (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication | null = null;
  let woo: OrderRecorder;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    woo = await new OrderRecorder().start();
  });
  afterAll(async () => {
    await woo.stop();
    await db.drop();
  });
  afterEach(async () => {
    if (app) await settleOutbox(app);
    await app?.close();
    app = null;
  });

  async function storedOrder(target: NestFastifyApplication, sessionId: string) {
    return target
      .get(StoreDatabase)
      .db.selectFrom('orders')
      .selectAll()
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
  }

  async function summary(target: NestFastifyApplication, sessionId: string) {
    return (
      await inject(target, { method: 'GET', url: `/api/checkout/session/${sessionId}` })
    ).json();
  }

  /** What WooCommerce receives for this hand-off (the adapter against the tiny server). */
  async function wooOrderFor(handOff: OrderHandOff) {
    const before = woo.posted.length;
    await woo.adapter().createOrder(handOff);
    expect(woo.posted).toHaveLength(before + 1);
    return woo.posted[before]!;
  }

  describe('the test provider page', () => {
    let catalog: FakeCatalog;

    beforeEach(async () => {
      catalog = withLowerCaseCoupon(new FakeCatalog());
      app = await createTestApp({ databaseUrl: db.url, catalog });
      await resetStore(app);
    });

    async function openPage(extra: Record<string, unknown> = {}) {
      const res = await postCheckout(app!, checkoutBody([line(101, 25, 2)], extra));
      expect(res.statusCode).toBe(201);
      const { id, url } = res.json() as { id: string; url: string };
      return { id, path: new URL(url).pathname };
    }

    it('asks for e-mail and full name with labels, like Stripe Checkout', async () => {
      const { path } = await openPage({ email: 'vorab@example.org' });
      const page = await inject(app!, { method: 'GET', url: path });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<html lang="de">');
      expect(page.body).toContain('<label for="email">E-Mail-Adresse</label>');
      expect(page.body).toContain('<label for="name">Vollständiger Name</label>');
      expect(page.body).toMatch(
        /<input id="email" name="email" type="email" autocomplete="email" required[^>]*value="vorab@example.org"/,
      );
      expect(page.body).toMatch(
        /<input id="name" name="name" type="text" autocomplete="name" required[^>]*value=""/,
      );
      // Cancelling needs no details: the browser's checks are skipped for that button.
      expect(page.body).toMatch(
        /<button class="cancel" type="submit" formaction="[^"]+\/cancel" formnovalidate>/,
      );
      expect(page.body).not.toMatch(/<script/i);
    });

    it.each([
      ['nothing at all', { headers: { 'content-type': 'text/plain' }, payload: '' }, true, true],
      ['a blank name', buyerForm({ email: 'gast@example.org', name: '   ' }), false, true],
      ['no name field', buyerForm({ email: 'gast@example.org' }), false, true],
      [
        'an invalid e-mail',
        buyerForm({ email: 'karla(at)example', name: 'Karla Kundin' }),
        true,
        false,
      ],
      ['a name of one letter', buyerForm({ email: 'gast@example.org', name: 'K' }), false, true],
    ])(
      'refuses %s with a German message and keeps what was typed',
      async (_, form, badEmail, badName) => {
        const { id, path } = await openPage();
        const res = await inject(app!, { method: 'POST', url: `${path}/pay`, ...form });
        expect(res.statusCode).toBe(422);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.body).toContain('role="alert"');
        expect(res.body.includes('Bitte gib eine gültige E-Mail-Adresse ein.')).toBe(badEmail);
        expect(res.body.includes('Bitte gib deinen vollständigen Namen ein.')).toBe(badName);
        if (badEmail)
          expect(res.body).toMatch(
            /<input id="email"[^>]*aria-invalid="true" aria-describedby="email-fehler"/,
          );
        if (badName)
          expect(res.body).toMatch(
            /<input id="name"[^>]*aria-invalid="true" aria-describedby="name-fehler"/,
          );
        const sent = new URLSearchParams(form.payload);
        for (const field of ['email', 'name']) {
          const value = sent.get(field);
          if (value) expect(res.body).toContain(`value="${value}"`);
        }
        // Nothing happened: still open, still payable, no event, no hand-off.
        expect((await summary(app!, id)).status).toBe('open');
        const events = (
          await inject(app!, { method: 'GET', url: '/api/checkout/webhook/events' })
        ).json();
        expect(events.events).toEqual([]);
        expect(catalog.createOrderCalls).toBe(0);
        const retry = await inject(app!, { method: 'POST', url: `${path}/pay`, ...buyerForm() });
        expect(retry.statusCode).toBe(303);
      },
    );

    it('shows a refused name again escaped, never as markup', async () => {
      const { path } = await openPage();
      const res = await inject(app!, {
        method: 'POST',
        url: `${path}/pay`,
        ...buyerForm({ email: 'kein-mail', name: '"><script>alert(1)</script>' }),
      });
      expect(res.statusCode).toBe(422);
      expect(res.body).not.toMatch(/<script/i);
      expect(res.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    });

    it('a paid test order keeps name and e-mail; WooCommerce gets billing, the typed coupon in its own spelling and the test-mode marks', async () => {
      // No address given at the checkout: the page's is the order's (one given there stays
      // fixed, rules "Coupons", see coupon-holds.spec.ts).
      const { id, path } = await openPage({
        coupon: { code: 'Hafen20', discountType: 'fixed_cart', discount: 5 },
      });
      const page = await inject(app!, { method: 'GET', url: path });
      expect(page.body).toContain('Gutschein Hafen20');

      const paid = await inject(app!, {
        method: 'POST',
        url: `${path}/pay`,
        ...buyerForm({ email: ' karla@example.org ', name: ' Karla   Kundin ' }),
      });
      expect(paid.statusCode).toBe(303);
      expect(paid.headers.location).toBe(`${PUBLIC_URL}/success?session_id=${id}`);

      const row = await storedOrder(app!, id);
      expect(row).toMatchObject({
        // Paid, or already handed off by the outbox (rules "The order's life").
        status: expect.stringMatching(/^(paid|handedOff)$/),
        email: 'karla@example.org',
        buyer_name: 'Karla Kundin',
        coupon_code: 'hafen20',
        coupon_entered: 'Hafen20',
      });
      await waitFor(() => catalog.orders.size === 1);
      const handOff = [...catalog.orders.values()][0]!.order;
      expect(handOff).toMatchObject({
        email: 'karla@example.org',
        buyer: { firstName: 'Karla', lastName: 'Kundin' },
        payment: { method: 'awhh-test', title: TEST_TITLE, testMode: true },
        couponCode: 'hafen20',
        total: 4500,
      });
      await waitFor(async () => (await summary(app!, id)).orderNumber === '1000');
      expect(await summary(app!, id)).toMatchObject({
        status: 'paid',
        couponCode: 'Hafen20',
        email: 'karla@example.org',
        discount: 500,
      });

      const sent = await wooOrderFor(handOff);
      expect(sent).toMatchObject({
        set_paid: true,
        payment_method: 'awhh-test',
        payment_method_title: TEST_TITLE,
        billing: { first_name: 'Karla', last_name: 'Kundin', email: 'karla@example.org' },
        coupon_lines: [{ code: 'hafen20' }],
      });
      expect(sent.meta_data).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ key: TEST_MODE_META_KEY }),
          { key: 'awhh_reference', value: handOff.reference },
        ]),
      );
    });

    it('a one-word name is a first name only', async () => {
      const { path } = await openPage();
      await inject(app!, {
        method: 'POST',
        url: `${path}/pay`,
        ...buyerForm({ email: 'cher@example.org', name: 'Cher' }),
      });
      await waitFor(() => catalog.orders.size === 1);
      const handOff = [...catalog.orders.values()][0]!.order;
      expect(handOff.buyer).toEqual({ firstName: 'Cher', lastName: '' });
      const sent = await wooOrderFor(handOff);
      expect(sent.billing).toEqual({ first_name: 'Cher', email: 'cher@example.org' });
    });

    it('a free order in test mode is marked too, without a name nobody gave', async () => {
      catalog.coupons.push({
        ...catalog.coupons.find((c) => c.code === 'GRATIS')!,
        code: 'gratis100',
      });
      const res = await postCheckout(
        app!,
        checkoutBody([line(101, 25)], {
          coupon: { code: 'Gratis100', discountType: 'percent', discount: 100 },
        }),
      );
      expect(res.statusCode).toBe(201);
      await waitFor(() => catalog.orders.size === 1);
      const handOff = [...catalog.orders.values()][0]!.order;
      expect(handOff.payment).toMatchObject({ testMode: true, title: TEST_TITLE });
      expect(handOff.buyer).toBeUndefined();
      expect(handOff.couponCode).toBe('gratis100');
      expect((await summary(app!, res.json().id)).couponCode).toBe('Gratis100');
    });
  });

  it('the demo catalog records the buyer and the test-mode payment', async () => {
    const demo = new DemoCatalogAdapter();
    const item = (await demo.listProducts()).find(
      (p) => p.type !== 'variable' && p.price !== undefined && p.stock_quantity !== 0,
    )!;
    app = await createTestApp({ databaseUrl: db.url, catalog: demo });
    await resetStore(app);
    const res = await postCheckout(app, checkoutBody([line(item.id, item.price!, 1, item.name)]));
    expect(res.statusCode).toBe(201);
    const paid = await inject(app, {
      method: 'POST',
      url: `${new URL(res.json().url).pathname}/pay`,
      ...buyerForm({ email: 'anna@example.org', name: 'Anna Maria von Berg' }),
    });
    expect(paid.statusCode).toBe(303);
    await waitFor(() => demo.recordedOrders().length === 1);
    expect(demo.recordedOrders()[0]!.order).toMatchObject({
      email: 'anna@example.org',
      buyer: { firstName: 'Anna Maria von', lastName: 'Berg' },
      payment: { title: TEST_TITLE, testMode: true },
    });
  });

  describe('Stripe Checkout', () => {
    let stripe: FakeStripe;
    let catalog: FakeCatalog;

    beforeAll(async () => {
      stripe = await FakeStripe.start({ secretKey: STRIPE_KEY });
    });
    afterAll(async () => {
      await stripe.stop();
    });
    beforeEach(async () => {
      stripe.requests.length = 0;
      catalog = withLowerCaseCoupon(new FakeCatalog());
      app = await createTestApp({ databaseUrl: db.url, catalog, stripeApiBase: stripe.url });
      await resetStore(app);
    });

    it('asks Stripe for a required name and shows the coupon as typed', async () => {
      const res = await postCheckout(
        app!,
        checkoutBody([line(101, 25, 2)], {
          coupon: { code: 'HAFEN20', discountType: 'fixed_cart', discount: 5 },
        }),
      );
      expect(res.statusCode).toBe(201);
      const [session] = stripe.requestsTo('/v1/checkout/sessions');
      expect(session!.form).toMatchObject({
        'name_collection[individual][enabled]': 'true',
        'name_collection[individual][optional]': 'false',
      });
      expect(session!.form).not.toHaveProperty('billing_address_collection');
      expect(stripe.requestsTo('/v1/coupons')[0]!.form.name).toBe('HAFEN20');
    });

    it('checkout.session.completed with customer_details: name and e-mail reach the order and WooCommerce', async () => {
      const res = await postCheckout(
        app!,
        checkoutBody([line(101, 25, 2)], {
          coupon: { code: 'Hafen20', discountType: 'fixed_cart', discount: 5 },
        }),
      );
      const sessionId: string = res.json().id;
      const { id: orderId } = await storedOrder(app!, sessionId);
      const delivered = await deliver(
        app!,
        signedDelivery({
          id: 'evt_buyer',
          type: 'checkout.session.completed',
          object: {
            id: sessionId,
            metadata: { order_id: orderId },
            payment_status: 'paid',
            payment_intent: 'pi_buyer',
            customer_details: {
              email: 'karla@example.org',
              name: 'K KUNDIN',
              individual_name: 'Karla Kundin',
            },
          },
        }),
      );
      expect(delivered.json().outcome).toBe('paid');
      expect(await storedOrder(app!, sessionId)).toMatchObject({
        email: 'karla@example.org',
        buyer_name: 'Karla Kundin',
      });
      await waitFor(() => catalog.orders.size === 1);
      const handOff = catalog.orders.get(orderId)!.order;
      expect(handOff).toMatchObject({
        email: 'karla@example.org',
        buyer: { firstName: 'Karla', lastName: 'Kundin' },
        payment: { method: 'stripe', title: STRIPE_TITLE, testMode: false },
        couponCode: 'hafen20',
        paymentReference: 'pi_buyer',
      });
      expect((await summary(app!, sessionId)).couponCode).toBe('Hafen20');

      const sent = await wooOrderFor(handOff);
      expect(sent).toMatchObject({
        payment_method: 'stripe',
        payment_method_title: STRIPE_TITLE,
        transaction_id: 'pi_buyer',
        billing: { first_name: 'Karla', last_name: 'Kundin', email: 'karla@example.org' },
        coupon_lines: [{ code: 'hafen20' }],
      });
      expect(JSON.stringify(sent.meta_data)).not.toContain(TEST_MODE_META_KEY);
    });

    it('takes the billing name when a session carries no individual name', async () => {
      const res = await postCheckout(app!, checkoutBody([line(102, 12.5)]));
      const sessionId: string = res.json().id;
      const { id: orderId } = await storedOrder(app!, sessionId);
      await deliver(
        app!,
        signedDelivery({
          id: 'evt_billing_name',
          type: 'checkout.session.completed',
          object: {
            id: sessionId,
            metadata: { order_id: orderId },
            payment_status: 'paid',
            payment_intent: 'pi_billing',
            customer_details: {
              email: 'ole@example.org',
              name: 'Ole Hansen',
              individual_name: null,
            },
          },
        }),
      );
      await waitFor(() => catalog.orders.size === 1);
      expect(catalog.orders.get(orderId)!.order.buyer).toEqual({
        firstName: 'Ole',
        lastName: 'Hansen',
      });
    });
  });
});
