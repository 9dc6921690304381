import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { MailModule } from '../mail/mail.module.js';
import { NoticesModule } from '../notices/notices.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { storeRepository, StoreModule } from '../store/store.module.js';
import { TicketsModule } from '../tickets/tickets.module.js';
import { KyselyShopOrderRepository, KyselyShopSweepRepository } from './shop-order.repository.js';
import { ShopOrderSweep, ShopSweepOptions } from './shop-order-sweep.js';
import { ShopOrders } from './shop-orders.js';
import { ShopWebhookController } from './shop-webhook.controller.js';
import { ShopVerification } from './shop-verification.js';
import { ShopWebhookService } from './shop-webhook.service.js';
import { ShopOrderRepository, ShopSweepRepository } from './shop.port.js';

/**
 * The shop reaching the site (docs/architecture.md): WooCommerce's webhooks and the sweep
 * of the shop's changed orders (rules "Orders made in the shop"). Orders of ours cancelled
 * in the shop go through the order service; orders made in the shop get their tickets
 * through the tickets module (`TicketOrders`); product and coupon changes reach the
 * catalog cache. Nothing imports this module.
 */
@Module({
  imports: [
    StoreModule,
    JobsModule,
    CatalogModule,
    OrdersModule,
    TicketsModule,
    MailModule,
    NoticesModule,
  ],
  controllers: [ShopWebhookController],
  providers: [
    storeRepository(ShopOrderRepository, (db, kind) => new KyselyShopOrderRepository(db, kind)),
    storeRepository(ShopSweepRepository, (db) => new KyselyShopSweepRepository(db)),
    ShopSweepOptions,
    ShopOrders,
    ShopOrderSweep,
    ShopWebhookService,
    ShopVerification,
  ],
})
export class ShopModule {}
