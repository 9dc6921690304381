import { randomBytes } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { maskSecrets } from '../common/log-masking.js';
import { type LogContext, runWithLogContext } from '../common/request-context.js';
import { SerialRunner } from '../common/serial-runner.js';
import { JobRepository, type LeasedJob } from './jobs.port.js';
import { backoffDelay } from './backoff.js';
import { JobHandlers, PermanentJobFailure } from './job-handlers.js';
import { JobOptions } from './job-options.js';
import { JobSignal } from './job-signal.js';

/**
 * `queue`: the jobs callers enqueue (mails, hand-offs, refunds), one at a time in the order
 * they became due; `schedule`: the recurring jobs (sweeps), beside them, so a long sweep
 * never holds up a ticket mail.
 */
type Lane = 'queue' | 'schedule';

/**
 * Runs the store's jobs (docs/decisions/0011-one-job-runner.md): every checkout process
 * polls the `jobs` table and is woken after a commit (`JobSignal`); a lease keeps two
 * processes (or two lanes) from running the same job at once, and a process that dies
 * mid-job leaves it to another once the lease has run out. A failed attempt is retried with
 * the one backoff (backoff.ts), for good: its error stays with the job (`last_error`,
 * masked like the logs, as a mail server's refusal names the recipient) until it succeeds,
 * unless its handler says no retry can succeed (`PermanentJobFailure`): then the job ends
 * as failed with the reason, until it is asked for again.
 * What a job does is its handler's business (`JobHandlers`); the runner knows names only.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Jobs');
  private readonly id = `jobs_${randomBytes(12).toString('base64url')}`;
  private readonly lanes: Record<Lane, SerialRunner> = {
    queue: new SerialRunner(
      () => this.drain('queue'),
      (err) => this.logger.error({ msg: 'job poll failed', error: String(err) }),
    ),
    schedule: new SerialRunner(
      () => this.drain('schedule'),
      (err) => this.logger.error({ msg: 'recurring job poll failed', error: String(err) }),
    ),
  };
  /** Whether this process has made sure every recurring job has its row. */
  private scheduled = false;

  constructor(
    @Inject(JobRepository) private readonly jobs: JobRepository,
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(JobOptions) private readonly options: JobOptions,
    @Inject(JobSignal) signal: JobSignal,
  ) {
    signal.listen(() => this.kick());
  }

  onApplicationBootstrap(): void {
    this.lanes.queue.start(this.options.pollMs);
    this.lanes.schedule.start(this.options.pollMs);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.lanes.queue.stop(), this.lanes.schedule.stop()]);
  }

  /** Runs due jobs now instead of at the next poll. */
  kick(): void {
    this.lanes.queue.kick();
  }

  /** Waits until neither lane is running (tests). */
  async idle(): Promise<void> {
    await Promise.all([this.lanes.queue.idle(), this.lanes.schedule.idle()]);
  }

  /** Runs every job due at `now`, recurring ones first, on a runner that was not started (tests). */
  async runDue(now: number): Promise<void> {
    await this.drain('schedule', now);
    await this.drain('queue', now);
  }

  private async drain(lane: Lane, fixedNow?: number): Promise<void> {
    const clock = () => fixedNow ?? Date.now();
    const leases =
      lane === 'queue'
        ? this.handlers.queuedLeases(this.options.leaseMs)
        : this.handlers.recurringLeases(this.options.leaseMs);
    if (leases.size === 0) return;
    if (lane === 'schedule') await this.schedule(clock());
    // One job at a time per lane: the lease's rule that an owner may take back its own
    // job (job.repository.ts) relies on it.
    const owner = `${this.id}:${lane}`;
    while (!this.lanes[lane].isStopped) {
      const job = await this.jobs.lease(leases, owner, clock());
      if (!job) return;
      // Every log line the job writes names it and what it is about (an order's id, never
      // an address): a job is no request, and the request that queued it is long answered.
      await runWithLogContext(jobLogContext(job, this.handlers.handler(job.name)), () =>
        this.run(job, owner, clock),
      );
    }
  }

  /** Every recurring job gets its row once; a row that exists keeps its schedule. */
  private async schedule(now: number): Promise<void> {
    if (this.scheduled) return;
    for (const name of this.handlers.recurringNames()) {
      const job = this.handlers.recurringJob(name)!;
      await this.jobs.schedule(name, job.firstRunAt?.(now) ?? now, now);
    }
    this.scheduled = true;
  }

  private async run(job: LeasedJob, owner: string, clock: () => number): Promise<void> {
    const handler = this.handlers.handler(job.name);
    const recurring = this.handlers.recurringJob(job.name);
    try {
      if (recurring) {
        const startedAt = clock();
        await recurring.run(startedAt);
        await this.jobs.reschedule(job.id, owner, recurring.nextRunAt(startedAt));
      } else if (handler) {
        await handler.run(job);
        await this.jobs.complete(job.id, clock());
      } else {
        // Not reached: a lane leases only names with a handler.
        throw new Error(`no handler for job ${job.name}`);
      }
    } catch (err) {
      if (err instanceof PermanentJobFailure && !recurring) {
        // No retry can succeed: the job ends here, with its reason, until asked for again.
        const reason = maskSecrets(err.reason);
        this.logger.warn({
          msg: `job ${job.name} failed for good`,
          jobId: job.id,
          ...handler?.describe?.(job.payload),
          attempts: job.attempts,
          error: reason,
        });
        await this.jobs.fail(job.id, clock(), reason);
        return;
      }
      const delay = backoffDelay(job.attempts - 1, this.options.backoff);
      // Kept with the job as well as logged: a mail server's refusal names the recipient.
      const error = maskSecrets(err instanceof Error ? err.message : String(err));
      this.logger.warn({
        msg: `job ${job.name} failed, retrying`,
        jobId: job.id,
        ...handler?.describe?.(job.payload),
        attempts: job.attempts,
        retryInMs: delay,
        error,
      });
      await this.jobs.retry(job.id, owner, clock() + delay, error);
    }
  }
}

/** The job's name and id, and the ids its handler names it by (`describe`). */
function jobLogContext(
  job: LeasedJob,
  handler: { describe?(payload: unknown): Record<string, unknown> } | undefined,
): LogContext {
  const context: LogContext = { job: job.name, jobId: job.id };
  let described: Record<string, unknown> = {};
  try {
    described = handler?.describe?.(job.payload) ?? {};
  } catch {
    // A payload the handler cannot read fails in the handler, where it is logged.
  }
  for (const [field, value] of Object.entries(described)) {
    if (typeof value === 'string' || typeof value === 'number') context[field] = value;
  }
  return context;
}
