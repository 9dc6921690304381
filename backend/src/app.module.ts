import { type DynamicModule, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { ContactModule } from './contact/contact.module.js';
import { DoorModule } from './door/door.module.js';
import { MailModule } from './mail/mail.module.js';
import { OrdersModule } from './orders/orders.module.js';
import { OrganizerModule } from './organizer/organizer.module.js';
import { PrivacyModule } from './privacy/privacy.module.js';
import { ShopModule } from './shop/shop.module.js';
import { TicketsModule } from './tickets/tickets.module.js';
import { WalletModule } from './tickets/wallet/wallet.module.js';
import { WaitlistModule } from './waitlist/waitlist.module.js';
import { AppConfigModule } from './common/app-config.module.js';
import type { AppConfig } from './config/config.js';
import { HealthModule } from './health/health.module.js';
import { OpsModule } from './ops/ops.module.js';
import { ProductsModule } from './products/products.module.js';
import { CalendarModule } from './calendar/calendar.module.js';
import { ReturnsModule } from './returns/returns.module.js';
import { RemindersModule } from './reminders/reminders.module.js';
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

    // Events between modules, published after a commit (docs/architecture.md, "Events").
    const imports: ModuleImport[] = [
      AppConfigModule.forRoot(config),
      EventEmitterModule.forRoot(),
      HealthModule,
      OpsModule,
    ];
    if (servesProducts) imports.push(ProductsModule, CalendarModule);
    // The checkout side: orders and everything that happens to them or beside them. The
    // door lives beside the tickets it checks (rules "Tickets and the door").
    if (servesCheckout) {
      imports.push(
        OrdersModule,
        TicketsModule,
        WalletModule,
        DoorModule,
        WaitlistModule,
        MailModule,
        ContactModule,
        PrivacyModule,
        ShopModule,
        OrganizerModule,
        RemindersModule,
        ReturnsModule,
      );
    }
    // SiteModule goes last (only with config.staticDir and when the products side is
    // served), so its catch-all routes never shadow an API route.
    if (servesProducts && config.staticDir) imports.push(SiteModule);

    return { module: AppModule, imports };
  }
}
