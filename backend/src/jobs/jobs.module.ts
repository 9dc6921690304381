import { Module } from '@nestjs/common';
import { storeRepository, StoreModule } from '../store/store.module.js';
import { JobHandlers } from './job-handlers.js';
import { KyselyJobRepository } from './job.repository.js';
import { JobOptions } from './job-options.js';
import { JobRunner } from './job-runner.js';
import { JobSignal } from './job-signal.js';
import { JobsHealth } from './jobs-health.js';
import { JobRepository } from './jobs.port.js';

/**
 * The one job runner (docs/decisions/0011-one-job-runner.md). Modules that own jobs import
 * this module, register their handlers with `JobHandlers` and wake the runner with
 * `JobSignal` after a commit; the jobs themselves are rows of the store's `jobs` table,
 * written by `JobRepository` in the caller's transaction (`tx.get(JobRepository)`).
 */
@Module({
  imports: [StoreModule],
  providers: [
    storeRepository(JobRepository, (db) => new KyselyJobRepository(db)),
    JobOptions,
    JobHandlers,
    JobSignal,
    JobRunner,
    JobsHealth,
  ],
  exports: [JobHandlers, JobSignal, JobRepository],
})
export class JobsModule {}
