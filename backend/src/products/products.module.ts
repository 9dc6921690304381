import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { HoldsModule } from '../holds/holds.module.js';
import {
  BlogController,
  CouponsController,
  EventsController,
  FaqController,
  FeedController,
  MerchController,
  PrivacyController,
} from './products.controller.js';
import { ProductsService } from './products.service.js';

/**
 * The products side (catalog, events, blog, coupons); nginx routes these paths here. The
 * coupon check reads the uses open checkouts hold (the holds, in the shared store).
 */
@Module({
  imports: [CatalogModule, HoldsModule],
  controllers: [
    FeedController,
    EventsController,
    MerchController,
    BlogController,
    CouponsController,
    FaqController,
    PrivacyController,
  ],
  providers: [ProductsService],
  exports: [ProductsService],
})
export class ProductsModule {}
