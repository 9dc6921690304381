import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What WooCommerce reports of an order that the site no longer admits (rules "Cancelled in
 * the shop"): the trash too, which the shop's order list shows as a status.
 */
const CANCELLED_STATUSES = new Set(['cancelled', 'refunded', 'failed', 'trash']);

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

/** An order line as the shop renders it: the line item's id keeps its seats apart. */
export interface WooOrderLine {
  /** WooCommerce's line item id: stable while the order exists. */
  id: number;
  productId: number;
  variationId: number | null;
  name: string;
  quantity: number;
  /** The line's total per unit after discounts, integer cents. */
  unitAmount: number;
}

/** An order as a delivery's body (or the shop's order list) shows it: its state at that moment. */
export interface WooOrderState {
  id: string;
  /** WooCommerce's order number (the id unless a plugin numbers orders). */
  number: string;
  status: string;
  /** The site's own order id, set on every order the site handed off. */
  reference: string | null;
  cancelled: boolean;
  /** `date_modified_gmt` in epoch ms: which of two reports is the later; null when absent. */
  modifiedAt: number | null;
  /** The billing address, when it looks like one. */
  email: string | null;
  /** The billing first and last name. */
  holder: string | null;
  /** The order's total, integer cents; null when the body has none. */
  total: number | null;
  lines: WooOrderLine[];
  /** The shop keeps refunds of it (`refunds` in the body): some of its lines may be refunded. */
  hasRefunds: boolean;
}

/** More lines than any order of ours has; a body with more is cut here. */
const MAX_LINES = 100;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}\.[^\s@]{2,}$/;
const GMT_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

export function wooOrderState(body: unknown): WooOrderState | null {
  if (!isRecord(body)) return null;
  const order = body;
  const id = typeof order.id === 'number' || typeof order.id === 'string' ? String(order.id) : '';
  const status = typeof order.status === 'string' ? order.status.slice(0, 40) : '';
  if (!/^\d{1,20}$/.test(id) || !status) return null;
  const number = typeof order.number === 'string' && order.number.trim() ? order.number.trim() : id;
  const modified =
    typeof order.date_modified_gmt === 'string' && GMT_DATE.test(order.date_modified_gmt)
      ? Date.parse(`${order.date_modified_gmt}Z`)
      : NaN;
  const billing = isRecord(order.billing) ? order.billing : {};
  const text = (value: unknown, max: number) =>
    typeof value === 'string' ? value.trim().replace(/\s+/g, ' ').slice(0, max) : '';
  const email = text(billing.email, 254);
  const holder = [text(billing.first_name, 60), text(billing.last_name, 60)]
    .filter(Boolean)
    .join(' ');
  return {
    id,
    number: number.slice(0, 40),
    status,
    reference: metaText(order, 'awhh_reference'),
    cancelled: CANCELLED_STATUSES.has(status),
    modifiedAt: Number.isFinite(modified) ? modified : null,
    email: EMAIL.test(email) ? email : null,
    holder: holder || null,
    total: cents(order.total),
    lines: (Array.isArray(order.line_items) ? order.line_items : [])
      .slice(0, MAX_LINES)
      .map(orderLine)
      .filter((line): line is WooOrderLine => line !== null),
    hasRefunds: Array.isArray(order.refunds) && order.refunds.length > 0,
  };
}

function orderLine(value: unknown): WooOrderLine | null {
  if (!isRecord(value)) return null;
  const id = Number(value.id);
  const productId = Number(value.product_id);
  const variationId = Number(value.variation_id);
  const quantity = Number(value.quantity);
  if (![id, productId, quantity].every((n) => Number.isSafeInteger(n) && n > 0)) return null;
  const total = cents(value.total) ?? 0;
  return {
    id,
    productId,
    variationId: Number.isSafeInteger(variationId) && variationId > 0 ? variationId : null,
    name: typeof value.name === 'string' ? value.name.slice(0, 200) : '',
    quantity,
    unitAmount: Math.round(total / quantity),
  };
}

/** WooCommerce's money strings ("49.00") in integer cents; null when not a number. */
function cents(value: unknown): number | null {
  const n = typeof value === 'string' || typeof value === 'number' ? Number(value) : NaN;
  return value !== '' && Number.isFinite(n) ? Math.round(n * 100) : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The order's id alone: what WooCommerce sends when an order was deleted (`{"id": 34}`). */
export function wooOrderId(body: unknown): string | null {
  if (!isRecord(body)) return null;
  const id = typeof body.id === 'number' || typeof body.id === 'string' ? String(body.id) : '';
  return /^\d{1,20}$/.test(id) ? id : null;
}
