import { Module } from '@nestjs/common';
import { StoreModule } from '../store/store.module.js';
import { JobHandlers } from './job-handlers.js';
import { JobOptions } from './job-options.js';
import { JobRunner } from './job-runner.js';
import { JobSignal } from './job-signal.js';

/**
 * The one job runner (docs/decisions/0011-one-job-runner.md). Modules that own jobs import
 * this module, register their handlers with `JobHandlers` and wake the runner with
 * `JobSignal` after a commit; the jobs themselves are rows of the store's `jobs` table,
 * written by `JobRepository` in the caller's transaction.
 */
@Module({
  imports: [StoreModule],
  providers: [JobOptions, JobHandlers, JobSignal, JobRunner],
  exports: [JobHandlers, JobSignal],
})
export class JobsModule {}
