/**
 * The jobs' store port (docs/decisions/0011-one-job-runner.md); the Kysely adapter is
 * `job.repository.ts`. A caller enqueues in its own transaction: `tx.get(JobRepository)`.
 */

/**
 * A job as its caller enqueues it, in the caller's transaction (docs/decisions/
 * 0011-one-job-runner.md): the runner runs it once the transaction has committed.
 */
export interface NewJob {
  /** The name its handler is registered under (`jobs/job-handlers.ts`). */
  name: string;
  /** Stored as JSON: ids, never personal data. */
  payload: unknown;
  /** One job per name and key, however often it is asked for; null: no such limit. */
  key?: string | null;
  /**
   * The order or waiting-list entry the job is about: erasing the order's personal data
   * clears the job's error, deleting the entry deletes the job.
   */
  subject?: string | null;
}

export interface LeasedJob {
  id: number;
  name: string;
  /** As enqueued, parsed from its JSON. */
  payload: unknown;
  /** Including the current one. */
  attempts: number;
  /** When it was last asked for (`enqueue`, `enqueueAgain`). */
  requestedAt: number;
}

/**
 * The `jobs` table: work that must survive a restart (rules "Webhook", "E-mail", "Waiting
 * list"), and the recurring jobs, one row each that reschedules itself.
 */
export abstract class JobRepository {
  /** Due at once; a job of this name and key that exists already (done or not) is left as it is. */
  abstract enqueue(job: NewJob, now: number): Promise<void>;
  /**
   * As `enqueue`, and a finished (or failed) job of this name and key is made due again, unless it was
   * last asked for less than `againAfterMs` before `now` (a job still due or running does
   * the current work anyway).
   */
  abstract enqueueAgain(job: NewJob, now: number, againAfterMs?: number): Promise<void>;
  /** A recurring job's row, first due at `runAt`, unless it exists. */
  abstract schedule(name: string, runAt: number, now: number): Promise<void>;
  /**
   * Takes one due job of these names for `owner`, each name with its lease time; another
   * owner's lapsed lease is taken over. Undefined when none is due.
   */
  abstract lease(
    leases: ReadonlyMap<string, number>,
    owner: string,
    now: number,
  ): Promise<LeasedJob | undefined>;
  /** Done, unless it was done already (a hand-off completes its job in its own transaction). */
  abstract complete(jobId: number, now: number): Promise<void>;
  /**
   * Ends the job as failed for good, unless it is done already: it keeps `reason` in
   * `last_error` and is never leased again until `enqueueAgain` asks for it anew.
   */
  abstract fail(jobId: number, now: number, reason: string): Promise<void>;
  /** Gives the job back, due again at `nextAttemptAt`, if `owner` still holds it. */
  abstract retry(jobId: number, owner: string, nextAttemptAt: number, error: string): Promise<void>;
  /** A recurring job ran: due again at `nextRunAt`, if `owner` still holds it. */
  abstract reschedule(jobId: number, owner: string, nextRunAt: number): Promise<void>;
}
