import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { orderSummarySchema } from '@awhh/machines';
import { disputeEvent, FakeStripe, signature } from '../../../tests/support/fake-stripe.js';
import { SmtpSink } from '../../../tests/support/smtp-sink.js';
import { StoreDatabase } from '../../src/store/store.database.js';
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
  settleOutbox,
  signedDelivery,
  STRIPE_KEY,
  waitFor,
  WEBHOOK_SECRET,
} from '../support/checkout-test-app.js';

jest.setTimeout(120_000);

const PAYMENT_INTENT = 'pi_notice_1';
const BUYER = 'karla@example.org';
const HOLDER = 'mia@example.org';

/**
 * rules "When a ticket stops admitting": the buyer and every holder of a ticket passed on are
 * told, in German, whenever a refund, a dispute or a dispute won revokes or restores their
 * tickets: each mail once, however often the provider repeats its event and across restarts,
 * over SMTP to a real server.
 */
describe.each(API_DATABASES)('every guest is told what happened to their ticket (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let stripe: FakeStripe;
  let smtp: SmtpSink;
  let app: NestFastifyApplication;
  let catalog: FakeCatalog;

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

  async function start() {
    catalog = new FakeCatalog();
    return createTestApp({
      databaseUrl: db.url,
      catalog,
      stripeApiBase: stripe.url,
      options: fastOptions(),
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'After Work Hamburg <tickets@shop.test>' },
    });
  }

  beforeEach(async () => {
    app = await start();
    const store = app.get(StoreDatabase).db;
    await store.deleteFrom('checkin_scans').execute();
    await store.deleteFrom('checkins').execute();
    await store.deleteFrom('ticket_transfers').execute();
    await resetStore(app);
    smtp.mails.length = 0;
  });
  afterEach(async () => {
    await settleOutbox(app).catch(() => undefined);
    await app.close();
  });

  const to = (address: string, subject: RegExp) =>
    smtp.mails.filter(
      (m) =>
        [m.to ?? []].flat().some((t) => t.value.some((a) => a.address === address)) &&
        subject.test(m.subject ?? ''),
    );

  /** Two seats paid through Stripe's webhook, the second passed on to Mia; the session id. */
  async function paidAndPassedOn(): Promise<string> {
    const res = await postCheckout(app, checkoutBody([line(101, 25, 2)]));
    expect(res.statusCode).toBe(201);
    const sessionId: string = res.json().id;
    const paid = await deliver(
      app,
      signedDelivery({
        id: `evt_paid_${sessionId}`,
        type: 'checkout.session.completed',
        object: {
          id: sessionId,
          payment_status: 'paid',
          payment_intent: PAYMENT_INTENT,
          customer_details: { email: BUYER, individual_name: 'Karla Kundin' },
        },
      }),
    );
    expect(paid.json().outcome).toBe('paid');
    const summary = orderSummarySchema.parse(
      (await inject(app, { method: 'GET', url: `/api/checkout/session/${sessionId}` })).json(),
    );
    const moved = await inject(app, {
      method: 'POST',
      url: `/api/tickets/${summary.tickets[1]!.token}/transfer`,
      headers: { 'x-forwarded-for': freshIp() },
      payload: { name: 'Mia Meyer', company: null, email: HOLDER },
    });
    expect(moved.statusCode).toBe(200);
    await waitFor(
      () =>
        to(HOLDER, /Ein Ticket für dich/).length === 1 &&
        to(BUYER, /Ticket weitergegeben/).length === 1,
    );
    smtp.mails.length = 0;
    return sessionId;
  }

  async function dispute(type: 'charge.dispute.created' | 'charge.dispute.closed', won = false) {
    const payload = disputeEvent(
      { paymentIntent: PAYMENT_INTENT, amountTotal: 5000 },
      type,
      type === 'charge.dispute.created' ? 'needs_response' : won ? 'won' : 'lost',
    );
    const res = await deliver(app, {
      payload,
      signature: signature(payload, undefined, WEBHOOK_SECRET),
    });
    expect(res.statusCode).toBe(200);
  }

  it('a dispute: buyer and holder are told the tickets do not admit, and again when it is won; each mail once, across a restart', async () => {
    await paidAndPassedOn();
    await dispute('charge.dispute.created');
    // Stripe repeats itself: a second delivery of the same kind changes nothing.
    await dispute('charge.dispute.created');
    await waitFor(
      () => to(BUYER, /Rückbuchung/).length === 1 && to(HOLDER, /Rückbuchung/).length === 1,
    );
    const buyerMail = to(BUYER, /Rückbuchung/)[0]!;
    expect(buyerMail.text).toMatch(/Hallo Karla Kundin,/);
    expect(buyerMail.text).toMatch(/Bis das geklärt ist, gelten die Tickets nicht für den Einlass/);
    expect(buyerMail.html).toContain('After Work Hamburg');
    expect(to(HOLDER, /Rückbuchung/)[0]!.text).toMatch(/Hallo Mia Meyer,/);

    await dispute('charge.dispute.closed', true);
    await waitFor(
      () => to(BUYER, /gelten wieder/).length === 1 && to(HOLDER, /gelten wieder/).length === 1,
    );
    expect(to(BUYER, /gelten wieder/)[0]!.text).toMatch(/deine Tickets für „.+“.* gelten wieder/s);

    // A restart with every job done sends nothing again.
    await settleOutbox(app);
    await app.close();
    app = await start();
    await settleOutbox(app);
    expect(to(BUYER, /./).map((m) => m.subject)).toHaveLength(2);
    expect(to(HOLDER, /./).map((m) => m.subject)).toHaveLength(2);
  });

  it('refunded at the provider, in part then in full: who lost a ticket is told with what went back, once per refund', async () => {
    await paidAndPassedOn();
    const charge = (refunded: boolean, eventId: string, amountRefunded: number) =>
      signedDelivery({
        id: eventId,
        type: 'charge.refunded',
        object: {
          object: 'charge',
          id: 'ch_notice',
          payment_intent: PAYMENT_INTENT,
          refunded,
          amount_refunded: amountRefunded,
          refunds: { object: 'list', data: [{ id: `re_${eventId}` }] },
        },
      });
    // 25 € cover one ticket: the later seat, Mia's.
    expect((await deliver(app, charge(false, 'evt_part', 2500))).json().outcome).toBe(
      'partially_refunded',
    );
    await deliver(app, charge(false, 'evt_part', 2500));
    await waitFor(
      () =>
        to(BUYER, /Ticket storniert/).length === 1 && to(HOLDER, /Ticket storniert/).length === 1,
    );
    expect(to(BUYER, /Ticket storniert/)[0]!.text).toMatch(/Erstattet wurden insgesamt 25,00\s€/);
    expect(to(BUYER, /Ticket storniert/)[0]!.text).toMatch(/Deine anderen Tickets bleiben gültig/);
    expect(to(HOLDER, /Ticket storniert/)[0]!.text).not.toMatch(/Erstattet/);

    expect((await deliver(app, charge(true, 'evt_full', 5000))).json().outcome).toBe('refunded');
    await waitFor(() => to(BUYER, /Storniert: deine Tickets/).length === 1);
    expect(to(BUYER, /Storniert: deine Tickets/)[0]!.text).toMatch(
      /Erstattet wurden insgesamt 50,00\s€/,
    );
    await settleOutbox(app);
    // Mia's ticket was gone already: the full refund tells the buyer alone.
    expect(to(HOLDER, /./).map((m) => m.subject)).toHaveLength(1);
    expect(to(BUYER, /./).map((m) => m.subject)).toHaveLength(2);
  });
});
