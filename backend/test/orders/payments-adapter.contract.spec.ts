import {
  type PaymentSessionRequest,
  type PaymentsPort,
  WebhookSignatureError,
} from '../../src/orders/payments/payments.port.js';
import { StripePaymentsAdapter } from '../../src/orders/payments/stripe-payments.adapter.js';
import { TestPaymentsAdapter } from '../../src/orders/payments/test-payments.adapter.js';
import { FakeStripe } from '../../../tests/support/fake-stripe.js';
import { PUBLIC_URL, signedDelivery, WEBHOOK_SECRET } from '../support/checkout-test-app.js';

// The payments port's contract, run against every adapter: neutral events from webhooks
// and from the provider's own state (rules "The order's life": reconciliation).

interface Harness {
  adapter: PaymentsPort;
  /** The buyer pays on the provider's page. */
  pay(session: { id: string; orderId: string }): void;
  /** The session ends unpaid. */
  end(session: { id: string; orderId: string }): void;
}

const BUYER = { email: 'gast@example.org', name: 'Karla Kundin' };

function request(orderId: string): PaymentSessionRequest {
  return {
    orderId,
    currency: 'eur',
    lines: [{ name: 'Afterwork im Hafen', unitAmount: 2500, quantity: 2, image: null }],
    discount: null,
    paymentMethodTypes: ['card'],
    email: null,
    successUrl: `${PUBLIC_URL}/success?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${PUBLIC_URL}/cart`,
    expiresAt: Date.now() + 31 * 60_000,
  };
}

const stripe = new FakeStripe();
beforeAll(() => stripe.start());
afterAll(() => stripe.stop());

const adapters: [string, () => Harness][] = [
  [
    'stripe (against the fake Stripe API)',
    () => ({
      adapter: new StripePaymentsAdapter(
        { secretKey: stripe.secretKey, webhookSecret: WEBHOOK_SECRET, apiBase: stripe.url },
        PUBLIC_URL,
      ),
      pay: ({ id }) => void stripe.pay(id, BUYER),
      end: ({ id }) => stripe.expire(id),
    }),
  ],
  [
    'test provider',
    () => {
      const adapter = new TestPaymentsAdapter(PUBLIC_URL);
      return {
        adapter,
        pay: (session) => void adapter.complete(session, BUYER),
        end: (session) => void adapter.cancel(session),
      };
    },
  ],
];

describe.each(adapters)('payments port contract: %s', (_name, make) => {
  it('a session the buyer has not finished is no event yet', async () => {
    const { adapter } = make();
    const session = await adapter.createSession(request('ord_open'));
    expect(session.url).toMatch(/^https?:\/\//);
    expect(await adapter.retrieveSession(session.id)).toBeNull();
  });

  it('a paid session reads as payment.succeeded with its order, payment reference and buyer', async () => {
    const harness = make();
    const session = await harness.adapter.createSession(request('ord_paid'));
    harness.pay({ id: session.id, orderId: 'ord_paid' });
    expect(await harness.adapter.retrieveSession(session.id)).toEqual({
      type: 'payment.succeeded',
      sessionId: session.id,
      orderId: 'ord_paid',
      paymentReference: expect.any(String),
      email: BUYER.email,
      name: BUYER.name,
    });
  });

  it('a session that ended unpaid reads as session.expired', async () => {
    const harness = make();
    const session = await harness.adapter.createSession(request('ord_gone'));
    harness.end({ id: session.id, orderId: 'ord_gone' });
    expect(await harness.adapter.retrieveSession(session.id)).toMatchObject({
      type: 'session.expired',
      sessionId: session.id,
      orderId: 'ord_gone',
    });
  });

  it('refuses a delivery signed with another secret', () => {
    const { adapter } = make();
    const forged = signedDelivery(
      { id: 'evt_forged', type: 'checkout.session.completed', object: { id: 'cs_x' } },
      { secret: 'whsec_someone_else' },
    );
    expect(() => adapter.parseWebhook(forged.payload, forged.signature)).toThrow(
      WebhookSignatureError,
    );
  });
});

describe('Stripe deliveries as neutral events (rules "The order\'s life")', () => {
  const adapter = new StripePaymentsAdapter(
    { secretKey: 'sk_test_contract', webhookSecret: WEBHOOK_SECRET, apiBase: 'http://127.0.0.1:1' },
    PUBLIC_URL,
  );
  const parse = (type: string, object: Record<string, unknown> = {}) => {
    const { payload, signature } = signedDelivery({
      id: 'evt_1',
      type,
      object: {
        id: 'cs_1',
        metadata: { order_id: 'ord_1' },
        payment_intent: 'pi_1',
        payment_status: 'paid',
        ...object,
      },
    });
    return adapter.parseWebhook(payload, signature);
  };

  it.each([
    ['checkout.session.completed', 'paid', 'payment.succeeded'],
    ['checkout.session.completed', 'no_payment_required', 'payment.succeeded'],
    ['checkout.session.completed', 'unpaid', 'payment.pending'],
    ['checkout.session.async_payment_succeeded', 'paid', 'payment.succeeded'],
    ['checkout.session.async_payment_failed', 'unpaid', 'payment.failed'],
    ['checkout.session.expired', 'unpaid', 'session.expired'],
  ])('%s (%s) → %s', (type, paymentStatus, neutral) => {
    const delivery = parse(type, { payment_status: paymentStatus });
    expect(delivery).toEqual({
      id: 'evt_1',
      label: type,
      test: false,
      event: {
        type: neutral,
        sessionId: 'cs_1',
        orderId: 'ord_1',
        paymentReference: 'pi_1',
        email: null,
        name: null,
      },
    });
  });

  it('events the order does not follow carry no event; the order id falls back to client_reference_id', () => {
    expect(parse('checkout.session.async_payment_pending').event).toBeNull();
    expect(parse('customer.created', { object: 'customer' }).event).toBeNull();
    expect(
      parse('checkout.session.completed', { metadata: null, client_reference_id: 'ord_2' }).event,
    ).toMatchObject({ orderId: 'ord_2' });
  });

  it('a delivery is verified over the exact bytes', () => {
    const { payload, signature } = signedDelivery({
      id: 'evt_2',
      type: 'checkout.session.completed',
      object: { id: 'cs_2' },
    });
    expect(() => adapter.parseWebhook(payload + ' ', signature)).toThrow(WebhookSignatureError);
  });
});
