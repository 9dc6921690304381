import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import { organizerNoticesSchema, type OrganizerNotices } from '@awhh/machines';
import {
  recordedShop,
  type WooOrder,
  WP_APP_PASSWORDS,
} from '../../../tests/support/woocommerce-fixtures.js';
import { shopVerifyCli } from '../../src/shop-verify.cli.js';
import { ShopVerification } from '../../src/shop/shop-verification.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  DATABASES,
  freshIp,
  inject,
  organizerSignIn,
  PUBLIC_URL,
  postCheckout,
  settleOutbox,
  waitFor,
} from '../support/checkout-test-app.js';
import { shopCatalog } from '../support/shop-catalog.js';

jest.setTimeout(180_000);

// docs/ledger.md, against the one fake WooCommerce answering and sending webhooks as the
// recorded shop does: a half-made order is never taken for the sale, a sale counts once
// (the evening's last place is on sale the moment the previous one is counted), a line
// refunded in the shop revokes its ticket, and an order refunded or trashed in the shop
// puts its places back into the shop's stock, once; what it cannot settle alone (places
// to restock by hand, a refunded guest already let in) is told to the organizer.

const SECRET = 'whsec_shop_ledger_suite';
/** The recorded shop's variable event and its VIP tier (49 €). */
const EVENT = 42;
const VIP = 45;
/** Generous: a loaded machine runs the job runner's polls late, never wrong. */
const DEADLINE = 30_000;
const DOOR_CODE = 'JFWZ-APMB-F8MN-68XF';

describe.each(DATABASES)('docs/ledger.md: the site and the shop agree (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let shop: FakeWooCommerce;
  let app: NestFastifyApplication;

  async function start(topics: string[], env: Record<string, string> = {}) {
    db = await createTestDatabase(kind);
    shop = await FakeWooCommerce.start(recordedShop());
    app = await createTestApp({
      databaseUrl: db.url,
      catalog: shopCatalog(shop),
      env: { ...shop.env, WOOCOMMERCE_WEBHOOK_SECRET: SECRET, ...env },
    });
    const deliveryUrl = `${await app.getUrl()}/api/webhooks/woocommerce`;
    for (const topic of topics) await shop.addWebhook({ topic, deliveryUrl, secret: SECRET });
  }

  afterEach(async () => {
    await app?.close();
    await shop?.stop();
    await db?.drop();
  });

  const store = () => app.get(StoreDatabase).db;
  const vip = () => shop.variations.find((v) => v.id === VIP)!;
  const vipLine = (quantity: number) => ({
    name: 'Sommer-Afterwork – VIP',
    amount: Number(vip().price),
    quantity,
    currency: 'eur',
    images: [],
    productId: EVENT,
    variationId: VIP,
  });

  /** A checkout of VIP places; its answer (201 with the session, or the refusal). */
  const checkout = (quantity: number) =>
    postCheckout(app, checkoutBody([vipLine(quantity) as never]));

  /** Bought and paid on the test provider's page; returns the site's order id. */
  async function buy(quantity: number, email = 'karla@example.org'): Promise<string> {
    const res = await checkout(quantity);
    expect(res.statusCode).toBe(201);
    const { id: sessionId, url } = res.json();
    const paid = await inject(app, {
      method: 'POST',
      url: `${new URL(url).pathname}/pay`,
      ...buyerForm({ email, name: 'Karla Kundin' }),
    });
    expect(paid.statusCode).toBe(303);
    const order = await store()
      .selectFrom('orders')
      .select('id')
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    return order.id;
  }

  const orderRow = (id: string) =>
    store().selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  async function handedOff(orderId: string): Promise<WooOrder> {
    await waitFor(async () => (await orderRow(orderId)).catalog_order_id !== null, DEADLINE);
    const id = Number((await orderRow(orderId)).catalog_order_id);
    return shop.orders.find((o) => o.id === id)!;
  }

  const ticketsOf = (orderId: string) =>
    store()
      .selectFrom('tickets')
      .select(['id', 'status', 'seat'])
      .where('order_id', '=', orderId)
      .orderBy('seat')
      .execute();

  const mailsTo = (address: string) =>
    store().selectFrom('mails').selectAll().where('to_address', '=', address).execute();

  /** Signed in to /veranstalter as the shop's manager; returns the session cookie. */
  const organizerCookie = () =>
    organizerSignIn(app, {
      username: 'hanna.hafen',
      applicationPassword: WP_APP_PASSWORDS.shopManager,
    });

  async function notices(cookie: string): Promise<OrganizerNotices['notices']> {
    const res = await inject(app, {
      method: 'GET',
      url: '/api/organizer/notices',
      headers: { cookie, 'x-forwarded-for': freshIp() },
    });
    expect(res.statusCode).toBe(200);
    return organizerNoticesSchema.parse(res.json()).notices;
  }

  /** The evening is on and the door lets every guest of the order in; returns the tickets. */
  async function letEveryoneIn(orderId: string) {
    await store()
      .updateTable('tickets')
      .set({
        starts_at: new Date(Date.now() + 3_600_000).toISOString(),
        issued_at: Date.now() - 60_000,
      })
      .where('order_id', '=', orderId)
      .execute();
    const tickets = await store()
      .selectFrom('tickets')
      .select(['id', 'code', 'seat'])
      .where('order_id', '=', orderId)
      .orderBy('seat')
      .execute();
    for (const ticket of tickets) {
      const scanned = await inject(app, {
        method: 'POST',
        url: '/api/checkin/scans',
        headers: { authorization: `Bearer ${DOOR_CODE}`, 'x-forwarded-for': freshIp() },
        payload: {
          scans: [
            {
              scanId: `scan-ledger-${ticket.seat}`,
              code: ticket.code,
              eventId: EVENT,
              scannedAt: Date.now(),
              device: 'Tür 1',
            },
          ],
        },
      });
      expect(scanned.json().results[0].status).toBe('ok');
    }
    return tickets;
  }

  const shopOrdersOf = (reference: string) =>
    shop.orders.filter((o) =>
      o.meta_data.some((m) => m.key === 'awhh_reference' && m.value === reference),
    );

  it("a hand-off whose first attempt left a half-made order (stored, then 500) ends with the shop's order complete and paid; the empty one is removed, never marked handed off", async () => {
    await start([]);
    const before = vip().stock_quantity!;
    shop.storeOrderThenFail(1);
    const orderId = await buy(1);
    const order = await handedOff(orderId);
    expect(order).toMatchObject({ status: 'processing', total: '49.00' });
    expect(order.line_items).toEqual([
      expect.objectContaining({ product_id: EVENT, variation_id: VIP, quantity: 1 }),
    ]);
    // One order under the reference: the half-made one is gone, not kept beside it.
    expect(shopOrdersOf(orderId)).toHaveLength(1);
    expect(vip().stock_quantity).toBe(before - 1);
    expect((await orderRow(orderId)).handoff_error).toBeNull();
  });

  it('a half-made order that cannot be repaired is a refused hand-off with a German reason, never taken for the sale', async () => {
    await start([]);
    shop.storeOrderThenFail(1);
    const orderId = await buy(1);
    // Somebody fills the half-made order by hand in the shop with something else.
    await waitFor(() => shopOrdersOf(orderId).length === 1, DEADLINE);
    const [shell] = shopOrdersOf(orderId);
    shell!.status = 'on-hold';
    shell!.line_items = [
      {
        id: 9001,
        product_id: EVENT,
        variation_id: 44,
        quantity: 3,
        total: '105.00',
        meta_data: [],
      },
    ] as never;
    await waitFor(async () => (await orderRow(orderId)).handoff_error !== null, DEADLINE);
    const row = await orderRow(orderId);
    expect(row.catalog_order_id).toBeNull();
    expect(row.handoff_error).toContain('weichen von den bezahlten ab');
  });

  it.each([
    ['without', []],
    ['with', ['product.updated']],
  ])(
    'a tier with 2 places, one sold: the last one is on sale the moment the sale is counted, %s a product.updated delivery',
    async (_with, topics) => {
      await start(topics);
      vip().stock_quantity = 2;
      const first = await buy(1);
      await handedOff(first);
      await shop.settleWebhooks();
      expect(vip().stock_quantity).toBe(1);
      // At once: the sale is in the shop's stock and no longer in a hold as well.
      const availability = await inject(app, {
        method: 'GET',
        url: `/api/waitlist/availability/${EVENT}`,
      });
      expect(availability.json().variants).toContainEqual({ id: VIP, free: 1 });
      const last = await checkout(1);
      expect(last.statusCode).toBe(201);
      // And never twice: with the last place held, nothing is left.
      expect((await checkout(1)).statusCode).toBe(409);
    },
  );

  it('a line refunded in the shop revokes one of its two tickets ("Storniert") and mails its holder; its place is back in the shop', async () => {
    await start(['order.updated']);
    const orderId = await buy(2, 'paula@example.org');
    const order = await handedOff(orderId);
    await shop.settleWebhooks();
    const stock = vip().stock_quantity!;
    const line = order.line_items[0]!;
    shop.refundLines(order.id, [{ id: Number(line.id), quantity: 1, refundTotal: 49 }]);
    await shop.settleWebhooks();
    await waitFor(
      async () => (await ticketsOf(orderId)).some((t) => t.status === 'revoked'),
      DEADLINE,
    );
    const tickets = await ticketsOf(orderId);
    // The later seat goes; the other still admits.
    expect(tickets.map((t) => t.status)).toEqual(['valid', 'revoked']);
    expect(vip().stock_quantity).toBe(stock + 1);
    await waitFor(
      async () =>
        (await mailsTo('paula@example.org')).some((m) => m.subject.startsWith('Ticket storniert')),
      DEADLINE,
    );
    // The same refund reported again (the sweep, a redelivery) revokes nothing more.
    shop.setOrderStatus(order.id, 'completed');
    await shop.settleWebhooks();
    expect((await ticketsOf(orderId)).map((t) => t.status)).toEqual(['valid', 'revoked']);
  });

  it.each([
    ['set to "Erstattet"', (s: FakeWooCommerce, id: number) => s.setOrderStatus(id, 'refunded')],
    ['moved to the trash', (s: FakeWooCommerce, id: number) => s.trashOrder(id)],
  ])(
    'an order %s in the shop: its tickets are revoked and its places are back on sale, once',
    async (_how, change) => {
      await start(['order.updated', 'order.deleted']);
      const orderId = await buy(2, 'otto@example.org');
      const order = await handedOff(orderId);
      await shop.settleWebhooks();
      const stock = vip().stock_quantity!;
      change(shop, order.id);
      await shop.settleWebhooks();
      await waitFor(async () => vip().stock_quantity === stock + 2, DEADLINE);
      expect((await ticketsOf(orderId)).map((t) => t.status)).toEqual(['revoked', 'revoked']);
      // WooCommerce's own bookkeeping shows nothing is kept out any more: a second run
      // (a redelivery, the sweep) puts nothing back twice.
      const restocks = shop
        .refundsOf(order.id)
        .filter((r) => (r.meta_data as { key: string }[]).some((m) => m.key === 'awhh_restock'));
      expect(restocks).toHaveLength(1);
      // One mail to the buyer for both tickets (rules "When a ticket stops admitting").
      await waitFor(
        async () =>
          (await mailsTo('otto@example.org')).filter((m) => m.subject.startsWith('Storniert:'))
            .length === 1,
        DEADLINE,
      );
      expect(vip().stock_quantity).toBe(stock + 2);
    },
  );

  it('ledger "Told to the organizer": with SHOP_RESTOCK=off an order set to "Erstattet" keeps its places out of stock, and the organizer is told which, on the dashboard and by mail, once', async () => {
    await start(['order.updated'], { SHOP_RESTOCK: 'off', ORGANIZER_EMAIL: 'hanna@example.org' });
    const orderId = await buy(2, 'otto@example.org');
    const order = await handedOff(orderId);
    await shop.settleWebhooks();
    const stock = vip().stock_quantity!;
    shop.setOrderStatus(order.id, 'refunded');
    await shop.settleWebhooks();
    await waitFor(
      async () => (await mailsTo('hanna@example.org')).some((m) => m.subject.includes('Bestand')),
      DEADLINE,
    );
    expect((await ticketsOf(orderId)).map((t) => t.status)).toEqual(['revoked', 'revoked']);
    expect(vip().stock_quantity).toBe(stock);
    const cookie = await organizerCookie();
    const [notice, ...more] = await notices(cookie);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({
      kind: 'placesNotRestocked',
      title: 'Plätze nicht zurück im Bestand',
    });
    const words = notice!.paragraphs.join(' ');
    expect(words).toContain(`Die Bestellung ${order.number} im Shop`);
    expect(words).toContain('2 × Sommer-Afterwork auf der MS Hamburg – VIP');
    const [mail] = await mailsTo('hanna@example.org');
    expect(mail!.subject).toBe('Plätze nicht zurück im Bestand');
    // No buyer's name or address reaches the organizer's notice.
    expect(JSON.stringify(notice)).not.toMatch(/otto|Karla/i);
    // Reported again (a redelivery, the sweep): nothing new.
    shop.setOrderStatus(order.id, 'refunded');
    await shop.settleWebhooks();
    await settleOutbox(app);
    expect(await notices(cookie)).toHaveLength(1);
    expect(await mailsTo('hanna@example.org')).toHaveLength(1);
    // "Erledigt" takes it off the list; a second time is a German 404; not without a session.
    const done = (id: string, headers: Record<string, string>) =>
      inject(app, {
        method: 'POST',
        url: `/api/organizer/notices/${id}/done`,
        headers: { origin: PUBLIC_URL, 'x-forwarded-for': freshIp(), ...headers },
        payload: {},
      });
    expect((await done(notice!.id, {})).statusCode).toBe(401);
    expect((await done(notice!.id, { cookie })).statusCode).toBe(204);
    expect(await notices(cookie)).toEqual([]);
    const again = await done(notice!.id, { cookie });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({
      statusCode: 404,
      message: expect.stringMatching(/Hinweis/),
    });
  });

  it('ledger "Told to the organizer": a line refunded in the shop whose guest was already let in revokes that ticket and tells the organizer', async () => {
    await start(['order.updated'], { CHECKIN_CODE: DOOR_CODE });
    const orderId = await buy(2, 'lena@example.org');
    const order = await handedOff(orderId);
    await shop.settleWebhooks();
    // Both guests are in: a refund of one unit can only take a checked-in ticket.
    const tickets = await letEveryoneIn(orderId);
    const line = order.line_items[0]!;
    shop.refundLines(order.id, [{ id: Number(line.id), quantity: 1, refundTotal: 49 }]);
    await shop.settleWebhooks();
    await waitFor(
      async () => (await ticketsOf(orderId)).some((t) => t.status === 'revoked'),
      DEADLINE,
    );
    // The later seat goes, as ever; the other guest keeps a valid ticket.
    expect((await ticketsOf(orderId)).map((t) => t.status)).toEqual(['valid', 'revoked']);
    const [notice, ...more] = await notices(await organizerCookie());
    expect(more).toEqual([]);
    expect(notice).toMatchObject({
      kind: 'checkedInRevoked',
      title: 'Erstattet, obwohl schon eingecheckt',
    });
    const code = `${tickets[1]!.code!.slice(0, 4)}-${tickets[1]!.code!.slice(4)}`;
    expect(notice!.paragraphs.join(' ')).toContain(`Ticket 2 von 2 (Code ${code})`);
  });

  it('ledger "Told to the organizer": an order cancelled in the shop after its guest was let in tells the organizer too', async () => {
    await start(['order.updated'], { CHECKIN_CODE: DOOR_CODE });
    const orderId = await buy(1, 'mira@example.org');
    const order = await handedOff(orderId);
    await shop.settleWebhooks();
    await letEveryoneIn(orderId);
    shop.setOrderStatus(order.id, 'cancelled');
    await shop.settleWebhooks();
    await waitFor(
      async () => (await ticketsOf(orderId)).every((t) => t.status === 'revoked'),
      DEADLINE,
    );
    const [notice, ...more] = await notices(await organizerCookie());
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ kind: 'checkedInRevoked' });
    expect(notice!.paragraphs.join(' ')).toContain('Ticket 1 von 1');
  });

  it('npm run shop:verify and the daily check: a cancellation in the shop whose news was lost is found, applied and reported; an order that agrees is not', async () => {
    await start([]);
    const kept = await buy(1, 'bleibt@example.org');
    const lost = await buy(1, 'weg@example.org');
    await handedOff(kept);
    const order = await handedOff(lost);
    // Cancelled in the shop; no webhook, no sweep has run since.
    shop.setOrderStatus(order.id, 'cancelled');
    const printed: string[] = [];
    const code = await shopVerifyCli({ DATABASE_URL: db.url, ...shop.env }, (line) =>
      printed.push(line),
    );
    expect(code).toBe(1);
    expect(printed.join('\n')).toContain(
      `${lost} (Shop #${order.id}): Die Bestellung #${order.id} steht im Shop auf „cancelled“`,
    );
    expect(printed.join('\n')).not.toContain(kept);
    const findings = await app.get(ShopVerification).run(Date.now());
    expect(findings).toEqual([
      expect.objectContaining({ orderId: lost, catalogOrderId: String(order.id), fixed: true }),
    ]);
    expect((await ticketsOf(lost)).map((t) => t.status)).toEqual(['revoked']);
    expect((await ticketsOf(kept)).map((t) => t.status)).toEqual(['valid']);
    expect(await app.get(ShopVerification).run(Date.now())).toEqual([]);
  });
});
