import { sql } from 'kysely';
import { migrateTo, migrateToLatest } from '../../src/store/migrations.js';
import { DATABASES } from '../support/checkout-test-app.js';
import { type MigrationDb, outcome, useMigrationDb } from './support/migration-db.js';

// rules "Tickets and the door": tickets issued before short codes existed get theirs from
// the migration that adds them, random and unique within their event, and the store keeps
// them unique from then on.

/** A migration before the short codes, long shipped (later ones run on the way up). */
const BEFORE_CODES = '2026-12-02-001-handoff-failures-and-refunds';
const NOW = Date.now();

describe.each(DATABASES)('the short codes migration (%s)', (kind) => {
  const database = useMigrationDb(kind);
  let db: MigrationDb;
  beforeAll(() => {
    db = database();
  });

  it('gives every ticket issued before a code, unique within its event, and indexes them', async () => {
    await migrateTo(db, kind, BEFORE_CODES);
    await db
      .insertInto('orders')
      .values({
        id: 'ord_a',
        session_id: 'tps_a',
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
        expires_at: NOW,
        paid_at: NOW,
        updated_at: NOW,
      })
      .execute();
    const tickets = Array.from({ length: 300 }, (_, i) => ({
      id: `t${String(i).padStart(4, '0')}`,
      order_id: 'ord_a',
      line_position: Math.floor(i / 100),
      seat: (i % 100) + 1,
      seats: 100,
      event_id: 101 + Math.floor(i / 100),
      event_name: 'Afterwork',
      status: i % 7 === 0 ? 'revoked' : 'valid',
      issued_at: NOW,
    }));
    await db.insertInto('tickets').values(tickets).execute();

    await migrateToLatest(db, kind);

    const rows = await db.selectFrom('tickets').select(['id', 'event_id', 'code']).execute();
    expect(rows).toHaveLength(300);
    for (const row of rows) expect(row.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    for (const eventId of [101, 102, 103]) {
      const codes = rows.filter((r) => Number(r.event_id) === eventId).map((r) => r.code);
      expect(new Set(codes).size).toBe(100);
    }
    // 40 random bits a ticket: 300 codes share no prefix of 6 signs, as a pattern would.
    expect(new Set(rows.map((r) => String(r.code).slice(0, 6))).size).toBeGreaterThan(295);

    const index =
      kind === 'postgres'
        ? await sql<{ def: string }>`select indexdef as def from pg_indexes
            where tablename = 'tickets' and indexname = 'tickets_event_code_uq'`.execute(db)
        : await sql<{ def: string }>`select sql as def from sqlite_master
            where type = 'index' and name = 'tickets_event_code_uq'`.execute(db);
    expect(index.rows.map((r) => r.def.toLowerCase())).toEqual([
      expect.stringMatching(/create unique index .*tickets.*\(.*event_id.*code.*\)/),
    ]);
    const [first, second] = rows.filter((r) => Number(r.event_id) === 101);
    const taken = await outcome(
      db.updateTable('tickets').set({ code: first!.code }).where('id', '=', second!.id).execute(),
    );
    expect(taken).toMatch(/unique/i);
  });
});
