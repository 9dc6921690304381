import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ticketReturnViewSchema, waitlistOfferViewSchema } from '@awhh/machines';
import { FakeStripe } from '../../../tests/support/fake-stripe.js';
import { SmtpSink } from '../../../tests/support/smtp-sink.js';
import { TicketReturns } from '../../src/returns/ticket-returns.service.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import { TicketService } from '../../src/tickets/ticket.service.js';
import { TicketRepository } from '../../src/tickets/tickets.port.js';
import {
  createTestApp,
  createTestDatabase,
  DATABASES,
  deliver,
  fastOptions,
  freshIp,
  inject,
  settleOutbox,
  signedDelivery,
  STRIPE_KEY,
  waitFor,
} from '../support/checkout-test-app.js';
import {
  EVENT_ID,
  EVENT_NAME,
  holdPlaces,
  joinConfirmed,
  mailsTo,
  nextMail,
  pass,
  resetWaitlistStore,
  tokenIn,
  waitlistCatalog,
} from '../waitlist/support/waitlist-test-app.js';

jest.setTimeout(120_000);

const OFFER = /Plätze frei/;

/**
 * rules "Giving a ticket back", against the Nest app with Stripe's wire format (the fake
 * Stripe) and mails over SMTP: a sold-out evening of two places, both bought, people waiting.
 */
describe.each(DATABASES)('giving a ticket back to the waiting list (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let stripe: FakeStripe;
  let smtp: SmtpSink;
  let app: NestFastifyApplication | null = null;
  let catalog: ReturnType<typeof waitlistCatalog>;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    stripe = await FakeStripe.start({ secretKey: STRIPE_KEY });
    smtp = await new SmtpSink().start();
  });
  afterAll(async () => {
    await smtp.stop();
    await stripe.stop();
    await db.drop();
  });
  afterEach(async () => {
    if (app) {
      await pass(app).idle();
      await settleOutbox(app).catch(() => undefined);
      await app.close();
    }
    app = null;
    smtp.mails.length = 0;
    stripe.requests.length = 0;
  });

  async function start(env: NodeJS.ProcessEnv = {}) {
    smtp.mails.length = 0;
    catalog = waitlistCatalog(2);
    app = await createTestApp({
      databaseUrl: db.url,
      catalog,
      stripeApiBase: stripe.url,
      options: fastOptions({ waitlistPassMs: 0 }),
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'After Work Hamburg <tickets@shop.test>', ...env },
    });
    await resetWaitlistStore(app);
    return app;
  }

  /** A checkout paid at Stripe (its signed webhook); returns the order id. */
  async function buy(target: NestFastifyApplication, email: string, extra = {}) {
    const res = await holdPlaces(target, 1, extra);
    expect(res.statusCode).toBe(201);
    const sessionId: string = res.json().id;
    const { id: orderId } = await target
      .get(StoreDatabase)
      .db.selectFrom('orders')
      .select('id')
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    await deliver(
      target,
      signedDelivery({
        id: `evt_${orderId}`,
        type: 'checkout.session.completed',
        object: {
          id: sessionId,
          metadata: { order_id: orderId },
          payment_status: 'paid',
          payment_intent: `pi_${orderId}`,
          customer_details: { email, individual_name: 'Gast Muster' },
        },
      }),
    );
    // Handed to the shop before the next buyer comes: a checkout racing the hand-off may
    // count the sale twice for a moment (docs/ledger.md "A sale counts once").
    await settleOutbox(target);
    return orderId;
  }

  async function tokenOf(target: NestFastifyApplication, orderId: string) {
    await waitFor(async () => (await target.get(TicketService).forOrder(orderId, null)).length > 0);
    const [ticket] = await target.get(TicketService).forOrder(orderId, null);
    return ticket!.ticket.token;
  }

  async function ticketStatus(target: NestFastifyApplication, orderId: string) {
    const row = await target
      .get(StoreDatabase)
      .db.selectFrom('tickets')
      .select('status')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    return row.status;
  }

  const call = (target: NestFastifyApplication, method: 'GET' | 'POST' | 'DELETE', token: string) =>
    inject(target, {
      method,
      url: `/api/tickets/${token}/return`,
      headers: { 'x-forwarded-for': freshIp() },
    });

  async function view(target: NestFastifyApplication, token: string) {
    const res = await call(target, 'GET', token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return ticketReturnViewSchema.parse(res.json());
  }

  async function offerStatus(target: NestFastifyApplication, token: string) {
    const res = await inject(target, { method: 'GET', url: `/api/waitlist/offers/${token}` });
    return waitlistOfferViewSchema.parse(res.json()).status;
  }

  /** Two guests bought both places; `waiting` confirmed entries wait. */
  async function soldOutWithQueue(target: NestFastifyApplication, ...waiting: string[]) {
    const first = await buy(target, 'karla@example.org');
    const second = await buy(target, 'bert@example.org');
    expect((await holdPlaces(target, 1)).statusCode).toBe(409);
    for (const email of waiting) await joinConfirmed(target, smtp, email);
    return { first, second, token: await tokenOf(target, first) };
  }

  it('rules "Giving a ticket back": the place goes to the waiting list at once; when its taker pays at Stripe, the returned ticket is revoked and its price refunded, keyed, and the guest is mailed', async () => {
    const target = await start();
    const { first, token } = await soldOutWithQueue(target, 'nina@example.org');
    const until =
      Date.parse(
        (
          await target
            .get(StoreDatabase)
            .db.selectFrom('tickets')
            .select('starts_at')
            .executeTakeFirstOrThrow()
        ).starts_at!,
      ) -
      24 * 3_600_000;

    expect(await view(target, token)).toEqual({
      state: 'available',
      refund: 25,
      fee: 0,
      until: new Date(until).toISOString(),
      passedOn: false,
    });
    const offered = await call(target, 'POST', token);
    expect(offered.statusCode).toBe(200);
    expect(offered.json()).toMatchObject({ state: 'offered', refund: 25 });
    // Offering twice is the same return.
    expect((await call(target, 'POST', token)).json()).toMatchObject({ state: 'offered' });

    // The place is offered to the waiting list, never sold to everyone; the ticket admits.
    const offerToken = tokenIn(await nextMail(smtp, 'nina@example.org', OFFER), 'offer');
    expect(await offerStatus(target, offerToken)).toBe('active');
    expect((await holdPlaces(target, 1)).statusCode).toBe(409);
    expect(await ticketStatus(target, first)).toBe('valid');

    // The shop's stock already carries both sales while their holds still count: the lent
    // place is the offer's all the same.
    catalog.productById(EVENT_ID).stock_quantity = 0;
    const taker = await buy(target, 'nina@example.org', { waitlist_offer: offerToken });
    expect(await offerStatus(target, offerToken)).toBe('used');
    await settleOutbox(target);
    // The sale revoked the returned ticket; the refund is a job: the runner may hold it in
    // another lease right now.
    expect(await ticketStatus(target, first)).toBe('revoked');
    await waitFor(async () => {
      const now = await view(target, token);
      return now.state === 'taken' && now.refunded;
    });
    await waitFor(() => stripe.requestsTo('/v1/refunds').length > 0);

    const [refund] = stripe.requestsTo('/v1/refunds').filter((r) => r.form.amount);
    expect(refund!.form).toMatchObject({ payment_intent: `pi_${first}`, amount: '2500' });
    expect(refund!.idempotencyKey).toMatch(/^ticket-return-rt_/);
    expect(await ticketStatus(target, first)).toBe('revoked');
    expect(await ticketStatus(target, taker)).toBe('valid');
    expect(await view(target, token)).toEqual({
      state: 'taken',
      refund: 25,
      refunded: true,
      passedOn: false,
    });
    const mail = await nextMail(smtp, 'karla@example.org', /Ticket zurückgegeben/);
    expect(mail.subject).toBe(`Ticket zurückgegeben: „${EVENT_NAME}“`);
    expect(mail.text).toMatch(/Wir haben dir 25,00\s€ erstattet/);
    // A late undo cannot bring the ticket back.
    expect((await call(target, 'DELETE', token)).statusCode).toBe(409);
    // Never more places handed on than were returned: the evening stays sold out.
    await pass(target).run();
    expect((await holdPlaces(target, 1)).statusCode).toBe(409);
  });

  it('rules "Giving a ticket back": one owner of a ticket\'s fate: offered back it cannot be passed on (409), its sale revokes it in the sale\'s own transaction, and then it cannot be passed on either', async () => {
    const target = await start();
    const { first, token } = await soldOutWithQueue(target, 'nina@example.org');
    const passOn = () =>
      inject(target, {
        method: 'POST',
        url: `/api/tickets/${token}/transfer`,
        headers: { 'x-forwarded-for': freshIp() },
        payload: { name: 'Mia Muster', company: null, email: 'mia@example.org' },
      });
    expect((await call(target, 'POST', token)).statusCode).toBe(200);
    const offered = await passOn();
    expect(offered.statusCode).toBe(409);
    expect(offered.json().message).toBe(
      'Dieses Ticket ist zur Rückgabe an die Warteliste angeboten. Weitergeben lässt es sich erst, wenn du die Rückgabe zurücknimmst.',
    );
    expect(await ticketStatus(target, first)).toBe('valid');
    expect(
      await target.get(StoreDatabase).db.selectFrom('ticket_transfers').selectAll().execute(),
    ).toEqual([]);

    const offerToken = tokenIn(await nextMail(smtp, 'nina@example.org', OFFER), 'offer');
    catalog.productById(EVENT_ID).stock_quantity = 0;
    // The payment's webhook is answered once the sale is counted: by then the returned
    // ticket no longer admits, before any refund job ran.
    await buy(target, 'nina@example.org', { waitlist_offer: offerToken });
    expect(await ticketStatus(target, first)).toBe('revoked');
    const returned = await target
      .get(StoreDatabase)
      .db.selectFrom('ticket_returns')
      .select(['status', 'generation'])
      .executeTakeFirstOrThrow();
    expect(returned.status === 'taken' || returned.status === 'refunded').toBe(true);
    expect(Number(returned.generation)).toBe(0);
    const taken = await passOn();
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(/storniert/);
    await waitFor(async () => (await view(target, token)).state === 'taken');
    await waitFor(() => stripe.requestsTo('/v1/refunds').length > 0);
    expect(stripe.requestsTo('/v1/refunds').filter((r) => r.form.amount)).toHaveLength(1);
    // A dispute won would restore the order's tickets, never one given back.
    expect(await ticketStatus(target, first)).toBe('revoked');
  });

  it("a ticket passed on before it was offered back: the return is its new holder's generation, a stale token offers nothing, and when it is taken the buyer is refunded and both are told who gets the money", async () => {
    const target = await start();
    const { first, token } = await soldOutWithQueue(target, 'nina@example.org');
    const moved = await inject(target, {
      method: 'POST',
      url: `/api/tickets/${token}/transfer`,
      headers: { 'x-forwarded-for': freshIp() },
      payload: { name: 'Mia Muster', company: null, email: 'mia@example.org' },
    });
    expect(moved.statusCode).toBe(200);
    // The buyer's old token is no longer the ticket's: it gives nothing back.
    expect((await call(target, 'POST', token)).statusCode).toBe(410);
    const stored = await target.get(TicketRepository).forOrder(first);
    const [current] = await target.get(TicketService).withTokens(stored, () => null);
    expect((await call(target, 'POST', current!.ticket.token)).statusCode).toBe(200);
    const returned = await target
      .get(StoreDatabase)
      .db.selectFrom('ticket_returns')
      .select(['status', 'generation'])
      .executeTakeFirstOrThrow();
    expect({ ...returned, generation: Number(returned.generation) }).toEqual({
      status: 'offered',
      generation: 1,
    });
    // The page tells the holder before and after: the money goes to the buyer.
    expect(await view(target, current!.ticket.token)).toMatchObject({
      state: 'offered',
      passedOn: true,
    });

    // The waiting list takes it: the holder's ticket goes, the buyer is refunded once, and
    // each of them is told who gets the money.
    const offerToken = tokenIn(await nextMail(smtp, 'nina@example.org', OFFER), 'offer');
    await buy(target, 'nina@example.org', { waitlist_offer: offerToken });
    await settleOutbox(target);
    await waitFor(async () => {
      const now = await view(target, current!.ticket.token);
      return now.state === 'taken' && now.refunded;
    });
    const refunds = stripe.requestsTo('/v1/refunds').filter((r) => r.form.amount);
    expect(refunds.map((r) => r.form)).toEqual([
      expect.objectContaining({ payment_intent: `pi_${first}`, amount: '2500' }),
    ]);
    // Earlier tests mailed the same buyer: this return's mail is the one naming the holder.
    const passedOnMail = () =>
      mailsTo(smtp, 'karla@example.org', /Ticket zurückgegeben/).find((m) =>
        String(m.text).includes('das du an Mia Muster weitergegeben hattest'),
      );
    await waitFor(() => passedOnMail() !== undefined);
    const toBuyer = passedOnMail()!;
    expect(toBuyer.text).toMatch(/Wir haben dir 25,00\s€ erstattet/);
    const toHolder = await nextMail(smtp, 'mia@example.org', /Ticket zurückgegeben/);
    expect(toHolder.text).toContain('Hallo Mia Muster');
    expect(toHolder.text).toMatch(
      /Die Erstattung von 25,00\s€ geht an die Person, die das Ticket gekauft/,
    );
  });

  it('a return undone: the ticket stays valid, the offer ends, nothing is refunded; offered again it goes to the same entry', async () => {
    const target = await start();
    const { first, token } = await soldOutWithQueue(target, 'nina@example.org');
    expect((await call(target, 'POST', token)).statusCode).toBe(200);
    const offerToken = tokenIn(await nextMail(smtp, 'nina@example.org', OFFER), 'offer');

    const undone = await call(target, 'DELETE', token);
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toMatchObject({ state: 'available' });
    expect(await offerStatus(target, offerToken)).toBe('expired');
    // The lent place went with the offer: nobody can buy it now.
    expect((await holdPlaces(target, 1, { waitlist_offer: offerToken })).statusCode).toBe(409);
    expect((await holdPlaces(target, 1)).statusCode).toBe(409);
    expect(await ticketStatus(target, first)).toBe('valid');

    // Nina waits in line again and gets the next returned place.
    expect((await call(target, 'POST', token)).statusCode).toBe(200);
    await waitFor(() => mailsTo(smtp, 'nina@example.org', OFFER).length === 2);
    await settleOutbox(target);
    expect(stripe.requestsTo('/v1/refunds')).toHaveLength(0);
  });

  it('a return past its deadline lapses: the ticket stays valid, nothing is charged back, the offer ends', async () => {
    const target = await start();
    const { first, token } = await soldOutWithQueue(target, 'nina@example.org');
    expect((await call(target, 'POST', token)).statusCode).toBe(200);
    const offerToken = tokenIn(await nextMail(smtp, 'nina@example.org', OFFER), 'offer');
    await target
      .get(StoreDatabase)
      .db.updateTable('ticket_returns')
      .set({ closes_at: Date.now() - 1 })
      .execute();
    expect(await target.get(TicketReturns).sweep()).toEqual({ lapsed: 1, offers: 0 });
    expect(await offerStatus(target, offerToken)).toBe('expired');
    expect((await holdPlaces(target, 1, { waitlist_offer: offerToken })).statusCode).toBe(409);
    expect(await ticketStatus(target, first)).toBe('valid');
    await settleOutbox(target);
    expect(stripe.requestsTo('/v1/refunds')).toHaveLength(0);
  });

  it('TICKET_RETURN_FEE_EUR is kept back; too close to the start, not sold out, nobody waiting or TICKET_RETURNS=off: nothing to offer, in German', async () => {
    let target = await start({ TICKET_RETURN_FEE_EUR: '2,50' });
    let sold = await soldOutWithQueue(target, 'nina@example.org');
    expect(await view(target, sold.token)).toMatchObject({
      state: 'available',
      refund: 22.5,
      fee: 2.5,
    });
    await app!.close();

    // The event is ten days ahead: a deadline of 300 hours before it has passed.
    app = target = await start({ TICKET_RETURN_UNTIL_HOURS: '300' });
    sold = await soldOutWithQueue(target, 'nina@example.org');
    expect(await view(target, sold.token)).toEqual({ state: 'unavailable' });
    const late = await call(target, 'POST', sold.token);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(
      'Zurückgeben lässt sich ein Ticket nur bis 300 Stunden vor Beginn.',
    );
    await app!.close();

    app = target = await start();
    const first = await buy(target, 'karla@example.org');
    const token = await tokenOf(target, first);
    const free = await call(target, 'POST', token);
    expect(free.statusCode).toBe(409);
    expect(free.json().message).toMatch(/^Für dieses Event gibt es noch freie Plätze/);
    await buy(target, 'bert@example.org');
    const nobody = await call(target, 'POST', token);
    expect(nobody.statusCode).toBe(409);
    expect(nobody.json().message).toMatch(/^Gerade wartet niemand/);
    await app!.close();

    app = target = await start({ TICKET_RETURNS: 'off' });
    sold = await soldOutWithQueue(target, 'nina@example.org');
    expect(await view(target, sold.token)).toEqual({ state: 'unavailable' });
    expect((await call(target, 'POST', sold.token)).statusCode).toBe(404);
  });

  it('an unknown or altered token learns nothing', async () => {
    const target = await start();
    const res = await call(target, 'POST', 'x'.repeat(40));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});
