import { Module } from '@nestjs/common';
import { CalendarService } from '../calendar/calendar.service.js';
import { AppConfig } from '../config/config.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { MailboxRepository } from '../store/store.port.js';
import { StoreModule } from '../store/store.module.js';
import { createMailAdapter } from './mail/mail-adapter.factory.js';
import { MailPort } from './mail/mail.port.js';
import { TicketMailService } from './mail/ticket-mail.service.js';
import { TicketMailJobs } from './ticket-mail.jobs.js';
import { TicketSigner } from './ticket-signer.js';
import { TicketService } from './ticket.service.js';

/**
 * Tickets and their mail (rules "Tickets and the door", "E-mail"): signing, the PDF, the
 * mail port with its SMTP and embedded adapters, the mail's jobs. The checkout side serves
 * the routes, as nginx sends /api/tickets and /api/mail-test there.
 */
@Module({
  imports: [StoreModule, JobsModule],
  providers: [
    TicketSigner,
    TicketService,
    CalendarService,
    {
      provide: MailPort,
      inject: [AppConfig, MailboxRepository],
      useFactory: createMailAdapter,
    },
    TicketMailService,
    TicketMailJobs,
  ],
  exports: [TicketSigner, TicketService, MailPort, TicketMailService],
})
export class TicketsModule {}
