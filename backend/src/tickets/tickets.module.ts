import { Module } from '@nestjs/common';
import { CalendarService } from '../calendar/calendar.service.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { MailModule } from '../mail/mail.module.js';
import { NoticesModule } from '../notices/notices.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { storeRepository, StoreModule } from '../store/store.module.js';
import { TicketMailService } from './mail/ticket-mail.service.js';
import { TicketEffects } from './ticket-effects.js';
import { TicketMailJobs } from './ticket-mail.jobs.js';
import { TicketOrders } from './ticket-orders.js';
import { KyselyTicketRepository } from './ticket.repository.js';
import { TicketHolderService } from './ticket-holders.service.js';
import { TicketResendService } from './ticket-resend.service.js';
import { TicketNoticeJobs } from './ticket-notice.jobs.js';
import { TicketTransferJobs } from './ticket-transfer.jobs.js';
import { TicketSigner } from './ticket-signer.js';
import { TicketService } from './ticket.service.js';
import { TicketsController } from './tickets.controller.js';
import { TicketRepository } from './tickets.port.js';

/**
 * Tickets (rules "Tickets and the door", "E-mail"): issuing seats on the paid transition
 * (`TicketEffects`, registered with the orders' `OrderEffects`), signing, the PDF, the
 * ticket page's API, the ticket mail and its resend as jobs.
 */
@Module({
  imports: [StoreModule, JobsModule, MailModule, OrdersModule, NoticesModule],
  controllers: [TicketsController],
  providers: [
    storeRepository(TicketRepository, (db) => new KyselyTicketRepository(db)),
    TicketSigner,
    TicketService,
    CalendarService,
    TicketMailService,
    TicketMailJobs,
    TicketResendService,
    TicketEffects,
    TicketOrders,
    TicketHolderService,
    TicketTransferJobs,
    TicketNoticeJobs,
  ],
  exports: [TicketSigner, TicketRepository, TicketOrders, TicketHolderService, TicketService],
})
export class TicketsModule {}
