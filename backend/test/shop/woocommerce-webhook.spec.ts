import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { orderSummarySchema } from '@awhh/machines';
import { StoreDatabase } from '../../src/store/store.database.js';
import { FakeStripe } from '../../../tests/support/fake-stripe.js';
import {
  RECORDED_WEBHOOK_SECRET,
  WEBHOOK_RECORDINGS as REC,
  type WooWebhookRecording,
  wooDelivery,
} from '../../../tests/support/woocommerce-webhooks.js';
import {
  checkoutBody,
  createTestApp,
  createTestDatabase,
  API_DATABASES,
  deliver,
  FakeCatalog,
  fastOptions,
  freshIp,
  inject,
  line,
  postCheckout,
  resetStore,
  signedDelivery,
  STRIPE_KEY,
  waitFor,
} from '../support/checkout-test-app.js';

jest.setTimeout(60_000);

const CODE = 'EHK4-DS2N-3JKH-GS42';
const SHOP_ENV = {
  WOOCOMMERCE_URL: 'https://shop.afterwork-hamburg.example',
  WOOCOMMERCE_KEY: 'ck_test',
  WOOCOMMERCE_SECRET: 'cs_test',
  WOOCOMMERCE_WEBHOOK_SECRET: RECORDED_WEBHOOK_SECRET,
};

/** Sends a delivery as WooCommerce does: its headers and its raw body, byte for byte. */
function send(app: NestFastifyApplication, delivery: WooWebhookRecording) {
  return inject(app, {
    method: 'POST',
    url: '/api/webhooks/woocommerce',
    headers: Object.fromEntries(
      Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v]),
    ),
    payload: delivery.rawBody,
  });
}

describe.each(API_DATABASES)('rules "WooCommerce webhooks" (%s)', (kind) => {
  let app: NestFastifyApplication;
  let catalog: FakeCatalog;
  let stripe: FakeStripe;
  let db: { url: string; drop(): Promise<void> };

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    stripe = await FakeStripe.start({ secretKey: STRIPE_KEY });
  });
  afterAll(async () => {
    await stripe.stop();
    await db.drop();
  });
  beforeEach(async () => {
    catalog = new FakeCatalog();
    app = await createTestApp({
      databaseUrl: db.url,
      catalog,
      stripeApiBase: stripe.url,
      options: fastOptions(),
      env: { CHECKIN_CODE: CODE, ...SHOP_ENV },
    });
    const store = app.get(StoreDatabase).db;
    await store.deleteFrom('checkin_scans').execute();
    await store.deleteFrom('checkins').execute();
    await resetStore(app);
  });
  afterEach(async () => {
    await app.close();
  });

  it('answers the unsigned ping WooCommerce sends on creation', async () => {
    const res = await send(app, REC.ping);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, outcome: 'ping' });
  });

  it('accepts the recorded deliveries as signed; refuses a wrong or missing signature with 401', async () => {
    const ok = await send(app, REC.productUpdatedVariationStock);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().outcome).toBe('catalog_changed');
    expect((await send(app, REC.couponUpdated)).json().outcome).toBe('catalog_changed');

    const wrong = await send(app, wooDelivery(REC.couponUpdated, { secret: 'whsec_other' }));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'Die Signatur dieses Webhook-Aufrufs fehlt oder ist ungültig.',
    });
    const { ['X-WC-Webhook-Signature']: _dropped, ...unsigned } = REC.couponUpdated.headers;
    const missing = await send(app, { ...REC.couponUpdated, headers: unsigned });
    expect(missing.statusCode).toBe(401);
    // A body changed after signing (re-serialised JSON) fails too.
    const reserialised = JSON.stringify(JSON.parse(REC.couponUpdated.rawBody));
    const changed = await send(app, { ...REC.couponUpdated, rawBody: reserialised });
    expect(changed.statusCode).toBe(401);
  });

  it('applies a delivery once; two deliveries sharing a delivery id are both applied', async () => {
    expect((await send(app, REC.orderUpdatedCancelled)).json().outcome).toBe('unknown_order');
    expect((await send(app, REC.orderUpdatedCancelled)).json().outcome).toBe('duplicate');
    // Recorded: WooCommerce gave the refund of order 32 the same delivery id.
    expect((await send(app, REC.orderUpdatedRefunded)).json().outcome).toBe('unknown_order');
  });

  it('rules "Test pages": /webhook-test lists the shop\'s deliveries apart from the payment provider\'s', async () => {
    await send(app, REC.ping);
    await send(app, REC.productUpdatedVariationStock);
    await send(app, REC.orderUpdatedCancelled);
    // A product delivery sent again is applied once too.
    expect((await send(app, REC.productUpdatedVariationStock)).json().outcome).toBe('duplicate');
    await deliver(
      app,
      signedDelivery({
        id: 'evt_expired_list',
        type: 'checkout.session.expired',
        object: { id: 'cs_unknown_list' },
      }),
    );

    const shop = await inject(app, { method: 'GET', url: '/api/webhooks/woocommerce/events' });
    expect(shop.statusCode).toBe(200);
    const events = shop.json().events as { type: string; receivedAt: string; outcome: string }[];
    expect(events.map((e) => [e.type, e.outcome]).sort()).toEqual([
      ['order.updated', 'unknown_order'],
      ['product.updated', 'catalog_changed'],
    ]);
    // Topic, time and outcome only: never a body, an address or an id.
    expect(Object.keys(events[0]!).sort()).toEqual(['outcome', 'receivedAt', 'type']);
    expect(new Date(events[0]!.receivedAt).getTime()).toBeGreaterThan(0);

    const payments = await inject(app, { method: 'GET', url: '/api/checkout/webhook/events' });
    expect((payments.json().events as { type: string }[]).map((e) => e.type)).toEqual([
      'checkout.session.expired',
    ]);
  });

  /** Two seats of event 101, paid through Stripe and handed off; our order id and the shop's. */
  async function handedOffOrder() {
    const res = await postCheckout(app, checkoutBody([line(101, 25, 2)]));
    expect(res.statusCode).toBe(201);
    const sessionId: string = res.json().id;
    const paid = await deliver(
      app,
      signedDelivery({
        id: 'evt_paid_shop',
        type: 'checkout.session.completed',
        object: {
          id: sessionId,
          payment_status: 'paid',
          payment_intent: 'pi_shop_1',
          customer_details: { email: 'gast@example.org', individual_name: 'Gast Muster' },
        },
      }),
    );
    expect(paid.json().outcome).toBe('paid');
    await waitFor(() => catalog.orders.size === 1);
    const [reference, handOff] = [...catalog.orders.entries()][0]!;
    await waitFor(async () => {
      const summary = await inject(app, {
        method: 'GET',
        url: `/api/checkout/session/${sessionId}`,
      });
      return summary.json().status === 'paid';
    });
    return { sessionId, reference, shopId: handOff.id };
  }

  async function ticketsOf(sessionId: string) {
    const res = await inject(app, { method: 'GET', url: `/api/checkout/session/${sessionId}` });
    return orderSummarySchema.parse(res.json()).tickets.map((t) => t.token);
  }

  /** What the ticket page and the door say about each ticket. */
  async function ticketStatuses(tokens: string[]) {
    const page = await Promise.all(
      tokens.map(
        async (token) =>
          (await inject(app, { method: 'GET', url: `/api/tickets/${token}` })).json()
            .status as string,
      ),
    );
    const door = await inject(app, {
      method: 'POST',
      url: '/api/checkin/scans',
      headers: { authorization: `Bearer ${CODE}`, 'x-forwarded-for': freshIp() },
      payload: {
        scans: tokens.map((token, i) => ({
          scanId: `scan-${Date.now()}-${i}`,
          token,
          scannedAt: Date.now(),
          device: 'Tür 1',
        })),
      },
    });
    return { page, door: (door.json().results as { status: string }[]).map((r) => r.status) };
  }

  it('rules "Cancelled in the shop": our order cancelled in WooCommerce revokes its tickets, once', async () => {
    const { sessionId, reference } = await handedOffOrder();
    const tokens = await ticketsOf(sessionId);
    expect(tokens).toHaveLength(2);
    const cancelled = wooDelivery(REC.orderUpdatedCancelledSiteOrder, {
      replace: [['ord_KVYsKjn5baxCO-5JG31DCg', reference]],
    });
    expect((await send(app, cancelled)).json().outcome).toBe('canceled');
    expect(await ticketStatuses(tokens)).toEqual({
      page: ['revoked', 'revoked'],
      door: ['revoked', 'revoked'],
    });
    // Sent again (a redelivery), or a later change of the cancelled order: nothing more.
    expect((await send(app, cancelled)).json().outcome).toBe('duplicate');
    const later = wooDelivery(REC.orderUpdatedCancelledSiteOrder, {
      replace: [
        ['ord_KVYsKjn5baxCO-5JG31DCg', reference],
        ['01:37:23', '01:38:00'],
      ],
    });
    expect((await send(app, later)).json().outcome).toBe('unchanged');
  });

  it('the body decides, not the topic: order.created already saying refunded cancels; processing changes nothing', async () => {
    const { sessionId, shopId } = await handedOffOrder();
    const tokens = await ticketsOf(sessionId);
    // Recorded for order 32; here it names our order by WooCommerce's id alone.
    const strip = (r: WooWebhookRecording) =>
      wooDelivery(r, {
        replace: [
          ['"id":32,', `"id":${shopId},`],
          ['capture-ref-1', 'elsewhere'],
        ],
      });
    expect((await send(app, strip(REC.orderCreatedProcessing))).json().outcome).toBe('ignored');
    expect((await ticketStatuses(tokens)).page).toEqual(['valid', 'valid']);
    const refundedAsCreated = wooDelivery(REC.orderCreatedProcessing, {
      replace: [
        ['"id":32,', `"id":${shopId},`],
        ['capture-ref-1', 'elsewhere'],
        ['"status":"processing"', '"status":"refunded"'],
      ],
    });
    expect((await send(app, refundedAsCreated)).json().outcome).toBe('canceled');
    expect((await ticketStatuses(tokens)).page).toEqual(['revoked', 'revoked']);
  });
});

describe('without WOOCOMMERCE_WEBHOOK_SECRET', () => {
  it('the endpoint is closed: 503 in German', async () => {
    const db = await createTestDatabase('sqlite');
    const app = await createTestApp({ databaseUrl: db.url, catalog: new FakeCatalog() });
    try {
      const res = await send(app, REC.couponUpdated);
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe('Webhooks von WooCommerce sind hier nicht eingerichtet.');
    } finally {
      await app.close();
      await db.drop();
    }
  });
});
