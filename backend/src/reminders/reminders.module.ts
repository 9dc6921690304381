import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { MailModule } from '../mail/mail.module.js';
import { storeRepository, StoreModule } from '../store/store.module.js';
import { TicketsModule } from '../tickets/tickets.module.js';
import { RemindersController } from './reminders.controller.js';
import { ReminderRepository } from './reminders.port.js';
import { KyselyReminderRepository } from './reminders.repository.js';
import { TicketReminders } from './reminders.js';

/** rules "Reminders": the checkout side, beside the tickets and the job runner. */
@Module({
  imports: [StoreModule, JobsModule, MailModule, CatalogModule, TicketsModule],
  controllers: [RemindersController],
  providers: [
    storeRepository(ReminderRepository, (db) => new KyselyReminderRepository(db)),
    TicketReminders,
  ],
  exports: [TicketReminders],
})
export class RemindersModule {}
