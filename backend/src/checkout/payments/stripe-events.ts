import Stripe from 'stripe';
import { normalizeName } from '../buyer-details.js';
import {
  type PaymentEvent,
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookSignatureError,
} from './payments.port.js';

interface SessionLike {
  id?: unknown;
  object?: unknown;
  payment_status?: unknown;
  client_reference_id?: unknown;
  metadata?: Record<string, unknown> | null;
  payment_intent?: unknown;
  customer_details?: { email?: unknown; name?: unknown; individual_name?: unknown } | null;
  customer_email?: unknown;
}

const str = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/** Verifies a delivery with Stripe's scheme (both adapters share it) and reduces it to a PaymentEvent. */
export function verifyStripeDelivery(
  rawBody: Buffer | string,
  signature: string,
  secret: string,
): PaymentEvent {
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (err) {
    throw new WebhookSignatureError(err instanceof Error ? err.message : String(err));
  }
  const object = (event.data?.object ?? {}) as SessionLike;
  const isSession = object.object === 'checkout.session';
  const intent = object.payment_intent;
  return {
    id: event.id,
    type: event.type,
    sessionId: isSession ? str(object.id) : null,
    orderId: isSession ? (str(object.metadata?.order_id) ?? str(object.client_reference_id)) : null,
    paymentStatus: isSession ? str(object.payment_status) : null,
    paymentReference: str(intent) ?? str((intent as { id?: unknown } | null)?.id),
    email: str(object.customer_details?.email) ?? str(object.customer_email),
    name: buyerName(object.customer_details),
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
