import { Inject, Injectable, Logger } from '@nestjs/common';
import { apiError } from '../common/api-error.js';
import { AppConfig } from '../config/config.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { type EventOutcome, OrderService } from '../orders/order.service.js';
import { SHOP_EVENT_PREFIX, WebhookEventRepository } from '../orders/orders.port.js';
import {
  readWooDelivery,
  type WooWebhookHeaders,
  WooSignatureError,
  wooOrderState,
} from './woocommerce-webhook.js';

export type ShopOutcome = EventOutcome | 'ping' | 'catalog_changed';

/**
 * WooCommerce's webhooks (rules "WooCommerce webhooks", "Cancelled in the shop"): verifies
 * each delivery, answers the ping, and applies what the body says: an order of ours the
 * shop cancelled goes through the order machine; a product or coupon change reaches the
 * catalog cache.
 */
@Injectable()
export class ShopWebhookService {
  private readonly logger = new Logger('ShopWebhook');

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(OrderService) private readonly orders: OrderService,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(WebhookEventRepository) private readonly events: WebhookEventRepository,
  ) {}

  /** rules "Test pages": the shop's last deliveries (topic, time, outcome; no bodies). */
  async recent(
    limit = 20,
  ): Promise<{ events: { type: string; receivedAt: string; outcome: string }[] }> {
    const events = await this.events.recent(limit, 'shop');
    return {
      events: events.map((e) => ({
        type: e.type.slice(SHOP_EVENT_PREFIX.length),
        receivedAt: new Date(e.receivedAt).toISOString(),
        outcome: e.outcome,
      })),
    };
  }

  async deliver(rawBody: Buffer, headers: WooWebhookHeaders): Promise<ShopOutcome> {
    const secret = this.config.woocommerce?.webhookSecret;
    if (!secret) {
      throw apiError(503, 'Webhooks von WooCommerce sind hier nicht eingerichtet.');
    }
    let delivery;
    try {
      delivery = readWooDelivery(rawBody, headers, secret);
    } catch (err) {
      if (!(err instanceof WooSignatureError)) throw err;
      // Never the body: it carries the buyer's address.
      this.logger.warn({
        msg: 'shop webhook refused',
        reason: err.message,
        topic: headers.topic?.slice(0, 64),
        bytes: rawBody.length,
      });
      throw apiError(401, 'Die Signatur dieses Webhook-Aufrufs fehlt oder ist ungültig.');
    }
    if (delivery.kind === 'ping') return 'ping';
    const label = `${SHOP_EVENT_PREFIX}${delivery.topic || 'unbekannt'}`;
    if (delivery.resource === 'order') {
      const state = wooOrderState(delivery.body);
      return this.orders.receiveFromShop({
        id: delivery.key,
        label,
        reference: state?.reference ?? null,
        catalogOrderId: state?.id ?? null,
        cancelled: state?.cancelled ?? false,
      });
    }
    if (delivery.resource === 'product' || delivery.resource === 'coupon') {
      // Kept like the orders' deliveries, so /webhook-test lists them and a redelivery is
      // applied once.
      if (!(await this.events.record({ id: delivery.key, type: label }, Date.now()))) {
        return 'duplicate';
      }
      this.catalog.invalidate();
      await this.events.setOutcome(delivery.key, 'catalog_changed');
      this.logger.log({ msg: 'shop event', type: label, outcome: 'catalog_changed' });
      return 'catalog_changed';
    }
    return 'ignored';
  }
}
