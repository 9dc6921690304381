import type { StoreDb } from '../store.database.js';
import { ScheduledJobRepository } from '../store.port.js';

/**
 * One row per daily job. A conditional update decides between competing processes: the
 * one whose update still finds the job due and unleased runs it; a lease that ran out (its
 * process died mid-run) is taken over.
 */
export class KyselyScheduledJobRepository extends ScheduledJobRepository {
  constructor(private readonly db: StoreDb) {
    super();
  }

  async lease(
    name: string,
    owner: string,
    dueAfter: number,
    now: number,
    leaseMs: number,
  ): Promise<boolean> {
    await this.db
      .insertInto('scheduled_jobs')
      .values({ name, last_run_at: null, lease_owner: null, lease_until: null })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const leased = await this.db
      .updateTable('scheduled_jobs')
      .set({ lease_owner: owner, lease_until: now + leaseMs })
      .where('name', '=', name)
      .where((eb) => eb.or([eb('last_run_at', 'is', null), eb('last_run_at', '<', dueAfter)]))
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .returning('name')
      .executeTakeFirst();
    return leased !== undefined;
  }

  async complete(name: string, owner: string, now: number): Promise<void> {
    await this.db
      .updateTable('scheduled_jobs')
      .set({ last_run_at: now, lease_owner: null, lease_until: null })
      .where('name', '=', name)
      .where('lease_owner', '=', owner)
      .execute();
  }

  async release(name: string, owner: string): Promise<void> {
    await this.db
      .updateTable('scheduled_jobs')
      .set({ lease_owner: null, lease_until: null })
      .where('name', '=', name)
      .where('lease_owner', '=', owner)
      .execute();
  }
}
