import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module.js';
import { storeAdapter, StoreModule } from '../store/store.module.js';
import { PersonalDataRetention } from './personal-data-retention.js';
import { PrivacyRepository } from './privacy.port.js';
import { KyselyPrivacyRepository } from './privacy.repository.js';

/**
 * The daily erasure of personal data past its period, a recurring job (docs/privacy.md).
 * Its repository reaches every table with personal data, in a transaction of its own.
 */
@Module({
  imports: [StoreModule, JobsModule],
  providers: [
    storeAdapter(PrivacyRepository, (store) => new KyselyPrivacyRepository(store)),
    PersonalDataRetention,
  ],
})
export class PrivacyModule {}
