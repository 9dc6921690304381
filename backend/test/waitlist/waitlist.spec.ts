import { CatalogService } from '../../src/catalog/catalog.service.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  orderSummarySchema,
  waitlistConfirmationSchema,
  waitlistCountsSchema,
  waitlistOfferViewSchema,
} from '@awhh/machines';
import { OrderService } from '../../src/orders/order.service.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import { OrderRepository } from '../../src/orders/orders.port.js';
import {
  createTestApp,
  createTestDatabase,
  DATABASES,
  type FakeCatalog,
  fastOptions,
  freshIp,
  inject,
  settleOutbox,
} from '../support/checkout-test-app.js';
import { SmtpSink } from '../../../tests/support/smtp-sink.js';
import {
  cancelCheckout,
  EVENT_ID,
  EVENT_NAME,
  holdPlaces,
  join,
  joinBody,
  joinConfirmed,
  mailsTo,
  nextMail,
  pass,
  pay,
  resetWaitlistStore,
  tokenIn,
  waitlistCatalog,
} from './support/waitlist-test-app.js';

jest.setTimeout(120_000);

const OFFER = /Plätze frei/;

describe.each(DATABASES)('waiting list (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication | null = null;
  let smtp: SmtpSink;
  let catalog: FakeCatalog;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    smtp = await new SmtpSink().start();
  });
  afterAll(async () => {
    await smtp.stop();
    await db.drop();
  });
  afterEach(async () => {
    if (app) {
      await pass(app).idle();
      await settleOutbox(app).catch(() => undefined);
    }
    await app?.close();
    app = null;
    smtp.mails.length = 0;
  });

  async function start(stock = 2, options = fastOptions({ waitlistPassMs: 0 })) {
    catalog = waitlistCatalog(stock);
    app = await createTestApp({
      databaseUrl: db.url,
      catalog,
      options,
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'After Work Hamburg <tickets@shop.test>' },
    });
    await resetWaitlistStore(app);
    await pass(app).idle();
    return app;
  }

  /** Every place taken by open checkouts; returns their session ids. */
  async function soldOut(target: NestFastifyApplication, ...quantities: number[]) {
    const ids: string[] = [];
    for (const q of quantities) {
      const res = await holdPlaces(target, q);
      expect(res.statusCode).toBe(201);
      ids.push(res.json().id);
    }
    expect((await holdPlaces(target, 1)).statusCode).toBe(409);
    return ids;
  }

  async function offerView(target: NestFastifyApplication, token: string) {
    const res = await inject(target, { method: 'GET', url: `/api/waitlist/offers/${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return waitlistOfferViewSchema.parse(res.json());
  }

  async function offerRows(target: NestFastifyApplication) {
    return target
      .get(StoreDatabase)
      .db.selectFrom('waitlist_offers')
      .innerJoin('waitlist_entries', 'waitlist_entries.id', 'waitlist_offers.entry_id')
      .innerJoin('holds', 'holds.id', 'waitlist_offers.hold_id')
      .select(['waitlist_entries.email', 'waitlist_offers.status', 'holds.quantity'])
      .orderBy('waitlist_offers.id')
      .execute();
  }

  it('join → confirmation mail over SMTP → confirm → a canceled hold becomes an offer mail → the offer buys the place, nobody else can', async () => {
    const target = await start(2);
    const [first] = await soldOut(target, 1, 1);

    expect((await join(target, joinBody('nina@example.org', 1))).statusCode).toBe(202);
    const confirmation = await nextMail(smtp, 'nina@example.org', /bestätige/);
    expect(confirmation.subject).toBe(`Bitte bestätige die Warteliste für „${EVENT_NAME}“`);
    expect(confirmation.text).toContain('Von der Warteliste abmelden');
    expect(confirmation.html).toContain('/waitlist/unsubscribe/');
    const confirmed = await inject(target, {
      method: 'POST',
      url: `/api/waitlist/confirm/${tokenIn(confirmation, 'confirm')}`,
    });
    expect(confirmed.statusCode).toBe(200);
    expect(waitlistConfirmationSchema.parse(confirmed.json())).toEqual({
      lineName: EVENT_NAME,
      eventSlug: 'afterwork-im-hafen',
      quantity: 1,
      status: 'confirmed',
      ahead: 0,
    });

    // The first buyer gives up on the payment page: the place goes to the waiting list at
    // once (the release wakes the pass), not to whoever checks out next.
    await cancelCheckout(target, first!);
    const offerMail = await nextMail(smtp, 'nina@example.org', OFFER);
    expect(offerMail.subject).toBe(`Plätze frei: 1 Ticket für „${EVENT_NAME}“`);
    expect(offerMail.text).toMatch(/reserviert – bis \w+, \d{1,2}\. \w+ \d{4}, \d{2}:\d{2} Uhr/);
    expect(offerMail.text).toContain('/waitlist/unsubscribe/');
    const token = tokenIn(offerMail, 'offer');
    const view = await offerView(target, token);
    expect(view).toMatchObject({ status: 'active', quantity: 1, productId: EVENT_ID, price: 25 });
    const hours = (Date.parse(view.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    // A visitor without the offer (or with a made-up one) cannot take the held place.
    expect((await holdPlaces(target, 1)).statusCode).toBe(409);
    expect((await holdPlaces(target, 1, { waitlist_offer: 'x'.repeat(32) })).statusCode).toBe(409);

    // The offer's own checkout can, and pays.
    const bought = await holdPlaces(target, 1, { waitlist_offer: token });
    expect(bought.statusCode).toBe(201);
    expect((await offerView(target, token)).status).toBe('used');
    await pay(target, bought.json().id);
    const summary = await inject(target, {
      method: 'GET',
      url: `/api/checkout/session/${bought.json().id}`,
    });
    expect(orderSummarySchema.parse(summary.json()).status).toBe('paid');
    // A used offer opens nothing twice.
    expect((await holdPlaces(target, 1, { waitlist_offer: token })).statusCode).toBe(409);
    await settleOutbox(target);
    expect(mailsTo(smtp, 'nina@example.org', OFFER)).toHaveLength(1);
  });

  it('a hold that expires in another checkout hands its place to the oldest confirmed entry', async () => {
    const target = await start(1, fastOptions({ waitlistPassMs: 0, sessionTtlMs: 1_500 }));
    const [held] = await soldOut(target, 1);
    await joinConfirmed(target, smtp, 'erste@example.org');
    await joinConfirmed(target, smtp, 'zweite@example.org');
    await new Promise((r) => setTimeout(r, 1_600));
    // Reconciliation finds the session expired at the provider: the order releases its place.
    const order = await target.get(OrderRepository).find({ sessionId: held! });
    await target.get(OrderService).reconcile(order!);
    await nextMail(smtp, 'erste@example.org', OFFER);
    await pass(target).idle();
    expect(mailsTo(smtp, 'zweite@example.org', OFFER)).toHaveLength(0);
  });

  it('an offer not taken in time goes to the next entry; so does a declined one', async () => {
    const target = await start(1);
    const [held] = await soldOut(target, 1);
    for (const email of ['a@example.org', 'b@example.org', 'c@example.org']) {
      await joinConfirmed(target, smtp, email);
    }
    await cancelCheckout(target, held!);
    const tokenA = tokenIn(await nextMail(smtp, 'a@example.org', OFFER), 'offer');

    // A's 24 hours are over (the hold of its offer lapses).
    await target
      .get(StoreDatabase)
      .db.updateTable('holds')
      .set({ expires_at: Date.now() - 1 })
      .where('id', 'in', (eb) => eb.selectFrom('waitlist_offers').select('hold_id'))
      .execute();
    await pass(target).run();
    expect((await offerView(target, tokenA)).status).toBe('expired');
    expect((await holdPlaces(target, 1, { waitlist_offer: tokenA })).statusCode).toBe(409);
    const tokenB = tokenIn(await nextMail(smtp, 'b@example.org', OFFER), 'offer');

    const declined = await inject(target, {
      method: 'POST',
      url: `/api/waitlist/offers/${tokenB}/decline`,
    });
    expect(declined.statusCode).toBe(200);
    expect(declined.json().status).toBe('declined');
    await nextMail(smtp, 'c@example.org', OFFER);
    expect(mailsTo(smtp, 'a@example.org', OFFER)).toHaveLength(1);
    expect((await offerRows(target)).map((r) => [r.email, r.status])).toEqual([
      ['a@example.org', 'expired'],
      ['b@example.org', 'declined'],
      ['c@example.org', 'active'],
    ]);
  });

  it('an offer whose checkout is canceled holds its places again until it runs out', async () => {
    const target = await start(1);
    const [held] = await soldOut(target, 1);
    await joinConfirmed(target, smtp, 'a@example.org');
    await joinConfirmed(target, smtp, 'b@example.org');
    await cancelCheckout(target, held!);
    const token = tokenIn(await nextMail(smtp, 'a@example.org', OFFER), 'offer');
    const checkout = await holdPlaces(target, 1, { waitlist_offer: token });
    expect(checkout.statusCode).toBe(201);
    await cancelCheckout(target, checkout.json().id);
    await pass(target).idle();
    expect((await offerView(target, token)).status).toBe('active');
    expect(mailsTo(smtp, 'b@example.org', OFFER)).toHaveLength(0);
    expect((await holdPlaces(target, 1)).statusCode).toBe(409);
    expect((await holdPlaces(target, 1, { waitlist_offer: token })).statusCode).toBe(201);
  });

  it('unconfirmed entries get nothing', async () => {
    const target = await start(1);
    const [held] = await soldOut(target, 1);
    expect((await join(target, joinBody('unbestaetigt@example.org'))).statusCode).toBe(202);
    await nextMail(smtp, 'unbestaetigt@example.org', /bestätige/);
    await cancelCheckout(target, held!);
    await pass(target).idle();
    expect(await pass(target).run()).toEqual([]);
    expect(await offerRows(target)).toEqual([]);
    // The freed place is for sale again.
    expect((await holdPlaces(target, 1)).statusCode).toBe(201);
  });

  it('the oldest entries whose quantity fits: a larger one waits while a smaller, later one fits', async () => {
    const target = await start(3);
    const [, two] = await soldOut(target, 1, 2);
    await joinConfirmed(target, smtp, 'drei@example.org', 3);
    await joinConfirmed(target, smtp, 'zwei@example.org', 2);
    await joinConfirmed(target, smtp, 'eins@example.org', 1);
    await cancelCheckout(target, two!);
    await nextMail(smtp, 'zwei@example.org', OFFER);
    await pass(target).idle();
    expect((await offerRows(target)).map((r) => [r.email, r.quantity])).toEqual([
      ['zwei@example.org', 2],
    ]);
  });

  it('stock raised in the catalog is offered at the next pass', async () => {
    const target = await start(1);
    await soldOut(target, 1);
    await joinConfirmed(target, smtp, 'a@example.org', 2);
    await pass(target).idle();
    expect(await offerRows(target)).toEqual([]);
    catalog.productById(EVENT_ID).stock_quantity = 3;
    await pass(target).run();
    expect((await offerRows(target)).map((o) => o.quantity)).toEqual([2]);
    await nextMail(smtp, 'a@example.org', OFFER);
  });

  it('joining needs a sold-out place: with places on sale the answer is 409 in German for every address, and nothing is stored, mailed or reserved', async () => {
    const target = await start(2);
    const [first] = await soldOut(target, 1, 1);
    // Known, not yet confirmed: it waits for nothing yet, so the freed place goes on sale.
    expect((await join(target, joinBody('bekannt@example.org'))).statusCode).toBe(202);
    await nextMail(smtp, 'bekannt@example.org', /bestätige/);
    await cancelCheckout(target, first!);
    await pass(target).idle();

    const refusals = [
      await join(target, joinBody('frueh@example.org', 4)),
      await join(target, joinBody('bekannt@example.org')),
    ];
    for (const res of refusals) {
      expect(res.statusCode).toBe(409);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message: `Für „${EVENT_NAME}“ sind noch Plätze frei – du kannst sie direkt buchen. Auf die Warteliste kommst du, sobald alles vergeben ist.`,
      });
    }
    // The answer is about the place alone: the same bytes for a known and an unknown address.
    expect(refusals[0]!.body).toBe(refusals[1]!.body);

    // Unlimited places are never sold out.
    catalog.productById(EVENT_ID).stock_quantity = null;
    expect((await join(target, joinBody('unbegrenzt@example.org'))).statusCode).toBe(409);
    catalog.productById(EVENT_ID).stock_quantity = 2;
    // The shop's change reaches the catalog as a product.updated delivery would make it.
    target.get(CatalogService).invalidate();
    await target.get(CatalogService).currentProducts();

    await pass(target).idle();
    await settleOutbox(target);
    const rows = await target
      .get(StoreDatabase)
      .db.selectFrom('waitlist_entries')
      .select('email')
      .execute();
    expect(rows).toEqual([{ email: 'bekannt@example.org' }]);
    expect(mailsTo(smtp, 'frueh@example.org')).toHaveLength(0);
    expect(mailsTo(smtp, 'unbegrenzt@example.org')).toHaveLength(0);
    expect(await offerRows(target)).toEqual([]);
    // The free place is for sale to anyone.
    const live = await inject(target, {
      method: 'GET',
      url: `/api/waitlist/availability/${EVENT_ID}`,
    });
    expect(live.json().free).toBe(1);
    expect((await holdPlaces(target, 1)).statusCode).toBe(201);
  });

  it('offers hand out only places that came free after the confirmation: a place on sale when the entry confirms stays on sale', async () => {
    const target = await start(3);
    const [one, two] = await soldOut(target, 1, 2);
    // Joined while sold out; before the address is confirmed, a place goes back on sale.
    expect((await join(target, joinBody('spaet@example.org', 1))).statusCode).toBe(202);
    const mail = await nextMail(smtp, 'spaet@example.org', /bestätige/);
    await cancelCheckout(target, one!);
    await pass(target).idle();
    const confirmed = await inject(target, {
      method: 'POST',
      url: `/api/waitlist/confirm/${tokenIn(mail, 'confirm')}`,
    });
    expect(confirmed.json().status).toBe('confirmed');
    await pass(target).idle();
    await pass(target).run();
    expect(await offerRows(target)).toEqual([]);

    // Two places held at the confirmation come free: they were taken while the entry
    // waited, so one is offered; the place that was on sale all along is still for sale.
    await cancelCheckout(target, two!);
    await nextMail(smtp, 'spaet@example.org', OFFER);
    await pass(target).idle();
    expect((await offerRows(target)).map((r) => [r.email, r.quantity])).toEqual([
      ['spaet@example.org', 1],
    ]);
    expect((await holdPlaces(target, 2)).statusCode).toBe(201);
    expect((await holdPlaces(target, 1)).statusCode).toBe(409);
  });

  it('a paid order the catalog already counts while its reservation still does is no place that came free', async () => {
    const target = await start(4);
    const held = await soldOut(target, 1, 1, 1, 1);
    await join(target, joinBody('wartet@example.org', 1));
    const mail = await nextMail(smtp, 'wartet@example.org', /bestätige/);
    // Two places go back on sale, then the entry is confirmed: they are the public's.
    await cancelCheckout(target, held[0]!);
    await cancelCheckout(target, held[1]!);
    await inject(target, {
      method: 'POST',
      url: `/api/waitlist/confirm/${tokenIn(mail, 'confirm')}`,
    });
    await pass(target).idle();
    // Somebody buys one of them. WooCommerce lowers the stock at the hand-off, and for a
    // while the order's reservation counts as well (until every catalog cache has seen it).
    const bought = await holdPlaces(target, 1);
    expect(bought.statusCode).toBe(201);
    await pay(target, bought.json().id);
    await settleOutbox(target);
    catalog.productById(EVENT_ID).stock_quantity = 3;
    await pass(target).run();
    // The reservation ends: one place is on sale again, as it was all along.
    const order = await target.get(OrderRepository).find({ sessionId: bought.json().id });
    await target
      .get(StoreDatabase)
      .db.updateTable('holds')
      .set({ expires_at: Date.now() - 1 })
      .where('owner', '=', order!.id)
      .execute();
    await pass(target).run();
    expect(await offerRows(target)).toEqual([]);
    expect((await holdPlaces(target, 1)).statusCode).toBe(201);
  });

  it('a confirmation mail at most once an hour per entry; joining again still answers 202', async () => {
    const target = await start(1);
    await soldOut(target, 1);
    expect((await join(target, joinBody('oft@example.org'))).statusCode).toBe(202);
    await nextMail(smtp, 'oft@example.org', /bestätige/);
    for (let i = 0; i < 3; i += 1) {
      const again = await join(target, joinBody('oft@example.org'));
      expect(again.statusCode).toBe(202);
      expect(again.body).toBe('{}');
    }
    // Mails go out one after another: once a later one is here, a repeat would be too.
    await join(target, joinBody('danach@example.org'));
    await nextMail(smtp, 'danach@example.org', /bestätige/);
    expect(mailsTo(smtp, 'oft@example.org', /bestätige/)).toHaveLength(1);

    // An hour later a new request sends the mail again, once.
    await target
      .get(StoreDatabase)
      .db.updateTable('jobs')
      .set({ requested_at: Date.now() - 3_600_001 })
      .where('name', '=', 'waitlist-confirm-mail')
      .execute();
    expect((await join(target, joinBody('oft@example.org'))).statusCode).toBe(202);
    expect((await join(target, joinBody('oft@example.org'))).statusCode).toBe(202);
    await join(target, joinBody('zuletzt@example.org'));
    await nextMail(smtp, 'zuletzt@example.org', /bestätige/);
    expect(mailsTo(smtp, 'oft@example.org', /bestätige/)).toHaveLength(2);
  });

  it('unsubscribing and joining again goes to the back of the queue', async () => {
    const target = await start(1);
    const [held] = await soldOut(target, 1);
    await joinConfirmed(target, smtp, 'zurueck@example.org');
    await joinConfirmed(target, smtp, 'danach@example.org');
    const first = await nextMail(smtp, 'zurueck@example.org', /bestätige/);
    const left = await inject(target, {
      method: 'POST',
      url: `/api/waitlist/unsubscribe/${tokenIn(first, 'unsubscribe')}`,
    });
    expect(left.json()).toEqual({ removed: true });
    smtp.mails.length = 0;
    expect((await join(target, joinBody('zurueck@example.org'))).statusCode).toBe(202);
    const again = await nextMail(smtp, 'zurueck@example.org', /bestätige/);
    const confirmed = await inject(target, {
      method: 'POST',
      url: `/api/waitlist/confirm/${tokenIn(again, 'confirm')}`,
    });
    expect(confirmed.json()).toMatchObject({ status: 'confirmed', ahead: 1 });
    await cancelCheckout(target, held!);
    await nextMail(smtp, 'danach@example.org', OFFER);
    await pass(target).idle();
    expect((await offerRows(target)).map((r) => r.email)).toEqual(['danach@example.org']);
  });

  it('no enumeration: the same 202 and body for a new, a duplicate and a confirmed address; one entry per address and unit', async () => {
    const target = await start(1);
    await soldOut(target, 1);
    const answers = [
      await join(target, joinBody('neu@example.org')),
      await join(target, joinBody('NEU@example.org')),
      await join(target, joinBody('neu@example.org', 3)),
    ];
    await joinConfirmed(target, smtp, 'bekannt@example.org');
    answers.push(await join(target, joinBody('bekannt@example.org')));
    for (const res of answers) {
      expect(res.statusCode).toBe(202);
      expect(res.body).toBe('{}');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const rows = await target
      .get(StoreDatabase)
      .db.selectFrom('waitlist_entries')
      .select(['email', 'quantity', 'status'])
      .orderBy('email')
      .execute();
    expect(rows).toEqual([
      { email: 'bekannt@example.org', quantity: 1, status: 'confirmed' },
      { email: 'neu@example.org', quantity: 1, status: 'pending' },
    ]);
    await settleOutbox(target);
    // A confirmed address is not mailed again.
    expect(mailsTo(smtp, 'bekannt@example.org', /bestätige/)).toHaveLength(1);
  });

  it('validation in German; the rate limit answers 429 with Retry-After', async () => {
    const target = await start(1);
    await soldOut(target, 1);
    const bad = await join(target, {
      productId: EVENT_ID,
      quantity: 5,
      email: 'x',
      consent: false,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/E-Mail-Adresse|Höchstens|Datenschutz/);
    expect((await join(target, joinBody('a@example.org', 1, { productId: 999 }))).statusCode).toBe(
      400,
    );
    const ip = freshIp();
    for (let i = 0; i < 5; i += 1) {
      expect((await join(target, joinBody(`r${i}@example.org`), ip)).statusCode).toBe(202);
    }
    const limited = await join(target, joinBody('r6@example.org'), ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json().message).toMatch(/mehrmals eingetragen/);
  });

  it('unsubscribe deletes the entry; its held places go to the next', async () => {
    const target = await start(1);
    const [held] = await soldOut(target, 1);
    await joinConfirmed(target, smtp, 'a@example.org');
    await joinConfirmed(target, smtp, 'b@example.org');
    await cancelCheckout(target, held!);
    const offer = await nextMail(smtp, 'a@example.org', OFFER);
    const res = await inject(target, {
      method: 'POST',
      url: `/api/waitlist/unsubscribe/${tokenIn(offer, 'unsubscribe')}`,
    });
    expect(res.json()).toEqual({ removed: true });
    await nextMail(smtp, 'b@example.org', OFFER);
    const again = await inject(target, {
      method: 'POST',
      url: `/api/waitlist/unsubscribe/${tokenIn(offer, 'unsubscribe')}`,
    });
    expect(again.json()).toEqual({ removed: false });
    const emails = await target
      .get(StoreDatabase)
      .db.selectFrom('waitlist_entries')
      .select('email')
      .execute();
    expect(emails).toEqual([{ email: 'b@example.org' }]);
    expect(
      (
        await inject(target, {
          method: 'GET',
          url: `/api/waitlist/offers/${tokenIn(offer, 'offer')}`,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('entries are deleted after the event', async () => {
    const target = await start(1);
    await soldOut(target, 1);
    await joinConfirmed(target, smtp, 'a@example.org');
    await join(target, joinBody('b@example.org'));
    await pass(target).idle();
    const { db: store } = target.get(StoreDatabase);
    await store
      .updateTable('waitlist_entries')
      .set({ starts_at: Date.now() - 2 * 86_400_000 })
      .execute();
    await pass(target).run();
    expect(await store.selectFrom('waitlist_entries').select('id').execute()).toEqual([]);
    const mails = store
      .selectFrom('jobs')
      .select('id')
      .where('name', 'in', ['waitlist-confirm-mail', 'waitlist-offer-mail']);
    expect(await mails.execute()).toEqual([]);
  });

  it('the organizer counts: per event and tier, no addresses; live availability counts holds and offers', async () => {
    const target = await start(2);
    const [held] = await soldOut(target, 1, 1);
    let live = await inject(target, {
      method: 'GET',
      url: `/api/waitlist/availability/${EVENT_ID}`,
    });
    expect(live.json()).toEqual({ productId: EVENT_ID, free: 0, variants: [] });
    await joinConfirmed(target, smtp, 'a@example.org');
    await joinConfirmed(target, smtp, 'b@example.org');
    await join(target, joinBody('c@example.org'));
    await cancelCheckout(target, held!);
    await nextMail(smtp, 'a@example.org', OFFER);
    const res = await inject(target, { method: 'GET', url: '/api/waitlist/counts' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).not.toContain('@');
    expect(waitlistCountsSchema.parse(res.json())).toEqual({
      rows: [
        { productId: EVENT_ID, variationId: null, lineName: EVENT_NAME, waiting: 1, offered: 1 },
      ],
    });
    live = await inject(target, { method: 'GET', url: `/api/waitlist/availability/${EVENT_ID}` });
    expect(live.json().free).toBe(0);
  });
});

// Budget check of correctness under concurrency: two checkout processes on one PostgreSQL
// database run their passes at the same time over the same freed places.
describe('waiting list across two processes (postgres)', () => {
  let db: { url: string; drop(): Promise<void> };
  let smtp: SmtpSink;
  const apps: NestFastifyApplication[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    smtp = await new SmtpSink().start();
  });
  afterAll(async () => {
    for (const app of apps) {
      await pass(app).idle();
      await settleOutbox(app).catch(() => undefined);
      await app.close();
    }
    await smtp.stop();
    await db.drop();
  });

  it('10 confirmed entries and 3 freed places → exactly 3 offers, to the 3 oldest, in order', async () => {
    const catalog = waitlistCatalog(3);
    const env = { SMTP_URL: smtp.url, MAIL_FROM: 'After Work Hamburg <tickets@shop.test>' };
    for (let i = 0; i < 2; i += 1) {
      apps.push(
        await createTestApp({
          databaseUrl: db.url,
          catalog,
          options: fastOptions({ waitlistPassMs: 0 }),
          env,
        }),
      );
    }
    const [a, b] = apps as [NestFastifyApplication, NestFastifyApplication];
    await resetWaitlistStore(a);
    const held: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await holdPlaces(a, 1);
      expect(res.statusCode).toBe(201);
      held.push(res.json().id);
    }
    const emails = Array.from(
      { length: 10 },
      (_, i) => `warte${String(i).padStart(2, '0')}@example.org`,
    );
    for (const email of emails) {
      await joinConfirmed(i2(email) % 2 === 0 ? a : b, smtp, email);
    }
    await Promise.all(apps.map((app) => pass(app).idle()));
    // The three orders lapse without a release event the passes could hear of: the places
    // free up by the clock alone, and both processes look at the same moment, twice.
    await a
      .get(StoreDatabase)
      .db.updateTable('holds')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    const made = (
      await Promise.all([pass(a).run(), pass(b).run(), pass(a).run(), pass(b).run()])
    ).flat();
    expect(made).toHaveLength(3);
    const offers = await a
      .get(StoreDatabase)
      .db.selectFrom('waitlist_offers')
      .innerJoin('waitlist_entries', 'waitlist_entries.id', 'waitlist_offers.entry_id')
      .innerJoin('holds', 'holds.id', 'waitlist_offers.hold_id')
      .select(['waitlist_entries.email', 'holds.quantity'])
      .orderBy('waitlist_offers.id')
      .execute();
    expect(offers.map((o) => o.email)).toEqual(emails.slice(0, 3));
    for (const email of emails.slice(0, 3)) await nextMail(smtp, email, OFFER);
    await Promise.all(apps.map((app) => settleOutbox(app)));
    for (const email of emails.slice(3)) expect(mailsTo(smtp, email, OFFER)).toHaveLength(0);
    expect(smtp.mails.filter((m) => OFFER.test(m.subject ?? ''))).toHaveLength(3);
    // Nobody else gets a place while the offers hold them.
    expect((await holdPlaces(b, 1)).statusCode).toBe(409);
  });
});

/** Spreads the joins over both processes by the address's last digit. */
function i2(email: string): number {
  return Number(/(\d)@/.exec(email)?.[1] ?? 0);
}
