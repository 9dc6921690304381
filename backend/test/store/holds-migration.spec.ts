import { sql } from 'kysely';
import { migrateTo, migrateToLatest } from '../../src/store/migrations.js';
import { KyselyWaitlistRepository } from '../../src/waitlist/waitlist.repository.js';
import type { StoreDb } from '../../src/store/store.database.js';
import { DATABASES } from '../support/checkout-test-app.js';
import { type MigrationDb, useMigrationDb } from './support/migration-db.js';

// docs/decisions/0010-holds.md: the migration that makes reservations and offers' places one
// kind of row moves every row with its meaning: what counted still counts, what was released
// stays released, a claimed offer's hold remembers its checkout.

/**
 * The tables as they were before the migration, which the store's schema no longer names.
 */

/** The last migration before the holds. */
const BEFORE_HOLDS = '2026-11-30-003-scheduled-jobs';
const NOW = Date.now();
const LATER = NOW + 3_600_000;

const order = (id: string, paidAt: number | null) => ({
  id,
  session_id: `tps_${id}`,
  provider: 'test',
  status: paidAt ? 'paid' : 'open',
  subtotal: 2500,
  discount: 0,
  total: 2500,
  currency: 'eur',
  payment_method: 'card',
  success_url: 'http://shop.test/success',
  cancel_url: 'http://shop.test/cart',
  created_at: NOW,
  expires_at: LATER,
  paid_at: paidAt,
  updated_at: NOW,
});

const entry = (id: string) => ({
  id,
  product_id: 101,
  variation_id: null,
  product_key: 101,
  quantity: 2,
  email: `${id}@example.org`,
  status: 'offered',
  line_name: 'Afterwork im Hafen',
  event_slug: null,
  starts_at: null,
  confirm_token: `c-${id}`,
  unsubscribe_token: `u-${id}`,
  created_at: NOW,
  confirmed_at: NOW,
});

describe.each(DATABASES)('the holds migration (%s)', (kind) => {
  const database = useMigrationDb(kind);
  let db: MigrationDb;
  beforeAll(() => {
    db = database();
  });

  it('moves every reservation and every offer’s places into holds, each as it counted', async () => {
    await migrateTo(db, kind, BEFORE_HOLDS);
    await db
      .insertInto('orders')
      .values([order('ord_open', null), order('ord_paid', NOW), order('ord_claimer', null)])
      .execute();
    await db
      .insertInto('reservations')
      .values([
        { order_id: 'ord_open', product_key: 101, quantity: 2, expires_at: LATER, released: 0 },
        { order_id: 'ord_open', product_key: 102, quantity: 1, expires_at: LATER, released: 1 },
        { order_id: 'ord_paid', product_key: 101, quantity: 3, expires_at: LATER, released: 0 },
        { order_id: 'ord_claimer', product_key: 101, quantity: 1, expires_at: LATER, released: 0 },
      ])
      .execute();
    await db
      .insertInto('waitlist_entries')
      .values([entry('wl_active'), entry('wl_claimed'), entry('wl_declined')])
      .execute();
    const offer = (entryId: string, status: string, orderId: string | null = null) => ({
      entry_id: entryId,
      token: `t-${entryId}`,
      product_key: 101,
      quantity: 2,
      expires_at: LATER,
      status,
      order_id: orderId,
      created_at: NOW,
    });
    await db
      .insertInto('waitlist_offers')
      .values([
        offer('wl_active', 'active'),
        offer('wl_claimed', 'claimed', 'ord_claimer'),
        offer('wl_declined', 'declined'),
      ])
      .execute();
    const before = await held(db);

    await migrateToLatest(db, kind);

    const holds = await db
      .selectFrom('holds')
      .select(['owner', 'product_key', 'quantity', 'expires_at', 'released', 'sold'])
      .select(['claim_token', 'claimed_by'])
      .orderBy('id')
      .execute();
    expect(holds).toEqual([
      h('ord_open', 101, 2, 0, 0),
      h('ord_open', 102, 1, 1, 0),
      h('ord_paid', 101, 3, 0, 1),
      h('ord_claimer', 101, 1, 0, 0),
      { ...h('wl_active', 101, 2, 0, 0), claim_token: 't-wl_active' },
      { ...h('wl_claimed', 101, 2, 1, 0), claim_token: 't-wl_claimed', claimed_by: 'ord_claimer' },
      { ...h('wl_declined', 101, 2, 1, 0), claim_token: 't-wl_declined' },
    ]);
    // The same places count: 2 + 3 + 1 held by checkouts and 2 by the active offer.
    expect(before).toBe(8);
    const after = await db
      .selectFrom('holds')
      .select(sql<number>`sum(quantity)`.as('n'))
      .where('released', '=', 0)
      .where('expires_at', '>', NOW)
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(before);
    // An offer reads its places from its hold.
    const offers = new KyselyWaitlistRepository(db as unknown as StoreDb, kind);
    expect(await offers.findOffer('t-wl_claimed')).toMatchObject({
      entryId: 'wl_claimed',
      status: 'claimed',
      productKey: 101,
      quantity: 2,
      expiresAt: LATER,
    });
  });
});

function h(owner: string, productKey: number, quantity: number, released: number, sold: number) {
  return {
    owner,
    product_key: productKey,
    quantity,
    expires_at: LATER,
    released,
    sold,
    claim_token: null,
    claimed_by: null,
  };
}

/** Places held before the migration: active reservations and active offers. */
async function held(db: MigrationDb): Promise<number> {
  const reserved = await db
    .selectFrom('reservations')
    .select(sql<number>`sum(quantity)`.as('n'))
    .where('released', '=', 0)
    .where('expires_at', '>', NOW)
    .executeTakeFirstOrThrow();
  const offered = await db
    .selectFrom('waitlist_offers')
    .select(sql<number>`sum(quantity)`.as('n'))
    .where('status', '=', 'active')
    .where('expires_at', '>', NOW)
    .executeTakeFirstOrThrow();
  return Number(reserved.n) + Number(offered.n);
}
