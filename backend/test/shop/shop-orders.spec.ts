import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ticketSchema } from '@awhh/machines';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import { recordedShop, type WooOrder } from '../../../tests/support/woocommerce-fixtures.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import { SHOP_ORDER_SWEEP_JOB } from '../../src/shop/shop-order-sweep.js';
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
  waitFor,
} from '../support/checkout-test-app.js';
import { shopCatalog } from '../support/shop-catalog.js';

jest.setTimeout(120_000);

// rules "Orders made in the shop", against the one fake WooCommerce answering and sending
// webhooks like the recorded shop: an order made in WooCommerce itself gets one ticket per
// seat, mailed to its billing address and listed at the door; cancelled, its tickets are
// revoked; a delivery twice, or a delivery and the sweep, never ticket twice; a webhook
// that never arrives is made good by the sweep.

const SECRET = 'whsec_shop_orders_suite';
const CODE = 'REFH-FMUB-CZRC-E3A8';
/** The recorded shop's variable event (15 January 2027): tiers 44 Regulär, 45 VIP. */
const EVENT = 42;
const VIP = 45;
const REGULAR = 44;
/** The T-shirt in M: merch, no ticket. */
const SHIRT = 28;
const SHIRT_M = 29;

describe.each(API_DATABASES)('rules "Orders made in the shop" (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let shop: FakeWooCommerce;
  let app: NestFastifyApplication;

  beforeEach(async () => {
    // A store of its own per test: the sweep's recurring job keeps its row from the start.
    db = await createTestDatabase(kind);
    shop = await FakeWooCommerce.start(recordedShop());
    app = await createTestApp({
      databaseUrl: db.url,
      catalog: shopCatalog(shop),
      env: { ...shop.env, WOOCOMMERCE_WEBHOOK_SECRET: SECRET, CHECKIN_CODE: CODE },
    });
    const deliveryUrl = `${await app.getUrl()}/api/webhooks/woocommerce`;
    for (const topic of ['order.created', 'order.updated', 'order.deleted']) {
      await shop.addWebhook({ topic, deliveryUrl, secret: SECRET });
    }
    // The first run, at start-up, has read the shop as it was.
    await waitFor(async () => (await sweepState())?.last_run_at != null, 10_000);
  });
  afterEach(async () => {
    await app.close();
    await shop.stop();
    await db.drop();
  });

  const store = () => app.get(StoreDatabase).db;
  const sweepState = () =>
    store()
      .selectFrom('shop_order_sweeps')
      .selectAll()
      .where('name', '=', SHOP_ORDER_SWEEP_JOB)
      .executeTakeFirst();

  /** The sweep's job made due now, as a process's runner would find it after 5 minutes. */
  async function runSweep(): Promise<void> {
    const before = Number((await sweepState())?.last_run_at ?? 0);
    await store()
      .updateTable('jobs')
      .set({ next_attempt_at: Date.now() })
      .where('name', '=', SHOP_ORDER_SWEEP_JOB)
      .execute();
    await waitFor(async () => Number((await sweepState())?.last_run_at ?? 0) > before, 10_000);
  }

  /** A phone sale entered in the admin: Karla, `seats` VIP seats of the event and a T-shirt. */
  function phoneSale(seats: number, extra: Record<string, unknown> = {}): WooOrder {
    return shop.placeOrder({
      status: 'processing',
      billing: { first_name: 'Karla', last_name: 'Kundin', email: 'karla@example.org' },
      line_items: [
        { product_id: EVENT, variation_id: VIP, quantity: seats },
        { product_id: SHIRT, variation_id: SHIRT_M, quantity: 1 },
      ],
      ...extra,
    });
  }

  const ticketsOf = (wooId: number) =>
    store()
      .selectFrom('tickets')
      .selectAll()
      .where('order_id', '=', `shop-${wooId}`)
      .orderBy('line_position')
      .orderBy('seat')
      .execute();

  const mailsTo = (address: string) =>
    store().selectFrom('mails').selectAll().where('to_address', '=', address).execute();

  /** The ticket pages' tokens, read from the ticket mail's links. */
  async function mailedTokens(address: string): Promise<string[]> {
    await waitFor(async () => (await mailsTo(address)).length > 0, 10_000);
    const [mail] = await mailsTo(address);
    return [...mail!.text.matchAll(/\/tickets\/([\w.-]+)/g)].map((m) => m[1]!);
  }

  async function ticketPage(token: string) {
    const res = await inject(app, { method: 'GET', url: `/api/tickets/${token}` });
    expect(res.statusCode).toBe(200);
    return ticketSchema.parse(res.json());
  }

  async function doorList() {
    const res = await inject(app, {
      method: 'GET',
      url: `/api/checkin/events/${EVENT}/tickets`,
      headers: { authorization: `Bearer ${CODE}`, 'x-forwarded-for': freshIp() },
    });
    expect(res.statusCode).toBe(200);
    return res.json().tickets as {
      holder: string | null;
      status: string;
      guestList?: boolean;
      seat: number;
    }[];
  }

  /** A recorded delivery sent again by hand, with a delivery id of its own when asked. */
  function redeliver(index: number, deliveryId?: string) {
    const delivery = shop.deliveries[index]!;
    const headers = Object.fromEntries(
      Object.entries(delivery.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
    if (deliveryId) headers['x-wc-webhook-delivery-id'] = deliveryId;
    return inject(app, {
      method: 'POST',
      url: '/api/webhooks/woocommerce',
      headers,
      payload: delivery.rawBody,
    });
  }

  it('rules "Orders made in the shop": a phone sale gets one ticket per seat, mailed and at the door, once for webhooks, redeliveries and the sweep', async () => {
    const order = phoneSale(2);
    await shop.settleWebhooks();
    expect(shop.deliveries.filter((d) => d.topic !== 'ping').map((d) => d.status)).toEqual([
      200, 200,
    ]);
    const tickets = await ticketsOf(order.id);
    // Two VIP seats; the T-shirt is merch.
    expect(tickets.map((t) => [t.event_id, t.seat, t.seats, t.tier, t.holder])).toEqual([
      [EVENT, 1, 2, 'VIP', 'Karla Kundin'],
      // rules "Named tickets": the buyer holds the first seat; the second waits for a name.
      [EVENT, 2, 2, 'VIP', null],
    ]);
    expect(tickets.every((t) => t.status === 'valid' && Number(t.guest_list) === 0)).toBe(true);

    // The ticket mail, once, to the billing address, with one PDF per seat.
    const tokens = await mailedTokens('karla@example.org');
    expect(new Set(tokens).size).toBe(2);
    const [mail] = await mailsTo('karla@example.org');
    expect(mail!.subject).toBe('Deine Tickets für „Sommer-Afterwork auf der MS Hamburg“');
    expect(mail!.text).toContain(`Bestellnummer: ${order.number as string}`);
    const attachments = await store()
      .selectFrom('mail_attachments')
      .select('content_type')
      .where('mail_id', '=', mail!.id)
      .execute();
    expect(attachments.filter((a) => a.content_type === 'application/pdf')).toHaveLength(2);

    const page = await ticketPage(tokens[0]!);
    expect(page).toMatchObject({
      status: 'valid',
      holder: 'Karla Kundin',
      orderNumber: String(order.number),
      guestList: false,
    });
    expect((await doorList()).map((t) => [t.holder, t.status, t.guestList ?? false])).toEqual([
      ['Karla Kundin', 'valid', false],
      [null, 'valid', false],
    ]);

    // The same delivery again: applied once. Sent anew under another delivery id (a
    // redelivery from the admin), or read by the sweep: no seat and no mail twice.
    const updated = shop.deliveries.findIndex((d) => d.topic === 'order.updated');
    expect((await redeliver(updated)).json().outcome).toBe('duplicate');
    expect((await redeliver(updated, 'f'.repeat(32))).json().outcome).toBe('unchanged');
    await runSweep();
    expect(await ticketsOf(order.id)).toHaveLength(2);
    await waitFor(async () =>
      (
        await store()
          .selectFrom('jobs')
          .select('done_at')
          .where('name', '=', 'ticket-mail')
          .execute()
      ).every((j) => j.done_at !== null),
    );
    expect(await mailsTo('karla@example.org')).toHaveLength(1);
  });

  it('rules "Orders made in the shop": an order of 0 € is a guest list, on the ticket, in the mail and at the door', async () => {
    const order = shop.placeOrder({
      status: 'processing',
      billing: { first_name: 'Gustav', last_name: 'Gast', email: 'gustav@example.org' },
      line_items: [
        { product_id: EVENT, variation_id: REGULAR, quantity: 1, subtotal: '0.00', total: '0.00' },
      ],
    });
    expect(order.total).toBe('0.00');
    await shop.settleWebhooks();
    const [token] = await mailedTokens('gustav@example.org');
    expect(await ticketPage(token!)).toMatchObject({ guestList: true, holder: 'Gustav Gast' });
    const [mail] = await mailsTo('gustav@example.org');
    expect(mail!.subject).toBe(
      'Gästeliste: Deine Tickets für „Sommer-Afterwork auf der MS Hamburg“',
    );
    expect(mail!.text).toContain('Gästeliste');
    expect(await doorList()).toEqual([
      expect.objectContaining({ holder: 'Gustav Gast', status: 'valid', guestList: true }),
    ]);
  });

  it('rules "Orders made in the shop": cancelled, refunded or deleted in the shop, its tickets are revoked; an older report changes nothing', async () => {
    const cancelled = phoneSale(1);
    const refunded = phoneSale(1, {
      billing: { first_name: 'Rita', last_name: 'Rück', email: 'rita@example.org' },
    });
    const deleted = phoneSale(1, {
      billing: { first_name: 'Dora', last_name: 'Del', email: 'dora@example.org' },
    });
    await shop.settleWebhooks();
    const [karla] = await mailedTokens('karla@example.org');
    const processingDelivery = shop.deliveries.findIndex(
      (d) => d.topic === 'order.updated' && d.rawBody.includes(`"id":${cancelled.id},`),
    );

    shop.setOrderStatus(cancelled.id, 'cancelled');
    shop.setOrderStatus(refunded.id, 'refunded');
    shop.trashOrder(deleted.id, true);
    await shop.settleWebhooks();
    // The site's restock of the refunded order (docs/ledger.md) may be delivered after it.
    expect(shop.deliveries.find((d) => d.topic === 'order.deleted')).toMatchObject({
      topic: 'order.deleted',
      rawBody: `{"id":${deleted.id}}`,
      status: 200,
    });
    for (const order of [cancelled, refunded, deleted]) {
      expect((await ticketsOf(order.id)).map((t) => t.status)).toEqual(['revoked']);
    }
    expect((await ticketPage(karla!)).status).toBe('revoked');
    expect((await doorList()).map((t) => t.status)).toEqual(['revoked', 'revoked', 'revoked']);

    // The processing report, sent again late under a delivery id of its own: older than
    // the cancellation, it brings nothing back.
    expect((await redeliver(processingDelivery, 'a'.repeat(32))).json().outcome).toBe('unchanged');
    expect((await ticketPage(karla!)).status).toBe('revoked');
  });

  it('rules "Orders made in the shop": a lost webhook is made good by the sweep, which reads every changed order', async () => {
    const order = phoneSale(1);
    await shop.settleWebhooks();
    const [token] = await mailedTokens('karla@example.org');

    // The shop changes the order; its webhook never arrives.
    shop.loseDeliveries(1);
    shop.setOrderStatus(order.id, 'cancelled');
    await shop.settleWebhooks();
    expect(shop.deliveries.at(-1)?.status).toBe('lost');
    expect((await ticketPage(token!)).status).toBe('valid');
    // An order made while no webhook arrives at all.
    shop.loseDeliveries(2);
    const unseen = phoneSale(3, {
      billing: { first_name: 'Ulla', last_name: 'Ungesehen', email: 'ulla@example.org' },
    });
    await shop.settleWebhooks();
    expect(await ticketsOf(unseen.id)).toHaveLength(0);

    shop.resetCalls();
    await runSweep();
    expect((await ticketPage(token!)).status).toBe('revoked');
    expect(await ticketsOf(unseen.id)).toHaveLength(3);
    expect(await mailedTokens('ulla@example.org')).toHaveLength(3);

    // Nothing read before (the shop's orders are older): the last 24 hours, and the trash.
    const asked = () =>
      shop.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/orders'));
    expect(
      asked()
        .map((r) => r.query.get('status') ?? 'any')
        .sort(),
    ).toEqual(['any', 'trash']);
    const since = Date.parse(asked()[0]!.query.get('modified_after')!);
    expect(Math.abs(Date.now() - 24 * 3600_000 - since)).toBeLessThan(60_000);
    expect(asked()[0]!.query.get('orderby')).toBe('modified');

    const state = await sweepState();
    expect(state).toMatchObject({ last_applied: 2, last_error: null });
    // /webhook-test: the sweep's last run and what it applied.
    const page = (
      await inject(app, { method: 'GET', url: '/api/webhooks/woocommerce/events' })
    ).json();
    expect(page.sweep).toMatchObject({ applied: 2, error: null });
    expect(new Date(page.sweep.lastRunAt).getTime()).toBeGreaterThan(0);
    expect(
      (page.events as { type: string; outcome: string }[])
        .filter((e) => e.type === 'sweep')
        .map((e) => e.outcome)
        .sort(),
    ).toEqual(['tickets_issued', 'tickets_revoked']);

    // More than a page of changes: every page is read.
    shop.loseDeliveries(Number.MAX_SAFE_INTEGER);
    const many = Array.from({ length: 101 }, (_, i) =>
      shop.placeOrder({
        status: 'pending',
        billing: { email: `gast${i}@example.org` },
        line_items: [{ product_id: EVENT, variation_id: REGULAR, quantity: 1 }],
      }),
    );
    await shop.settleWebhooks();
    const { high_water: highWater } = (await sweepState())!;
    expect(highWater).not.toBeNull();
    shop.resetCalls();
    await runSweep();
    // From the shop's latest change read before, less a minute.
    expect(asked()[0]!.query.get('modified_after')).toBe(
      new Date(Number(highWater) - 60_000).toISOString().replace('.000Z', 'Z'),
    );
    expect((await sweepState())?.last_read).toBeGreaterThanOrEqual(many.length);
    expect(
      shop.requests.filter((r) => r.path.endsWith('/orders') && r.query.get('page') === '2'),
    ).toHaveLength(1);
  });

  it('rules "Cancelled in the shop": an order of ours cancelled in the shop while its webhook is lost is cancelled by the sweep; never ticketed as a shop order', async () => {
    // The VIP tier at its sale price.
    const vip = { ...line(EVENT, 49, 1), variationId: VIP };
    const checkout = await postCheckout(app, checkoutBody([vip]));
    expect(checkout.statusCode).toBe(201);
    const { id: sessionId, url } = checkout.json();
    const paid = await inject(app, {
      method: 'POST',
      url: `${new URL(url).pathname}/pay`,
      ...buyerForm(),
    });
    expect(paid.statusCode).toBe(303);
    const row = () =>
      store()
        .selectFrom('orders')
        .selectAll()
        .where('session_id', '=', sessionId)
        .executeTakeFirstOrThrow();
    await waitFor(async () => (await row()).status === 'handedOff', 10_000);
    await shop.settleWebhooks();
    const wooId = Number((await row()).catalog_order_id);
    // Its own webhooks (created, updated) changed nothing: ours, not cancelled.
    expect(await ticketsOf(wooId)).toHaveLength(0);

    shop.loseDeliveries(1);
    shop.setOrderStatus(wooId, 'cancelled');
    await shop.settleWebhooks();
    expect((await row()).status).toBe('handedOff');
    await runSweep();
    expect((await row()).status).toBe('canceledInShop');
    const tickets = await store()
      .selectFrom('tickets')
      .select('status')
      .where('order_id', '=', (await row()).id)
      .execute();
    expect(tickets.map((t) => t.status)).toEqual(['revoked']);
    expect(await ticketsOf(wooId)).toHaveLength(0);
  });
});
