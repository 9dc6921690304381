import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { DoorModule } from '../door/door.module.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { MailModule } from '../mail/mail.module.js';
import { NoticesModule } from '../notices/notices.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { storeRepository, StoreModule } from '../store/store.module.js';
import { TicketsModule } from '../tickets/tickets.module.js';
import { WaitlistModule } from '../waitlist/waitlist.module.js';
import { OrganizerBadges } from './organizer-badges.js';
import { OrganizerCancellations } from './organizer-cancellations.js';
import { OrganizerCode } from './organizer-code.js';
import { OrganizerDashboard } from './organizer-dashboard.js';
import { OrganizerGuestsController } from './organizer-guests.controller.js';
import { OrganizerGuests } from './organizer-guests.js';
import { OrganizerExtrasController } from './organizer-extras.controller.js';
import { OrganizerHandoffsController } from './organizer-handoffs.controller.js';
import { OrganizerNoticesController } from './organizer-notices.controller.js';
import { OrganizerHoldersController } from './organizer-holders.controller.js';
import { OrganizerLive } from './organizer-live.js';
import { OrganizerMails } from './organizer-mail.js';
import { OrganizerMailRepository } from './organizer-mail.port.js';
import { KyselyOrganizerMailRepository } from './organizer-mail.repository.js';
import { OrganizerLockout } from './organizer-lockout.js';
import { OrganizerSessions } from './organizer-session.js';
import {
  KyselyOrganizerSessionRepository,
  OrganizerSessionRepository,
} from './organizer-session.repository.js';
import { OrganizerSignIn } from './organizer-sign-in.js';
import { OrganizerController } from './organizer.controller.js';
import { OrganizerGuard } from './organizer.guard.js';
import { OrganizerOptions } from './organizer.options.js';
import { WordPressAccounts } from './wordpress-accounts.js';

/**
 * The organizer (rules "The organizer"): sign-in to /veranstalter (a WordPress account of
 * the shop, or the organizer code on the demo shop), the session cookie, the dashboard's
 * figures and their live stream. Served by the checkout side; it reads through the ports of
 * the modules that own the data (catalog, orders, tickets, door, waiting list, notices) and writes
 * nothing of theirs, so nothing imports it.
 */
@Module({
  imports: [
    StoreModule,
    CatalogModule,
    OrdersModule,
    TicketsModule,
    DoorModule,
    WaitlistModule,
    MailModule,
    JobsModule,
    NoticesModule,
  ],
  controllers: [
    OrganizerController,
    OrganizerExtrasController,
    OrganizerGuestsController,
    OrganizerHoldersController,
    OrganizerHandoffsController,
    OrganizerNoticesController,
  ],
  providers: [
    OrganizerOptions,
    OrganizerCode,
    storeRepository(OrganizerSessionRepository, (db) => new KyselyOrganizerSessionRepository(db)),
    OrganizerSessions,
    OrganizerLockout,
    WordPressAccounts,
    OrganizerSignIn,
    OrganizerGuard,
    OrganizerDashboard,
    OrganizerLive,
    OrganizerBadges,
    storeRepository(OrganizerMailRepository, (db) => new KyselyOrganizerMailRepository(db)),
    OrganizerMails,
    OrganizerGuests,
    OrganizerCancellations,
  ],
})
export class OrganizerModule {}
