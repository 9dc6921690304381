import { EventEmitter2 } from '@nestjs/event-emitter';
import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { HoldsModule } from '../holds/holds.module.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { MailModule } from '../mail/mail.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { storeRepositoryWith, StoreModule } from '../store/store.module.js';
import { WaitlistMailer } from './waitlist-mailer.js';
import { WaitlistPass } from './waitlist-pass.js';
import { WaitlistController } from './waitlist.controller.js';
import { WaitlistRepository } from './waitlist.port.js';
import { KyselyWaitlistRepository } from './waitlist.repository.js';
import { WaitlistService } from './waitlist.service.js';

/**
 * rules "Waiting list": joining, confirming, offers (holds claimable by the offer's link),
 * the offer pass and its mails; served where the checkouts are, whose holds its offers
 * share. It hears of freed places through the `places.released` event and of claimed
 * offers through the holds' claim listeners; the orders module knows nothing of it (it
 * reads only the checkout's timings from there).
 */
@Module({
  imports: [StoreModule, CatalogModule, HoldsModule, JobsModule, MailModule, OrdersModule],
  controllers: [WaitlistController],
  providers: [
    storeRepositoryWith(
      WaitlistRepository,
      EventEmitter2,
      (db, kind, hooks, events) => new KyselyWaitlistRepository(db, kind, hooks, events),
    ),
    WaitlistService,
    WaitlistPass,
    WaitlistMailer,
  ],
  // The organizer's dashboard shows the queue lengths (rules "The organizer").
  // Returned tickets lend their places to the queue through the pass (rules "Giving a
  // ticket back").
  exports: [WaitlistRepository, WaitlistPass],
})
export class WaitlistModule {}
