import type { StoreDb } from '../store.database.js';
import { type OutboxJob, type OutboxKind, OutboxRepository } from '../store.port.js';
import { completeJob, leaseNextJob, retryJob } from './job-lease.js';

export class KyselyOutboxRepository extends OutboxRepository {
  constructor(private readonly db: StoreDb) {
    super();
  }

  async enqueue(kind: OutboxKind, orderId: string, now: number): Promise<void> {
    await this.db
      .insertInto('outbox')
      .values({ kind, order_id: orderId, attempts: 0, next_attempt_at: now, created_at: now })
      .onConflict((oc) => oc.columns(['kind', 'order_id']).doNothing())
      .execute();
  }

  async enqueueAgain(kind: OutboxKind, orderId: string, now: number): Promise<void> {
    await this.db
      .insertInto('outbox')
      .values({ kind, order_id: orderId, attempts: 0, next_attempt_at: now, created_at: now })
      .onConflict((oc) =>
        oc
          .columns(['kind', 'order_id'])
          .doUpdateSet({ done_at: null, attempts: 0, next_attempt_at: now, last_error: null })
          // A job still due or running sends the current tickets anyway.
          .where('outbox.done_at', 'is not', null),
      )
      .execute();
  }

  async lease(owner: string, now: number, leaseMs: number): Promise<OutboxJob | undefined> {
    const id = await leaseNextJob(this.db, 'outbox', owner, now, leaseMs);
    if (id === undefined) return undefined;
    const job = await this.db
      .selectFrom('outbox')
      .select(['id', 'kind', 'order_id', 'attempts'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return {
      id: job.id,
      kind: job.kind as OutboxKind,
      orderId: job.order_id,
      attempts: job.attempts,
    };
  }

  async complete(jobId: number, now: number): Promise<void> {
    await completeJob(this.db, 'outbox', jobId, now);
  }

  async retry(jobId: number, owner: string, nextAttemptAt: number, error: string): Promise<void> {
    await retryJob(this.db, 'outbox', jobId, owner, nextAttemptAt, error);
  }
}
