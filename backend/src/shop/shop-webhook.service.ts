import { Inject, Injectable, Logger } from '@nestjs/common';
import { apiError } from '../common/api-error.js';
import { AppConfig } from '../config/config.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { CatalogVersion } from '../catalog/catalog-version.js';
import { SHOP_EVENT_PREFIX, WebhookEventRepository } from '../orders/orders.port.js';
import { ShopOrderSweep } from './shop-order-sweep.js';
import { goneOrder, ShopOrders, type ShopOrderOutcome } from './shop-orders.js';
import type { SweepState } from './shop.port.js';
import {
  readWooDelivery,
  type WooWebhookHeaders,
  WooSignatureError,
  wooOrderId,
  wooOrderState,
} from './woocommerce-webhook.js';

export type ShopOutcome = ShopOrderOutcome | 'ping' | 'catalog_changed';

/**
 * WooCommerce's webhooks (rules "WooCommerce webhooks", "Cancelled in the shop", "Orders
 * made in the shop"): verifies each delivery, answers the ping, and applies what the body
 * says: an order through `ShopOrders` (an order of ours the shop cancelled goes through
 * the order machine, an order made in the shop gets or loses its tickets); a product or
 * coupon change reaches the catalog cache.
 */
@Injectable()
export class ShopWebhookService {
  private readonly logger = new Logger('ShopWebhook');

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(ShopOrders) private readonly orders: ShopOrders,
    @Inject(ShopOrderSweep) private readonly sweep: ShopOrderSweep,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(WebhookEventRepository) private readonly events: WebhookEventRepository,
    @Inject(CatalogVersion) private readonly catalogVersion: CatalogVersion,
  ) {}

  /**
   * rules "Test pages": the shop's last deliveries and what the sweep applied (topic, time,
   * outcome; no bodies), and the sweep's last run (rules "Orders made in the shop").
   */
  async recent(limit = 20): Promise<{
    events: { type: string; receivedAt: string; outcome: string }[];
    sweep: SweepView | null;
  }> {
    const events = await this.events.recent(limit, 'shop');
    return {
      events: events.map((e) => ({
        type: e.type.slice(SHOP_EVENT_PREFIX.length),
        receivedAt: new Date(e.receivedAt).toISOString(),
        outcome: e.outcome,
      })),
      sweep: sweepView(await this.sweep.state()),
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
      let state = wooOrderState(delivery.body);
      const id = wooOrderId(delivery.body);
      if (!state && id) {
        // A body without a state (WooCommerce sends `{"id": N}` for a deleted order): the
        // shop is asked how the order stands now, never the topic.
        const current = await this.catalog.findOrder(id);
        state = current === null ? goneOrder(id) : wooOrderState(current);
      }
      if (!state) {
        if (!(await this.events.record({ id: delivery.key, type: label }, Date.now()))) {
          return 'duplicate';
        }
        await this.events.setOutcome(delivery.key, 'ignored');
        return 'ignored';
      }
      return this.orders.apply({ key: delivery.key, label, quiet: false, state });
    }
    if (delivery.resource === 'product' || delivery.resource === 'coupon') {
      // Kept like the orders' deliveries, so /webhook-test lists them and a redelivery is
      // applied once.
      if (!(await this.events.record({ id: delivery.key, type: label }, Date.now()))) {
        return 'duplicate';
      }
      // Every process, not only this one, serves the change within seconds.
      await this.catalogVersion.changed();
      await this.events.setOutcome(delivery.key, 'catalog_changed');
      this.logger.log({ msg: 'shop event', type: label, outcome: 'catalog_changed' });
      return 'catalog_changed';
    }
    return 'ignored';
  }
}

/** The sweep's last run as /webhook-test shows it: times, counts and the masked error only. */
export interface SweepView {
  lastRunAt: string | null;
  /** Orders changed in the shop up to this moment (the shop's clock) have been read. */
  readUpTo: string | null;
  read: number;
  applied: number;
  error: string | null;
}

function sweepView(state: SweepState | null): SweepView | null {
  if (!state) return null;
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    lastRunAt: iso(state.lastRunAt),
    readUpTo: iso(state.highWater),
    read: state.lastRead,
    applied: state.lastApplied,
    error: state.lastError,
  };
}
