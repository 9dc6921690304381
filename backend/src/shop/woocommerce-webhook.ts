import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** What WooCommerce reports of an order that the site no longer admits (rules "Cancelled in the shop"). */
const CANCELLED_STATUSES = new Set(['cancelled', 'refunded', 'failed']);

/** The `X-WC-Webhook-*` headers a delivery carries (lower-case, as Node gives them). */
export interface WooWebhookHeaders {
  signature?: string;
  topic?: string;
  deliveryId?: string;
  webhookId?: string;
}

export type WooDelivery =
  /** The unsigned ping on a webhook's creation: form-encoded `webhook_id=N`. */
  | { kind: 'ping' }
  | {
      kind: 'signed';
      /** Delivery id, webhook id and a hash of the body: the key a delivery is applied once by. */
      key: string;
      topic: string;
      resource: string;
      body: unknown;
    };

export class WooSignatureError extends Error {}

/**
 * WooCommerce's signature: base64 of HMAC-SHA256 over the raw body bytes with the webhook's
 * secret (never over re-serialised JSON: WooCommerce escapes non-ASCII and slashes).
 * Compared in constant time.
 */
export function verifyWooSignature(rawBody: Buffer, signature: string, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  let given: Buffer;
  try {
    given = Buffer.from(signature.trim(), 'base64');
  } catch {
    return false;
  }
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const PING = /^webhook_id=\d{1,12}$/;

/**
 * Reads one delivery: the ping (no `X-WC-*` headers, no signature, `webhook_id=N`), or a
 * signed delivery verified with `secret`. Anything else throws WooSignatureError.
 */
export function readWooDelivery(
  rawBody: Buffer,
  headers: WooWebhookHeaders,
  secret: string,
): WooDelivery {
  if (!headers.signature && !headers.topic && PING.test(rawBody.toString('latin1').trim())) {
    return { kind: 'ping' };
  }
  if (!headers.signature || !verifyWooSignature(rawBody, headers.signature, secret)) {
    throw new WooSignatureError('missing or wrong signature');
  }
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new WooSignatureError('signed body is not JSON');
  }
  const topic = (headers.topic ?? '').slice(0, 64);
  // WooCommerce derives the delivery id from the webhook and the second it was sent, so two
  // deliveries may share one: the body's hash tells them apart.
  const hash = createHash('sha256').update(rawBody).digest('hex').slice(0, 32);
  const key = `wc:${(headers.webhookId ?? '').slice(0, 20)}:${(headers.deliveryId ?? '').slice(0, 64)}:${hash}`;
  return { kind: 'signed', key, topic, resource: topic.split('.')[0] ?? '', body };
}

/** The meta value of `key` in WooCommerce's `meta_data: [{id, key, value}]`, as text. */
function metaText(body: Record<string, unknown>, key: string): string | null {
  if (!Array.isArray(body.meta_data)) return null;
  for (const entry of body.meta_data as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const meta = entry as { key?: unknown; value?: unknown };
    if (meta.key !== key) continue;
    if (typeof meta.value === 'string' && meta.value.trim()) return meta.value.trim();
    if (typeof meta.value === 'number') return String(meta.value);
  }
  return null;
}

/** An order as a delivery's body shows it: the state when the delivery was sent. */
export interface WooOrderState {
  id: string;
  status: string;
  /** The site's own order id, set on every order the site handed off. */
  reference: string | null;
  cancelled: boolean;
}

export function wooOrderState(body: unknown): WooOrderState | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const order = body as Record<string, unknown>;
  const id = typeof order.id === 'number' || typeof order.id === 'string' ? String(order.id) : '';
  const status = typeof order.status === 'string' ? order.status : '';
  if (!/^\d{1,20}$/.test(id) || !status) return null;
  return {
    id,
    status,
    reference: metaText(order, 'awhh_reference'),
    cancelled: CANCELLED_STATUSES.has(status),
  };
}
