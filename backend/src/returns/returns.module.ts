import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { HoldsModule } from '../holds/holds.module.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { MailModule } from '../mail/mail.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { storeRepository, StoreModule } from '../store/store.module.js';
import { TicketsModule } from '../tickets/tickets.module.js';
import { WaitlistModule } from '../waitlist/waitlist.module.js';
import { KyselyTicketReturnRepository } from './ticket-return.repository.js';
import { TicketReturnJobs } from './ticket-return.jobs.js';
import { TicketReturnsController } from './ticket-returns.controller.js';
import { TicketReturnRepository } from './ticket-returns.port.js';
import { TicketReturns } from './ticket-returns.service.js';

/**
 * rules "Giving a ticket back": a paid ticket's place lent to the waiting list of a sold-out
 * evening, and its refund once somebody from the list bought it
 * (docs/decisions/0020-a-returned-ticket-lends-its-place.md). Beside the tickets, the
 * waiting list and the orders it joins; none of them knows of it.
 */
@Module({
  imports: [
    StoreModule,
    CatalogModule,
    HoldsModule,
    JobsModule,
    MailModule,
    OrdersModule,
    TicketsModule,
    WaitlistModule,
  ],
  controllers: [TicketReturnsController],
  providers: [
    storeRepository(TicketReturnRepository, (db) => new KyselyTicketReturnRepository(db)),
    TicketReturnJobs,
    TicketReturns,
  ],
  exports: [TicketReturns],
})
export class ReturnsModule {}
