import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
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

/** The products side (catalog, events, blog, coupons); nginx routes these paths here. */
@Module({
  imports: [CatalogModule],
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
