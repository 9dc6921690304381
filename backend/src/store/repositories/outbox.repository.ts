import { type ExpressionBuilder, sql } from 'kysely';
import type { StoreDb } from '../store.database.js';
import type { StoreSchema } from '../store.schema.js';
import { type OutboxJob, type OutboxKind, OutboxRepository } from '../store.port.js';

/** How many due jobs one lease attempt looks at; another process may win any of them. */
const LEASE_CANDIDATES = 5;

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

  /** A conditional update decides between competing processes. */
  async lease(owner: string, now: number, leaseMs: number): Promise<OutboxJob | undefined> {
    const due = await this.db
      .selectFrom('outbox')
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
      const claimed = await this.db
        .updateTable('outbox')
        .set({
          lease_owner: owner,
          lease_until: now + leaseMs,
          attempts: sql<number>`attempts + 1`,
        })
        .where('id', '=', id)
        .where('done_at', 'is', null)
        .where((eb) => leaseFree(eb, owner, now))
        .returning(['id', 'kind', 'order_id', 'attempts'])
        .executeTakeFirst();
      if (claimed) {
        return {
          id: claimed.id,
          kind: claimed.kind as OutboxKind,
          orderId: claimed.order_id,
          attempts: claimed.attempts,
        };
      }
    }
    return undefined;
  }

  async complete(jobId: number, now: number): Promise<void> {
    await this.db
      .updateTable('outbox')
      .set({ done_at: now, lease_owner: null, lease_until: null, last_error: null })
      .where('id', '=', jobId)
      .execute();
  }

  async retry(jobId: number, owner: string, nextAttemptAt: number, error: string): Promise<void> {
    await this.db
      .updateTable('outbox')
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
}

/**
 * A job may be taken when nobody holds it, its lease ran out, or this very owner holds it:
 * a process runs one job at a time, so a job still leased to it while it asks for the next
 * one is one whose failure could not be written (the store was down), and waiting out
 * the whole lease would only delay it.
 */
function leaseFree(eb: ExpressionBuilder<StoreSchema, 'outbox'>, owner: string, now: number) {
  return eb.or([
    eb('lease_until', 'is', null),
    eb('lease_until', '<', now),
    eb('lease_owner', '=', owner),
  ]);
}
