import Stripe from 'stripe';
import { normalizeName } from '../buyer-details.js';
import {
  type PaymentDelivery,
  type PaymentEvent,
  type PaymentEventType,
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookSignatureError,
} from './payments.port.js';

/** The test provider's signed event for the webhook test page (rules "Test pages"). */
export const WEBHOOK_TEST_EVENT = 'awhh.webhook_test';

interface SessionLike {
  id?: unknown;
  object?: unknown;
  status?: unknown;
  payment_status?: unknown;
  client_reference_id?: unknown;
  metadata?: Record<string, unknown> | null;
  payment_intent?: unknown;
  customer_details?: { email?: unknown; name?: unknown; individual_name?: unknown } | null;
  customer_email?: unknown;
}

const str = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/**
 * Verifies a delivery with Stripe's scheme (both adapters share it) and translates it into
 * a neutral event.
 */
export function verifyStripeDelivery(
  rawBody: Buffer | string,
  signature: string,
  secret: string,
): PaymentDelivery {
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (err) {
    throw new WebhookSignatureError(err instanceof Error ? err.message : String(err));
  }
  const object = (event.data?.object ?? {}) as SessionLike & ChargeLike;
  const type = object.object === 'checkout.session' ? deliveredType(event.type, object) : null;
  return {
    id: event.id,
    label: event.type,
    test: (event.type as string) === WEBHOOK_TEST_EVENT,
    event: type
      ? neutralEvent(type, object)
      : event.type === 'charge.refunded'
        ? refundEvent(object)
        : disputeEvent(event.type, object as DisputeLike),
  };
}

interface DisputeLike {
  object?: unknown;
  payment_intent?: unknown;
  status?: unknown;
}

/**
 * A chargeback: the buyer's bank disputes the payment. Opened (an inquiry too: the money
 * is at risk), the order's tickets stop admitting anyone; closed in the shop's favour
 * (`won`, or an inquiry closed without a chargeback, `warning_closed`), they admit again.
 * Lost, they stay revoked. The dispute names its payment intent, the order's payment
 * reference.
 */
function disputeEvent(stripeType: string, dispute: DisputeLike): PaymentEvent | null {
  if (dispute.object !== 'dispute') return null;
  const type =
    stripeType === 'charge.dispute.created'
      ? 'dispute.opened'
      : stripeType === 'charge.dispute.closed' &&
          (dispute.status === 'won' || dispute.status === 'warning_closed')
        ? 'dispute.won'
        : null;
  const paymentReference =
    str(dispute.payment_intent) ?? str((dispute.payment_intent as { id?: unknown } | null)?.id);
  if (!type || !paymentReference) return null;
  return { type, sessionId: null, orderId: null, paymentReference, email: null, name: null };
}

interface ChargeLike {
  object?: unknown;
  id?: unknown;
  payment_intent?: unknown;
  /** True once the whole amount is refunded. */
  refunded?: unknown;
  /** Cents refunded so far (Stripe: `amount_refunded`). */
  amount_refunded?: unknown;
  metadata?: Record<string, unknown> | null;
  refunds?: { data?: { id?: unknown }[] } | null;
}

/**
 * rules "Tickets and the door": a charge refunded in full (the organizer refunding a
 * buyer in Stripe's dashboard, or Stripe confirming the server's own refund) refunds the
 * order and revokes its tickets. The charge names its payment intent, which the order
 * keeps as its payment reference. A partial refund (rules "Refunds reach the shop")
 * carries what was refunded so far: the shop records it, and the order and its tickets
 * stay as they are: which seats it stands for only the organizer knows.
 */
function refundEvent(charge: ChargeLike): PaymentEvent | null {
  if (charge.object !== 'charge') return null;
  const full = charge.refunded === true;
  const amountRefunded =
    typeof charge.amount_refunded === 'number' && Number.isInteger(charge.amount_refunded)
      ? charge.amount_refunded
      : null;
  if (!full && (amountRefunded === null || amountRefunded <= 0)) return null;
  const paymentReference =
    str(charge.payment_intent) ?? str((charge.payment_intent as { id?: unknown } | null)?.id);
  if (!paymentReference) return null;
  return {
    type: 'payment.refunded',
    sessionId: null,
    orderId: str(charge.metadata?.order_id),
    paymentReference,
    refundReference: str(charge.refunds?.data?.[0]?.id) ?? str(charge.id),
    ...(full ? {} : { amountRefunded }),
    email: null,
    name: null,
  };
}

/**
 * Stripe's Checkout Session events, neutral: a completed session is paid, or an async
 * method (SEPA) has started and settles with one of the `async_payment_*` events.
 */
function deliveredType(stripeType: string, session: SessionLike): PaymentEventType | null {
  switch (stripeType) {
    case 'checkout.session.completed':
      return isPaid(session) ? 'payment.succeeded' : 'payment.pending';
    case 'checkout.session.async_payment_succeeded':
      return 'payment.succeeded';
    case 'checkout.session.async_payment_failed':
      return 'payment.failed';
    case 'checkout.session.expired':
      return 'session.expired';
    default:
      return null;
  }
}

/**
 * A retrieved session (`payment_intent` expanded) as the event its webhook would have
 * brought; null while it is open. A failed async payment leaves the session complete and
 * unpaid, and its payment intent waiting for another method.
 */
export function retrievedSessionEvent(session: SessionLike): PaymentEvent | null {
  if (session.status === 'expired') return neutralEvent('session.expired', session);
  if (session.status !== 'complete') return null;
  if (isPaid(session)) return neutralEvent('payment.succeeded', session);
  const intentStatus = (session.payment_intent as { status?: unknown } | null)?.status;
  const failed = intentStatus === 'requires_payment_method' || intentStatus === 'canceled';
  return neutralEvent(failed ? 'payment.failed' : 'payment.pending', session);
}

function isPaid(session: SessionLike): boolean {
  return session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
}

function neutralEvent(type: PaymentEventType, session: SessionLike): PaymentEvent {
  const intent = session.payment_intent;
  return {
    type,
    sessionId: str(session.id),
    orderId: str(session.metadata?.order_id) ?? str(session.client_reference_id),
    paymentReference: str(intent) ?? str((intent as { id?: unknown } | null)?.id),
    email: str(session.customer_details?.email) ?? str(session.customer_email),
    name: buyerName(session.customer_details),
  };
}

/**
 * `individual_name` is what Checkout's name collection asks for; `name` (the billing or
 * cardholder name) stands in for sessions without it.
 */
function buyerName(details: SessionLike['customer_details']): string | null {
  for (const candidate of [details?.individual_name, details?.name]) {
    const name = typeof candidate === 'string' ? normalizeName(candidate) : '';
    if (name !== '') return name;
  }
  return null;
}
