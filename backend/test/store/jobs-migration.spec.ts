import { migrateTo, migrateToLatest } from '../../src/store/migrations.js';
import { KyselyJobRepository } from '../../src/jobs/job.repository.js';
import type { StoreDb } from '../../src/store/store.database.js';
import { DATABASES } from '../support/checkout-test-app.js';
import { type MigrationDb, useMigrationDb } from './support/migration-db.js';

// docs/decisions/0011-one-job-runner.md: the migration to the one `jobs` table moves every
// job not yet done of the outbox and the waiting list's mails, with its attempts, schedule,
// lease and error, in the order they were queued; done ones and the scheduled jobs' table go.

/** The tables as they were before the migration, which the store's schema no longer names. */

/** The last migration of the three job tables (the holds' migration after it leaves them be). */
const BEFORE_JOBS = '2026-11-30-003-scheduled-jobs';
const NOW = Date.now();
const LATER = NOW + 3_600_000;

const order = (id: string) => ({
  id,
  session_id: `tps_${id}`,
  provider: 'test',
  status: 'paid',
  subtotal: 2500,
  discount: 0,
  total: 2500,
  currency: 'eur',
  payment_method: 'card',
  success_url: 'http://shop.test/success',
  cancel_url: 'http://shop.test/cart',
  created_at: NOW,
  expires_at: LATER,
  paid_at: NOW,
  updated_at: NOW,
});

const job = { lease_owner: null, lease_until: null, done_at: null, last_error: null };

describe.each(DATABASES)('the jobs migration (%s)', (kind) => {
  const database = useMigrationDb(kind);
  let db: MigrationDb;
  beforeAll(() => {
    db = database();
  });

  it('moves every job not yet done into `jobs`, as it was, and drops the old tables', async () => {
    await migrateTo(db, kind, BEFORE_JOBS);
    await db
      .insertInto('orders')
      .values([order('ord_a'), order('ord_b')])
      .execute();
    const outbox = (kind: string, orderId: string, extra: object) => ({
      ...job,
      kind,
      order_id: orderId,
      attempts: 0,
      next_attempt_at: NOW,
      created_at: NOW - 1_000,
      ...extra,
    });
    await db
      .insertInto('outbox')
      .values([
        outbox('mail', 'ord_a', { attempts: 1, done_at: NOW }),
        outbox('handoff', 'ord_a', {
          attempts: 2,
          next_attempt_at: LATER,
          last_error: 'WooCommerce answered 503',
        }),
        outbox('mail', 'ord_b', { attempts: 1, lease_owner: 'worker_x', lease_until: LATER }),
        outbox('handoff', 'ord_b', {}),
      ])
      .execute();
    const mail = (kind: string, entryId: string, offerId: number | null, extra: object) => ({
      ...job,
      kind,
      entry_id: entryId,
      offer_id: offerId,
      purpose: kind === 'confirm' ? `confirm:${entryId}` : `offer:${offerId}`,
      requested_at: NOW - 500,
      attempts: 0,
      next_attempt_at: NOW,
      created_at: NOW - 2_000,
      ...extra,
    });
    await db
      .insertInto('waitlist_mails')
      .values([
        mail('confirm', 'wl_a', null, { attempts: 3, last_error: '421 try again later' }),
        mail('offer', 'wl_b', 7, {}),
        mail('confirm', 'wl_c', null, { done_at: NOW }),
      ])
      .execute();
    await db
      .insertInto('scheduled_jobs')
      .values({ name: 'personal-data-retention', last_run_at: NOW })
      .execute();

    await migrateToLatest(db, kind);

    const jobs = await db
      .selectFrom('jobs')
      .select(['name', 'key', 'subject', 'payload', 'attempts', 'next_attempt_at'])
      .select(['lease_owner', 'lease_until', 'done_at', 'last_error', 'requested_at'])
      .orderBy('id')
      .execute();
    const moved = (name: string, key: string, subject: string, payload: object) => ({
      ...job,
      name,
      key,
      subject,
      payload: JSON.stringify(payload),
      attempts: 0,
      next_attempt_at: NOW,
      requested_at: NOW - 1_000,
    });
    expect(jobs).toEqual([
      {
        ...moved('order-handoff', 'ord_a', 'ord_a', { orderId: 'ord_a' }),
        attempts: 2,
        next_attempt_at: LATER,
        last_error: 'WooCommerce answered 503',
      },
      {
        ...moved('ticket-mail', 'ord_b', 'ord_b', { orderId: 'ord_b' }),
        attempts: 1,
        lease_owner: 'worker_x',
        lease_until: LATER,
      },
      moved('order-handoff', 'ord_b', 'ord_b', { orderId: 'ord_b' }),
      {
        ...moved('waitlist-confirm-mail', 'wl_a', 'wl_a', { entryId: 'wl_a' }),
        attempts: 3,
        last_error: '421 try again later',
        requested_at: NOW - 500,
      },
      {
        ...moved('waitlist-offer-mail', '7', 'wl_b', { entryId: 'wl_b', offerId: 7 }),
        requested_at: NOW - 500,
      },
    ]);
    const tables = (await db.introspection.getTables()).map((t) => t.name);
    expect(tables).toContain('jobs');
    for (const gone of ['outbox', 'waitlist_mails', 'scheduled_jobs']) {
      expect(tables).not.toContain(gone);
    }

    // The runner takes them up where they were: the lease stays its owner's.
    const repository = new KyselyJobRepository(db as unknown as StoreDb);
    const leases = new Map([['ticket-mail', 60_000]]);
    expect(await repository.lease(leases, 'worker_y', NOW)).toBeUndefined();
    expect(await repository.lease(leases, 'worker_x', NOW)).toMatchObject({
      name: 'ticket-mail',
      payload: { orderId: 'ord_b' },
      attempts: 2,
    });
  });
});
