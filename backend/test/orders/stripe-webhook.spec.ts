import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { StoreDatabase } from '../../src/store/store.database.js';
import { FakeStripe } from '../../../tests/support/fake-stripe.js';
import {
  checkoutBody,
  createTestApp,
  createTestDatabase,
  DATABASES,
  deliver,
  FakeCatalog,
  fastOptions,
  inject,
  line,
  postCheckout,
  PUBLIC_URL,
  resetStore,
  signedDelivery,
  waitFor,
  STRIPE_KEY,
} from '../support/checkout-test-app.js';

jest.setTimeout(60_000);

describe.each(DATABASES)('Stripe adapter and webhook (%s)', (kind) => {
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
    stripe.requests.length = 0;
    stripe.failWith = null;
    catalog = new FakeCatalog();
    app = await createTestApp({
      databaseUrl: db.url,
      catalog,
      stripeApiBase: stripe.url,
      options: fastOptions(),
    });
    await resetStore(app);
  });
  afterEach(async () => {
    await app.close();
  });

  async function order(sessionId: string) {
    return (await inject(app, { method: 'GET', url: `/api/checkout/session/${sessionId}` })).json();
  }

  async function orderId(sessionId: string): Promise<string> {
    const row = await app
      .get(StoreDatabase)
      .db.selectFrom('orders')
      .select('id')
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function startCheckout(body = checkoutBody([line(101, 25, 2)])) {
    const res = await postCheckout(app, body);
    expect(res.statusCode).toBe(201);
    const sessionId: string = res.json().id;
    return { sessionId, orderId: await orderId(sessionId) };
  }

  it('sends Stripe exactly the server-priced Checkout Session', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await postCheckout(
      app,
      checkoutBody([line(101, 25, 2), line(102, 12.5, 1)], {
        coupon: { code: 'FUENF', discountType: 'fixed_cart', discount: 5 },
        payment_method: 'card',
        email: 'gast@example.org',
      }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: 'cs_test_fake_2',
      url: 'https://checkout.stripe.com/c/pay/cs_test_fake_2',
    });
    const id = await orderId('cs_test_fake_2');

    const [couponCall] = stripe.requestsTo('/v1/coupons');
    expect(couponCall!.idempotencyKey).toBe(`awhh-coupon-${id}`);
    expect(couponCall!.form).toEqual({
      amount_off: '500',
      currency: 'eur',
      duration: 'once',
      max_redemptions: '1',
      name: 'FUENF',
      'metadata[order_id]': id,
    });

    const [sessionCall] = stripe.requestsTo('/v1/checkout/sessions');
    expect(sessionCall!.authorization).toBe('Bearer sk_test_checkout_suite');
    expect(sessionCall!.idempotencyKey).toBe(`awhh-session-${id}`);
    const { expires_at, ...form } = sessionCall!.form;
    expect(form).toEqual({
      mode: 'payment',
      'line_items[0][quantity]': '2',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '2500',
      'line_items[0][price_data][product_data][name]': 'Afterwork im Hafen',
      'line_items[0][price_data][product_data][images][0]': `${PUBLIC_URL}/images/101.jpg`,
      'line_items[1][quantity]': '1',
      'line_items[1][price_data][currency]': 'eur',
      'line_items[1][price_data][unit_amount]': '1250',
      'line_items[1][price_data][product_data][name]': 'AWHH Stofftasche',
      'line_items[1][price_data][product_data][images][0]': `${PUBLIC_URL}/images/102.jpg`,
      'allowed_payment_method_types[0]': 'card',
      locale: 'de',
      client_reference_id: id,
      'metadata[order_id]': id,
      'payment_intent_data[metadata][order_id]': id,
      'name_collection[individual][enabled]': 'true',
      'name_collection[individual][optional]': 'false',
      success_url: `${PUBLIC_URL}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${PUBLIC_URL}/cart`,
      'discounts[0][coupon]': 'co_fake_1',
      customer_email: 'gast@example.org',
    });
    const expiresIn = Number(expires_at) - before;
    expect(expiresIn).toBeGreaterThanOrEqual(30 * 60);
    expect(expiresIn).toBeLessThanOrEqual(32 * 60);
    expect((await order('cs_test_fake_2')).total).toBe(5750);
  });

  it('maps payment_method to Stripe payment method types and rejects unknown ones', async () => {
    await postCheckout(app, checkoutBody([line(102, 12.5)], { payment_method: 'sepa_debit' }));
    expect(
      stripe.requestsTo('/v1/checkout/sessions')[0]!.form['allowed_payment_method_types[0]'],
    ).toBe('sepa_debit');
    const bad = await postCheckout(
      app,
      checkoutBody([line(102, 12.5)], { payment_method: 'bitcoin' }),
    );
    expect(bad.statusCode).toBe(400);
  });

  it('answers 502 and releases the places when Stripe is down', async () => {
    stripe.failWith = 500;
    const res = await postCheckout(app, checkoutBody([line(103, 30, 2)]));
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/Zahlung kann gerade nicht gestartet werden/);
    stripe.failWith = null;
    expect((await postCheckout(app, checkoutBody([line(103, 30, 2)]))).statusCode).toBe(201);
  });

  it('rejects forged and stale signatures with 400 and changes nothing', async () => {
    const { sessionId, orderId: id } = await startCheckout();
    const event = {
      id: 'evt_forged',
      type: 'checkout.session.completed',
      object: { id: sessionId, metadata: { order_id: id }, payment_status: 'paid' },
    };
    const forged = await deliver(app, signedDelivery(event, { secret: 'whsec_someone_else' }));
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toMatch(/Signatur/);
    const stale = await deliver(
      app,
      signedDelivery(event, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
    );
    expect(stale.statusCode).toBe(400);
    const tampered = signedDelivery(event);
    const altered = await deliver(app, {
      payload: tampered.payload.replace('"paid"', '"paid" '),
      signature: tampered.signature,
    });
    expect(altered.statusCode).toBe(400);
    const unsigned = await inject(app, {
      method: 'POST',
      url: '/api/checkout/webhook',
      payload: { id: 'evt_x', type: 'checkout.session.completed' },
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await order(sessionId)).status).toBe('open');
    expect(catalog.createOrderCalls).toBe(0);
  });

  it('five deliveries out of order make one paid order and one hand-off', async () => {
    const { sessionId, orderId: id } = await startCheckout();
    const session = (payment_status: string) => ({
      id: sessionId,
      metadata: { order_id: id },
      client_reference_id: id,
      payment_status,
      payment_intent: 'pi_123',
      customer_details: { email: 'gast@example.org' },
    });
    const succeeded = signedDelivery({
      id: 'evt_async_ok',
      type: 'checkout.session.async_payment_succeeded',
      object: session('paid'),
    });
    const completed = signedDelivery({
      id: 'evt_completed',
      type: 'checkout.session.completed',
      object: session('unpaid'),
    });
    const expired = signedDelivery({
      id: 'evt_expired',
      type: 'checkout.session.expired',
      object: session('unpaid'),
    });
    // The success event first, then the older ones, each delivered repeatedly and concurrently.
    const deliveries = [succeeded, completed, succeeded, expired, succeeded];
    const responses = await Promise.all(deliveries.map((d) => deliver(app, d)));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    for (const d of [completed, expired, succeeded])
      expect((await deliver(app, d)).statusCode).toBe(200);

    await waitFor(() => catalog.orders.size === 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(catalog.orders.size).toBe(1);
    expect(catalog.createOrderCalls).toBe(1);
    const handOff = catalog.orders.get(id)!.order;
    expect(handOff).toMatchObject({
      reference: id,
      email: 'gast@example.org',
      paymentReference: 'pi_123',
      total: 5000,
    });
    const summary = await order(sessionId);
    expect(summary).toMatchObject({ status: 'paid', orderNumber: '1000', refunded: false });

    const events = (
      await inject(app, { method: 'GET', url: '/api/checkout/webhook/events' })
    ).json();
    expect(events.mode).toBe('stripe');
    expect(events.events).toHaveLength(3);
    expect(JSON.stringify(events)).not.toMatch(/gast@example\.org|pi_123/);
  });

  it('accepts a late payment while capacity remains', async () => {
    const { sessionId, orderId: id } = await startCheckout(checkoutBody([line(103, 30, 1)]));
    const object = {
      id: sessionId,
      metadata: { order_id: id },
      payment_status: 'paid',
      payment_intent: 'pi_late',
    };
    await deliver(app, signedDelivery({ id: 'evt_exp', type: 'checkout.session.expired', object }));
    expect((await order(sessionId)).status).toBe('expired');
    const paid = await deliver(
      app,
      signedDelivery({ id: 'evt_paid', type: 'checkout.session.completed', object }),
    );
    expect(paid.json().outcome).toBe('paid');
    await waitFor(() => catalog.orders.size === 1);
    expect(stripe.requestsTo('/v1/refunds')).toHaveLength(0);
  });

  it('refunds a late payment when the places are gone', async () => {
    const late = await startCheckout(checkoutBody([line(103, 30, 2)]));
    const object = {
      id: late.sessionId,
      metadata: { order_id: late.orderId },
      payment_status: 'paid',
      payment_intent: 'pi_too_late',
    };
    await deliver(
      app,
      signedDelivery({ id: 'evt_exp2', type: 'checkout.session.expired', object }),
    );
    // Someone else takes the last two shirts meanwhile.
    await startCheckout(checkoutBody([line(103, 30, 2)]));
    const paid = await deliver(
      app,
      signedDelivery({ id: 'evt_paid2', type: 'checkout.session.completed', object }),
    );
    expect(paid.json().outcome).toBe('refund_pending');
    await waitFor(() => stripe.requestsTo('/v1/refunds').length === 1);
    const [refund] = stripe.requestsTo('/v1/refunds');
    expect(refund!.form).toEqual({
      payment_intent: 'pi_too_late',
      amount: '6000',
      reason: 'requested_by_customer',
    });
    expect(refund!.idempotencyKey).toBe(`awhh-refund-${late.orderId}`);
    await waitFor(async () => (await order(late.sessionId)).refunded === true);
    expect((await order(late.sessionId)).status).toBe('canceled');
    expect(catalog.orders.size).toBe(0);
  });

  it('rules "Tickets and the door": a charge refunded in full at Stripe refunds the order and revokes its tickets; a partial refund keeps the order and the tickets it does not cover (rules "Refunds")', async () => {
    const { sessionId, orderId: id } = await startCheckout();
    const object = {
      id: sessionId,
      metadata: { order_id: id },
      payment_status: 'paid',
      payment_intent: 'pi_refund_me',
      customer_details: { email: 'gast@example.org', individual_name: 'Gast Muster' },
    };
    await deliver(
      app,
      signedDelivery({ id: 'evt_pay', type: 'checkout.session.completed', object }),
    );
    await waitFor(() => catalog.orders.size === 1);
    const tickets = () =>
      app
        .get(StoreDatabase)
        .db.selectFrom('tickets')
        .select('status')
        .where('order_id', '=', id)
        .execute();
    expect((await tickets()).map((t) => t.status)).toEqual(['valid', 'valid']);

    // The charge carries no order id (Stripe copies no metadata onto it): the payment
    // intent finds the order.
    const charge = (refunded: boolean, eventId: string, amountRefunded = 5000) =>
      signedDelivery({
        id: eventId,
        type: 'charge.refunded',
        object: {
          object: 'charge',
          id: 'ch_1',
          payment_intent: 'pi_refund_me',
          refunded,
          amount_refunded: amountRefunded,
          refunds: { object: 'list', data: [{ id: `re_${eventId}` }] },
        },
      });
    // 10 € of two 25 € tickets: both stay valid.
    const partial = await deliver(app, charge(false, 'evt_partial', 1000));
    expect(partial.json().outcome).toBe('partially_refunded');
    expect((await order(sessionId)).status).toBe('paid');
    expect((await tickets()).map((t) => t.status)).toEqual(['valid', 'valid']);
    // The shop records what went back so far.
    await waitFor(() => catalog.refunds.get(id) === 1000);
    // 35 € in all cover one ticket: one goes, the other still admits.
    await deliver(app, charge(false, 'evt_partial_more', 3500));
    expect((await tickets()).map((t) => t.status).sort()).toEqual(['revoked', 'valid']);
    await waitFor(() => catalog.refunds.get(id) === 3500);

    const full = await deliver(app, charge(true, 'evt_full'));
    expect(full.json().outcome).toBe('refunded');
    expect((await tickets()).map((t) => t.status)).toEqual(['revoked', 'revoked']);
    expect(await order(sessionId)).toMatchObject({ status: 'canceled', refunded: true });
    await waitFor(() => catalog.refunds.get(id) === 5000);
    // The same refund again (a redelivery under a new event id) changes nothing.
    expect((await deliver(app, charge(true, 'evt_full_again'))).json().outcome).toBe('unchanged');
    // Stripe is not asked to refund what it reported refunded.
    expect(stripe.requestsTo('/v1/refunds')).toHaveLength(0);
  });

  it('a refund for a payment the shop does not know changes nothing', async () => {
    const res = await deliver(
      app,
      signedDelivery({
        id: 'evt_foreign_refund',
        type: 'charge.refunded',
        object: { object: 'charge', id: 'ch_x', payment_intent: 'pi_elsewhere', refunded: true },
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().outcome).toBe('unknown_order');
  });

  it('webhook/test exists only in test mode', async () => {
    const res = await inject(app, { method: 'POST', url: '/api/checkout/webhook/test' });
    expect(res.statusCode).toBe(404);
  });
});
