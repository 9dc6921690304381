import { createHmac } from 'node:crypto';
import couponUpdated from './woocommerce-11/webhooks/coupon.updated.json' with { type: 'json' };
import orderCreatedDraft from './woocommerce-11/webhooks/order.created.checkout-draft.json' with { type: 'json' };
import orderCreatedProcessing from './woocommerce-11/webhooks/order.created.processing.json' with { type: 'json' };
import orderUpdatedCancelledSiteOrder from './woocommerce-11/webhooks/order.updated.cancelled-site-order.json' with { type: 'json' };
import orderUpdatedCancelled from './woocommerce-11/webhooks/order.updated.cancelled.json' with { type: 'json' };
import orderUpdatedRefunded from './woocommerce-11/webhooks/order.updated.refunded.json' with { type: 'json' };
import ping from './woocommerce-11/webhooks/ping.json' with { type: 'json' };
import productUpdatedVariationStock from './woocommerce-11/webhooks/product.updated.variation-stock.json' with { type: 'json' };

/**
 * WooCommerce 11's webhook deliveries as a real shop sent them (`woocommerce-11/webhooks/`,
 * recorded with the secret below): `method`, the `X-WC-Webhook-*` headers and the raw body
 * byte for byte (non-ASCII and slashes escaped as PHP's json_encode does).
 */
export interface WooWebhookRecording {
  method: string;
  headers: Record<string, string>;
  rawBody: string;
}

/** The secret the recorded deliveries are signed with. */
export const RECORDED_WEBHOOK_SECRET = 'whsec_awhh_test';

export const WEBHOOK_RECORDINGS = {
  couponUpdated,
  orderCreatedDraft,
  orderCreatedProcessing,
  orderUpdatedCancelledSiteOrder,
  orderUpdatedCancelled,
  orderUpdatedRefunded,
  ping,
  productUpdatedVariationStock,
} as Record<string, WooWebhookRecording> as {
  [
    name in
      | 'couponUpdated'
      | 'orderCreatedDraft'
      | 'orderCreatedProcessing'
      | 'orderUpdatedCancelledSiteOrder'
      | 'orderUpdatedCancelled'
      | 'orderUpdatedRefunded'
      | 'ping'
      | 'productUpdatedVariationStock'
  ]: WooWebhookRecording;
};

/** WooCommerce's signature: base64 of HMAC-SHA256 over the raw body bytes. */
export function wooSignature(rawBody: string, secret: string): string {
  return createHmac('sha256', secret).update(Buffer.from(rawBody, 'utf8')).digest('base64');
}

/**
 * A recorded delivery as WooCommerce would send it to this site: its raw body with the
 * given text replacements (the order's id, its `awhh_reference`, its status), signed with
 * `secret`, and a delivery id of its own when asked.
 */
export function wooDelivery(
  recording: WooWebhookRecording,
  options: { secret?: string; replace?: [string, string][]; deliveryId?: string } = {},
): WooWebhookRecording {
  let rawBody = recording.rawBody;
  for (const [from, to] of options.replace ?? []) {
    if (!rawBody.includes(from)) throw new Error(`the recorded body has no ${from}`);
    rawBody = rawBody.split(from).join(to);
  }
  const headers = { ...recording.headers };
  if (headers['X-WC-Webhook-Signature'] !== undefined) {
    headers['X-WC-Webhook-Signature'] = wooSignature(
      rawBody,
      options.secret ?? RECORDED_WEBHOOK_SECRET,
    );
  }
  if (options.deliveryId) headers['X-WC-Webhook-Delivery-ID'] = options.deliveryId;
  return { method: recording.method, headers, rawBody };
}
