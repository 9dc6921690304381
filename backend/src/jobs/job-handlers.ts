import { Injectable } from '@nestjs/common';
import type { LeasedJob } from './jobs.port.js';

/**
 * Thrown by a handler whose job can never succeed as it stands (a request the other side
 * refuses for good): the runner ends the job as failed with `reason` instead of retrying
 * it. It stays failed until someone fixes the cause and asks for it again
 * (`JobRepository.enqueueAgain`). A handler that records the failure with its own state
 * ends the job in that transaction instead (`JobRepository.fail`).
 */
export class PermanentJobFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'PermanentJobFailure';
  }
}

/** A leased job with its payload as its handler reads it. */
export interface Job<P = unknown> extends LeasedJob {
  readonly payload: P;
}

/** What runs the jobs of one name that callers enqueue (`JobRepository.enqueue`). */
export interface JobHandler<P = unknown> {
  /**
   * Does the job; a throw leaves it to be retried with the runner's backoff, a
   * `PermanentJobFailure` ends it as failed. A job may run twice (its lease ran out
   * mid-way), so this must be idempotent.
   */
  run(job: Job<P>): Promise<void>;
  /** Log fields saying what the job is about: ids, never personal data. */
  describe?(payload: P): Record<string, unknown>;
  /** How long one attempt may take before another process takes it over (default `JobOptions.leaseMs`). */
  leaseMs?: number;
}

/** A job that is never done: one row per deployment that reschedules itself after each run. */
export interface RecurringJob {
  /** One run; `now` is the runner's clock. A throw retries it with the runner's backoff. */
  run(now: number): Promise<void>;
  /** When the next run is due after a run that started at `now`. */
  nextRunAt(now: number): number;
  /** When the first run is due in a store that has never had the job (default: at once). */
  firstRunAt?(now: number): number;
  leaseMs?: number;
}

/**
 * The job names this process can run, each with its handler. The modules that own the work
 * register it in `onModuleInit` (before the runner starts, in `onApplicationBootstrap`), so
 * the runner imports no domain code; a process leases only the jobs it has a handler for.
 */
@Injectable()
export class JobHandlers {
  private readonly queued = new Map<string, JobHandler>();
  private readonly recurringJobs = new Map<string, RecurringJob>();

  register<P>(name: string, handler: JobHandler<P>): void {
    this.claim(name);
    this.queued.set(name, handler as JobHandler);
  }

  recurring(name: string, job: RecurringJob): void {
    this.claim(name);
    this.recurringJobs.set(name, job);
  }

  handler(name: string): JobHandler | undefined {
    return this.queued.get(name);
  }

  recurringJob(name: string): RecurringJob | undefined {
    return this.recurringJobs.get(name);
  }

  /** Names of the enqueued jobs with their lease time. */
  queuedLeases(defaultLeaseMs: number): Map<string, number> {
    return leasesOf(this.queued, defaultLeaseMs);
  }

  /** Names of the recurring jobs with their lease time. */
  recurringLeases(defaultLeaseMs: number): Map<string, number> {
    return leasesOf(this.recurringJobs, defaultLeaseMs);
  }

  recurringNames(): string[] {
    return [...this.recurringJobs.keys()];
  }

  private claim(name: string): void {
    if (this.queued.has(name) || this.recurringJobs.has(name)) {
      throw new Error(`job ${name} has a handler already`);
    }
  }
}

function leasesOf(
  jobs: ReadonlyMap<string, { leaseMs?: number }>,
  defaultLeaseMs: number,
): Map<string, number> {
  return new Map([...jobs].map(([name, job]) => [name, job.leaseMs ?? defaultLeaseMs]));
}
