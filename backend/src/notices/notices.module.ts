import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module.js';
import { MailModule } from '../mail/mail.module.js';
import { storeRepository, StoreModule } from '../store/store.module.js';
import { OrganizerNoticeJobs } from './organizer-notice.jobs.js';
import { KyselyOrganizerNoticeRepository } from './organizer-notice.repository.js';
import { OrganizerNoticeRepository } from './organizer-notices.port.js';

/**
 * What the organizer must be told about the shop (docs/ledger.md "Told to the organizer"):
 * raised by the orders and shop modules in their transactions (`raiseOrganizerNotice`),
 * mailed to ORGANIZER_EMAIL and listed on the dashboard by the organizer module. Imports no
 * domain module.
 */
@Module({
  imports: [StoreModule, JobsModule, MailModule],
  providers: [
    storeRepository(OrganizerNoticeRepository, (db) => new KyselyOrganizerNoticeRepository(db)),
    OrganizerNoticeJobs,
  ],
  exports: [OrganizerNoticeRepository],
})
export class NoticesModule {}
