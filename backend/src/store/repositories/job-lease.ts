import { type ExpressionBuilder, sql } from 'kysely';
import type { StoreDb } from '../store.database.js';
import type { StoreSchema } from '../store.schema.js';

/** The tables of jobs that worker processes lease: the order outbox and the waitlist's mails. */
export type JobTable = 'outbox' | 'waitlist_mails';

/** How many due jobs one lease attempt looks at; another process may win any of them. */
const LEASE_CANDIDATES = 5;

/**
 * Leases the next due job of a table and counts the attempt; answers its id, or undefined
 * when nothing is due. A conditional update decides between competing processes: of the
 * first due jobs, the first one this update still finds free is this owner's.
 */
export async function leaseNextJob(
  db: StoreDb,
  table: JobTable,
  owner: string,
  now: number,
  leaseMs: number,
): Promise<number | undefined> {
  const due = await db
    .selectFrom(table)
    .select('id')
    .where('done_at', 'is', null)
    .where('next_attempt_at', '<=', now)
    .where((eb) => leaseFree(eb, owner, now))
    .orderBy('next_attempt_at')
    // Jobs of one transition in the order it queued them: the ticket mail before the hand-off.
    .orderBy('id')
    .limit(LEASE_CANDIDATES)
    .execute();
  for (const { id } of due) {
    const claimed = await db
      .updateTable(table)
      .set({ lease_owner: owner, lease_until: now + leaseMs, attempts: sql<number>`attempts + 1` })
      .where('id', '=', id)
      .where('done_at', 'is', null)
      .where((eb) => leaseFree(eb, owner, now))
      .returning('id')
      .executeTakeFirst();
    if (claimed) return claimed.id;
  }
  return undefined;
}

/** Marks a leased job done and lets go of its lease. */
export async function completeJob(
  db: StoreDb,
  table: JobTable,
  jobId: number,
  now: number,
): Promise<void> {
  await db
    .updateTable(table)
    .set({ done_at: now, lease_owner: null, lease_until: null, last_error: null })
    .where('id', '=', jobId)
    .execute();
}

/** Schedules a failed job's next attempt, if this owner still holds its lease. */
export async function retryJob(
  db: StoreDb,
  table: JobTable,
  jobId: number,
  owner: string,
  nextAttemptAt: number,
  error: string,
): Promise<void> {
  await db
    .updateTable(table)
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

/**
 * A job may be taken when nobody holds it, its lease ran out, or this very owner holds it:
 * a process runs one job at a time, so a job still leased to it while it asks for the next
 * one is one whose failure could not be written (the store was down), and waiting out
 * the whole lease would only delay it.
 */
function leaseFree(eb: ExpressionBuilder<StoreSchema, JobTable>, owner: string, now: number) {
  return eb.or([
    eb('lease_until', 'is', null),
    eb('lease_until', '<', now),
    eb('lease_owner', '=', owner),
  ]);
}
