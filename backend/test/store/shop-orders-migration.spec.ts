import { sql } from 'kysely';
import { migrateTo, migrateToLatest } from '../../src/store/migrations.js';
import { DATABASES } from '../support/checkout-test-app.js';
import { type MigrationDb, outcome, useMigrationDb } from './support/migration-db.js';

// rules "Orders made in the shop": a ticket may now belong to an order made in the shop,
// which has no row in `orders`, so the shop-orders migration drops the tickets' reference
// to `orders` (SQLite: by rebuilding the table). Every ticket, its check-in and the
// table's indexes come through; the door's check-ins still reference their tickets.

/** A migration before the shop orders, long shipped (later ones run on the way up). */
const BEFORE = '2026-12-02-001-handoff-failures-and-refunds';
const NOW = Date.now();

async function ticketIndexes(db: MigrationDb, kind: 'sqlite' | 'postgres'): Promise<string[]> {
  const rows =
    kind === 'postgres'
      ? await sql<{ name: string }>`select indexname as name from pg_indexes
          where tablename = 'tickets'`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master
          where type = 'index' and tbl_name = 'tickets'`.execute(db);
  return rows.rows.map((r) => r.name).sort();
}

describe.each(DATABASES)('the shop-orders migration (%s)', (kind) => {
  const database = useMigrationDb(kind);
  let db: MigrationDb;
  beforeAll(() => {
    db = database();
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
      await outcome(
        db
          .insertInto('tickets')
          .values({ ...tickets[0]!, id: 't4', order_id: 'shop-57' })
          .execute(),
      ),
    ).not.toBe('ok');
    expect(
      await outcome(
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
    ).not.toBe('ok');
    if (kind === 'sqlite') {
      expect((await sql`pragma foreign_key_check`.execute(db)).rows).toEqual([]);
      expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows).toEqual([
        { foreign_keys: 1 },
      ]);
    }
  });
});
