import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { migrateTo, migrateToLatest } from '../../src/store/migrations.js';
import { createTestDatabase, DATABASES } from '../orders/support/checkout-test-app.js';

// rules "Orders made in the shop": a ticket may now belong to an order made in the shop,
// which has no row in `orders`, so the shop-orders migration drops the tickets' reference
// to `orders` (SQLite: by rebuilding the table). Every ticket, its check-in and the
// table's indexes come through; the door's check-ins still reference their tickets.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/** A migration before the shop orders, long shipped (later ones run on the way up). */
const BEFORE = '2026-12-02-001-handoff-failures-and-refunds';
const NOW = Date.now();

function open(kind: 'sqlite' | 'postgres', url: string): Db {
  if (kind === 'postgres') {
    return new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }),
    });
  }
  const database = new SqliteDatabase(url.slice('sqlite:'.length));
  // As the store opens it (store.database.ts).
  database.pragma('foreign_keys = ON');
  return new Kysely({ dialect: new SqliteDialect({ database }) });
}

/**
 * Whether the store refused the statement. Not `rejects.toThrow()`: better-sqlite3's error
 * class belongs to the first test file that loaded the native module in this worker, so
 * another file's `expect` does not see an Error in it.
 */
function refused(statement: Promise<unknown>): Promise<boolean> {
  return statement.then(
    () => false,
    () => true,
  );
}

async function ticketIndexes(db: Db, kind: 'sqlite' | 'postgres'): Promise<string[]> {
  const rows =
    kind === 'postgres'
      ? await sql<{ name: string }>`select indexname as name from pg_indexes
          where tablename = 'tickets'`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master
          where type = 'index' and tbl_name = 'tickets'`.execute(db);
  return rows.rows.map((r) => r.name).sort();
}

describe.each(DATABASES)('the shop-orders migration (%s)', (kind) => {
  let database: { url: string; drop(): Promise<void> };
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = open(kind, database.url);
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  it('keeps every ticket, check-in and index, and lets a ticket belong to a shop order', async () => {
    await migrateTo(db, kind, BEFORE);
    await db
      .insertInto('orders')
      .values({
        id: 'ord_a',
        session_id: 'tps_a',
        provider: 'test',
        status: 'paid',
        email: 'gast@example.org',
        subtotal: 5000,
        discount: 0,
        total: 5000,
        currency: 'eur',
        payment_method: 'card',
        success_url: 'http://shop.test/success',
        cancel_url: 'http://shop.test/cart',
        created_at: NOW,
        expires_at: NOW,
        paid_at: NOW,
        updated_at: NOW,
      })
      .execute();
    const tickets = [1, 2].map((seat) => ({
      id: `t${seat}`,
      order_id: 'ord_a',
      line_position: 0,
      seat,
      seats: 2,
      event_id: 101,
      variation_id: null,
      event_name: 'Afterwork im Hafen',
      event_slug: 'afterwork-im-hafen',
      starts_at: '2027-01-15T18:00:00.000Z',
      venue: 'Hafen',
      tier: 'VIP',
      holder: 'Gerd Gast',
      status: seat === 1 ? 'valid' : 'revoked',
      issued_at: NOW,
      revoked_at: seat === 1 ? null : NOW,
    }));
    await db.insertInto('tickets').values(tickets).execute();
    await db
      .insertInto('checkins')
      .values({
        ticket_id: 't1',
        scan_id: 'scan-1',
        scanned_at: NOW,
        device: 'Tür 1',
        received_at: NOW,
      })
      .execute();
    const indexesBefore = await ticketIndexes(db, kind);

    await migrateToLatest(db, kind);

    const kept = await db
      .selectFrom('tickets')
      .select(Object.keys(tickets[0]!))
      .orderBy('seat')
      .execute();
    expect(
      kept.map((t) => ({
        ...t,
        issued_at: Number(t.issued_at),
        revoked_at: t.revoked_at === null ? null : Number(t.revoked_at),
      })),
    ).toEqual(tickets);
    expect(
      (await db.selectFrom('tickets').select('guest_list').execute()).map((t) =>
        Number(t.guest_list),
      ),
    ).toEqual([0, 0]);
    expect(await db.selectFrom('checkins').select('ticket_id').execute()).toEqual([
      { ticket_id: 't1' },
    ]);
    expect(await ticketIndexes(db, kind)).toEqual(expect.arrayContaining(indexesBefore));

    // A shop order's ticket: no row in `orders`.
    await db
      .insertInto('tickets')
      .values({ ...tickets[0]!, id: 't3', order_id: 'shop-57', guest_list: 1 })
      .execute();
    // The seat stays unique per order line, and a check-in still needs its ticket.
    expect(
      await refused(
        db
          .insertInto('tickets')
          .values({ ...tickets[0]!, id: 't4', order_id: 'shop-57' })
          .execute(),
      ),
    ).toBe(true);
    expect(
      await refused(
        db
          .insertInto('checkins')
          .values({
            ticket_id: 'nope',
            scan_id: 'scan-2',
            scanned_at: NOW,
            device: 'Tür 1',
            received_at: NOW,
          })
          .execute(),
      ),
    ).toBe(true);
    if (kind === 'sqlite') {
      expect((await sql`pragma foreign_key_check`.execute(db)).rows).toEqual([]);
      expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows).toEqual([
        { foreign_keys: 1 },
      ]);
    }
  });
});
