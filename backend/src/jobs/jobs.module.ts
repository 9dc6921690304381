import { Module } from '@nestjs/common';
import { storeRepositoryWith, StoreModule } from '../store/store.module.js';
import { JobHandlers } from './job-handlers.js';
import { KyselyJobRepository } from './job.repository.js';
import { JobOptions } from './job-options.js';
import { JobRunner } from './job-runner.js';
import { JobSignal } from './job-signal.js';
import { JobsHealth } from './jobs-health.js';
import { JobRepository } from './jobs.port.js';

/**
 * The one job runner (docs/decisions/0011-one-job-runner.md). Modules that own jobs import
 * this module and register their handlers with `JobHandlers`; the jobs themselves are rows
 * of the store's `jobs` table, written by `JobRepository` in the caller's transaction
 * (`tx.get(JobRepository)`), which wakes the runner once that transaction has committed.
 */
@Module({
  imports: [StoreModule],
  providers: [
    storeRepositoryWith(
      JobRepository,
      JobSignal,
      (db, _kind, hooks, signal) => new KyselyJobRepository(db, hooks, signal),
    ),
    JobOptions,
    JobHandlers,
    JobSignal,
    JobRunner,
    JobsHealth,
  ],
  exports: [JobHandlers, JobSignal, JobRepository],
})
export class JobsModule {}
