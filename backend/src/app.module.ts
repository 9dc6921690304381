import { type DynamicModule, Module } from '@nestjs/common';
import { CheckinModule } from './checkin/checkin.module.js';
import { CheckoutModule } from './checkout/checkout.module.js';
import { AppConfigModule } from './common/app-config.module.js';
import type { AppConfig } from './config/config.js';
import { HealthModule } from './health/health.module.js';
import { ProductsModule } from './products/products.module.js';
import { CalendarModule } from './calendar/calendar.module.js';
import { SiteModule } from './site/site.module.js';

type ModuleImport = NonNullable<DynamicModule['imports']>[number];

/**
 * MODULES selects what this process serves (docs/architecture.md, "The processes": one
 * image, `products`, `checkout` or `all`). Health is always served; the site (built
 * frontend) is registered last.
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    const servesProducts = config.modules === 'products' || config.modules === 'all';
    const servesCheckout = config.modules === 'checkout' || config.modules === 'all';

    const imports: ModuleImport[] = [AppConfigModule.forRoot(config), HealthModule];
    if (servesProducts) imports.push(ProductsModule, CalendarModule);
    // The door check-in lives beside the tickets it checks (rules "Tickets and the door").
    if (servesCheckout) imports.push(CheckoutModule, CheckinModule);
    // SiteModule goes last (only with config.staticDir and when the products side is
    // served), so its catch-all routes never shadow an API route.
    if (servesProducts && config.staticDir) imports.push(SiteModule);

    return { module: AppModule, imports };
  }
}
