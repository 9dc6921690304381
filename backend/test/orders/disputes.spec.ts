import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { orderSummarySchema } from '@awhh/machines';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  disputeEvent,
  type DisputeStatus,
  FakeStripe,
  signature,
} from '../../../tests/support/fake-stripe.js';
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
  WEBHOOK_SECRET,
  waitFor,
  STRIPE_KEY,
} from '../support/checkout-test-app.js';

jest.setTimeout(60_000);

const CODE = '9FV8-CBU9-PH7Q-23V5';
const PAYMENT_INTENT = 'pi_disputed_1';

describe.each(API_DATABASES)('chargebacks (%s)', (kind) => {
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
      env: { CHECKIN_CODE: CODE },
    });
    // The door's tables reference tickets: emptied before the shared reset.
    const store = app.get(StoreDatabase).db;
    await store.deleteFrom('checkin_scans').execute();
    await store.deleteFrom('checkins').execute();
    await resetStore(app);
  });
  afterEach(async () => {
    await app.close();
  });

  /** Two seats of event 101, paid through Stripe's webhook; the session id. */
  async function paidOrder(): Promise<string> {
    const res = await postCheckout(app, checkoutBody([line(101, 25, 2)]));
    expect(res.statusCode).toBe(201);
    const sessionId: string = res.json().id;
    const paid = await deliver(
      app,
      signedDelivery({
        id: 'evt_paid',
        type: 'checkout.session.completed',
        object: {
          id: sessionId,
          payment_status: 'paid',
          payment_intent: PAYMENT_INTENT,
          customer_details: { email: 'gast@example.org', individual_name: 'Gast Muster' },
        },
      }),
    );
    expect(paid.json().outcome).toBe('paid');
    await waitFor(() => catalog.orders.size === 1);
    return sessionId;
  }

  /** A dispute event in Stripe's own shape, signed as Stripe signs it. */
  async function dispute(
    type: 'charge.dispute.created' | 'charge.dispute.closed',
    status: DisputeStatus,
    paymentIntent = PAYMENT_INTENT,
  ): Promise<string> {
    const payload = disputeEvent({ paymentIntent, amountTotal: 5000 }, type, status);
    const res = await deliver(app, {
      payload,
      signature: signature(payload, undefined, WEBHOOK_SECRET),
    });
    expect(res.statusCode).toBe(200);
    return res.json().outcome;
  }

  async function tickets(sessionId: string) {
    const res = await inject(app, { method: 'GET', url: `/api/checkout/session/${sessionId}` });
    return orderSummarySchema.parse(res.json()).tickets;
  }

  /** What the ticket page and the door say about each of the order's tickets. */
  async function seen(sessionId: string) {
    const tokens = (await tickets(sessionId)).map((t) => t.token);
    const page = await Promise.all(
      tokens.map(async (token) => {
        const res = await inject(app, { method: 'GET', url: `/api/tickets/${token}` });
        return res.json().status as string;
      }),
    );
    const scans = tokens.map((token, i) => ({
      scanId: `scan-${Date.now()}-${i}`,
      token,
      scannedAt: Date.now(),
      device: 'Tür 1',
    }));
    const door = await inject(app, {
      method: 'POST',
      url: '/api/checkin/scans',
      headers: { authorization: `Bearer ${CODE}`, 'x-forwarded-for': freshIp() },
      payload: { scans },
    });
    expect(door.statusCode).toBe(200);
    const results = door.json().results as { status: string }[];
    return { page, door: results.map((r) => r.status) };
  }

  it('charge.dispute.created revokes the order’s tickets: the ticket page and the door say revoked', async () => {
    const sessionId = await paidOrder();
    expect((await tickets(sessionId)).map((t) => t.status)).toEqual(['valid', 'valid']);

    expect(await dispute('charge.dispute.created', 'needs_response')).toBe('disputed');
    expect(await seen(sessionId)).toEqual({
      page: ['revoked', 'revoked'],
      door: ['revoked', 'revoked'],
    });
    // Stripe is not asked for a refund: the bank holds the money already.
    expect(stripe.requestsTo('/v1/refunds')).toHaveLength(0);
  });

  it('a dispute closed as won restores them; a lost one leaves them revoked', async () => {
    const sessionId = await paidOrder();
    await dispute('charge.dispute.created', 'needs_response');
    expect(await dispute('charge.dispute.closed', 'won')).toBe('dispute_won');
    expect((await tickets(sessionId)).map((t) => t.status)).toEqual(['valid', 'valid']);
    const won = await seen(sessionId);
    expect(won.page).toEqual(['valid', 'valid']);
    expect(won.door).toEqual(['ok', 'ok']);

    // A second chargeback on the same payment, this time lost.
    expect(await dispute('charge.dispute.created', 'needs_response')).toBe('disputed');
    expect(await dispute('charge.dispute.closed', 'lost')).toBe('ignored');
    expect((await seen(sessionId)).page).toEqual(['revoked', 'revoked']);
  });

  it('an inquiry closed without a chargeback restores the tickets too', async () => {
    const sessionId = await paidOrder();
    expect(await dispute('charge.dispute.created', 'warning_needs_response')).toBe('disputed');
    expect(await dispute('charge.dispute.closed', 'warning_closed')).toBe('dispute_won');
    expect((await tickets(sessionId)).map((t) => t.status)).toEqual(['valid', 'valid']);
  });

  it('a dispute of a payment the shop does not know, or a won one never opened, changes nothing', async () => {
    const sessionId = await paidOrder();
    expect(await dispute('charge.dispute.created', 'needs_response', 'pi_elsewhere')).toBe(
      'unknown_order',
    );
    expect(await dispute('charge.dispute.closed', 'won')).toBe('unchanged');
    expect((await tickets(sessionId)).map((t) => t.status)).toEqual(['valid', 'valid']);
  });
});
