import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { ShopWebhookController } from './shop-webhook.controller.js';
import { ShopWebhookService } from './shop-webhook.service.js';

/**
 * The shop reaching the site (docs/architecture.md): WooCommerce's webhooks. Orders of
 * ours cancelled in the shop go through the order service; product and coupon changes
 * reach the catalog cache. Nothing imports this module.
 */
@Module({
  imports: [CatalogModule, OrdersModule],
  controllers: [ShopWebhookController],
  providers: [ShopWebhookService],
})
export class ShopModule {}
