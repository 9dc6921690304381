import { type ExpressionBuilder, type Insertable, sql } from 'kysely';
import type { StoreDb } from '../store/store.database.js';
import { type CommitHooks, COMMITTED } from '../store/store.port.js';
import type { JobSignal } from './job-signal.js';
import { JobRepository, type LeasedJob, type NewJob } from './jobs.port.js';
import type { JobsTable, StoreSchema } from '../store/store.schema.js';

/** How many due jobs one lease attempt looks at; another process may win any of them. */
const LEASE_CANDIDATES = 5;

/** The key of a recurring job's one row. */
const RECURRING_KEY = 'recurring';

/**
 * The `jobs` table on Kysely; `db` is the store or one transaction. A job enqueued wakes
 * this process's runner once the transaction has committed (`hooks`), so it runs now
 * rather than at the next poll; nobody wakes the runner by hand.
 */
export class KyselyJobRepository extends JobRepository {
  constructor(
    private readonly db: StoreDb,
    private readonly hooks: CommitHooks = COMMITTED,
    private readonly signal: JobSignal | null = null,
  ) {
    super();
  }

  private wakeAfterCommit(): void {
    const signal = this.signal;
    if (signal) this.hooks.afterCommit(() => signal.wake(), 'jobs.wake');
  }

  async enqueue(job: NewJob, now: number): Promise<void> {
    await this.db
      .insertInto('jobs')
      .values(newRow(job, now))
      .onConflict((oc) => oc.columns(['name', 'key']).doNothing())
      .execute();
    this.wakeAfterCommit();
  }

  async enqueueAgain(job: NewJob, now: number, againAfterMs = 0): Promise<void> {
    const row = newRow(job, now);
    await this.db
      .insertInto('jobs')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['name', 'key'])
          .doUpdateSet({
            payload: row.payload,
            done_at: null,
            failed_at: null,
            attempts: 0,
            next_attempt_at: now,
            requested_at: now,
            last_error: null,
          })
          .where('jobs.done_at', 'is not', null)
          .where('jobs.requested_at', '<=', now - againAfterMs),
      )
      .execute();
    this.wakeAfterCommit();
  }

  async schedule(name: string, runAt: number, now: number): Promise<void> {
    await this.db
      .insertInto('jobs')
      .values({
        ...newRow({ name, key: RECURRING_KEY, payload: null }, now),
        next_attempt_at: runAt,
      })
      .onConflict((oc) => oc.columns(['name', 'key']).doNothing())
      .execute();
  }

  /**
   * A conditional update decides between competing processes: of the first due jobs, the
   * first one this update still finds free is this owner's, and the attempt is counted.
   */
  async lease(
    leases: ReadonlyMap<string, number>,
    owner: string,
    now: number,
  ): Promise<LeasedJob | undefined> {
    if (leases.size === 0) return undefined;
    const due = await this.db
      .selectFrom('jobs')
      .select(['id', 'name'])
      .where('done_at', 'is', null)
      .where('next_attempt_at', '<=', now)
      .where('name', 'in', [...leases.keys()])
      .where((eb) => leaseFree(eb, owner, now))
      .orderBy('next_attempt_at')
      // Jobs of one transition in the order it queued them: the ticket mail before the hand-off.
      .orderBy('id')
      .limit(LEASE_CANDIDATES)
      .execute();
    for (const { id, name } of due) {
      const claimed = await this.db
        .updateTable('jobs')
        .set({
          lease_owner: owner,
          lease_until: now + (leases.get(name) ?? 0),
          attempts: sql<number>`attempts + 1`,
        })
        .where('id', '=', id)
        .where('done_at', 'is', null)
        .where((eb) => leaseFree(eb, owner, now))
        .returning(['id', 'name', 'payload', 'attempts', 'requested_at'])
        .executeTakeFirst();
      if (claimed) {
        return {
          id: claimed.id,
          name: claimed.name,
          payload: JSON.parse(claimed.payload) as unknown,
          attempts: claimed.attempts,
          requestedAt: claimed.requested_at,
        };
      }
    }
    return undefined;
  }

  async complete(jobId: number, now: number): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ done_at: now, lease_owner: null, lease_until: null, last_error: null })
      .where('id', '=', jobId)
      .where('done_at', 'is', null)
      .execute();
  }

  async fail(jobId: number, now: number, reason: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      // Done as far as the lease is concerned, so no process takes it again.
      .set({
        done_at: now,
        failed_at: now,
        lease_owner: null,
        lease_until: null,
        last_error: reason.slice(0, 500),
      })
      .where('id', '=', jobId)
      .where('done_at', 'is', null)
      .execute();
  }

  async retry(jobId: number, owner: string, nextAttemptAt: number, error: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        next_attempt_at: nextAttemptAt,
        lease_owner: null,
        lease_until: null,
        last_error: error.slice(0, 500),
      })
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .execute();
  }

  async reschedule(jobId: number, owner: string, nextRunAt: number): Promise<void> {
    await this.db
      .updateTable('jobs')
      // Attempts count per run: the next run's first failure waits the shortest delay.
      .set({
        next_attempt_at: nextRunAt,
        attempts: 0,
        lease_owner: null,
        lease_until: null,
        last_error: null,
      })
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .execute();
  }
}

function newRow(job: NewJob, now: number): Insertable<JobsTable> {
  return {
    name: job.name,
    key: job.key ?? null,
    subject: job.subject ?? null,
    payload: JSON.stringify(job.payload ?? null),
    attempts: 0,
    next_attempt_at: now,
    requested_at: now,
    created_at: now,
  };
}

/**
 * A job may be taken when nobody holds it, its lease ran out, or this very owner holds it:
 * an owner (one lane of a process) runs one job at a time, so a job still leased to it
 * while it asks for the next one is one whose failure could not be written (the store was
 * down), and waiting out the whole lease would only delay it.
 */
function leaseFree(eb: ExpressionBuilder<StoreSchema, 'jobs'>, owner: string, now: number) {
  return eb.or([
    eb('lease_until', 'is', null),
    eb('lease_until', '<', now),
    eb('lease_owner', '=', owner),
  ]);
}

/** Due, unfinished jobs of one name (the metrics' queue depth and oldest age). */
export interface DueJobs {
  name: string;
  depth: number;
  /** The earliest `next_attempt_at` among them, epoch ms. */
  oldestDueAt: number;
}

/** One grouped query on `jobs_due_idx` (done_at, next_attempt_at), read at each scrape. */
export async function dueJobs(db: StoreDb, now: number): Promise<DueJobs[]> {
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => [
      'name',
      eb.fn.countAll().as('depth'),
      eb.fn.min('next_attempt_at').as('oldest'),
    ])
    .where('done_at', 'is', null)
    .where('next_attempt_at', '<=', now)
    .groupBy('name')
    .execute();
  return rows.map((row) => ({
    name: row.name,
    depth: Number(row.depth),
    oldestDueAt: Number(row.oldest),
  }));
}
