import { sql } from 'kysely';
import type { StoreDb } from '../store/store.database.js';

/** What the store holds right now, as the metrics report it (docs/operations.md "Betrieb: Metriken"). */
export interface StoreFigures {
  /** Orders of the site by the order machine's state. */
  orders: Map<string, number>;
  /** Tickets by status (`valid`, `revoked`), those of orders made in the shop included. */
  tickets: Map<string, number>;
  /** Tickets checked in (a ticket's first scan; later scans are not counted again). */
  checkins: number;
  /** Waiting-list entries by status (`pending`, `confirmed`, `offered`). */
  waitlistEntries: Map<string, number>;
  /** Offers sent and neither claimed, declined nor expired. */
  openOffers: number;
}

interface FigureRow {
  figure: string;
  key: string;
  n: number | string | bigint;
}

/**
 * One round trip to the store per scrape: five grouped counts. Each answer has a row per
 * status at most, whatever the store's size. The orders' and the waiting list's counts read
 * their status indexes alone (`orders_unsettled_idx`, `waitlist_entries_queue_idx`), the
 * check-ins their primary key; the tickets' status has no index, so that count reads the
 * table: a few milliseconds for tens of thousands of tickets (bench "metrics").
 */
export async function storeFigures(db: StoreDb): Promise<StoreFigures> {
  const rows = (await db
    .selectFrom('orders')
    .select((eb) => [
      sql<string>`'orders'`.as('figure'),
      'status as key',
      eb.fn.countAll<number>().as('n'),
    ])
    .groupBy('status')
    .unionAll(
      db
        .selectFrom('tickets')
        .select((eb) => [
          sql<string>`'tickets'`.as('figure'),
          'status as key',
          eb.fn.countAll<number>().as('n'),
        ])
        .groupBy('status'),
    )
    .unionAll(
      db
        .selectFrom('checkins')
        .select((eb) => [
          sql<string>`'checkins'`.as('figure'),
          sql<string>`''`.as('key'),
          eb.fn.countAll<number>().as('n'),
        ]),
    )
    .unionAll(
      db
        .selectFrom('waitlist_entries')
        .select((eb) => [
          sql<string>`'waitlist'`.as('figure'),
          'status as key',
          eb.fn.countAll<number>().as('n'),
        ])
        .groupBy('status'),
    )
    .unionAll(
      db
        .selectFrom('waitlist_offers')
        .where('status', '=', 'active')
        .select((eb) => [
          sql<string>`'offers'`.as('figure'),
          sql<string>`''`.as('key'),
          eb.fn.countAll<number>().as('n'),
        ]),
    )
    .execute()) as FigureRow[];

  const figures: StoreFigures = {
    orders: new Map(),
    tickets: new Map(),
    checkins: 0,
    waitlistEntries: new Map(),
    openOffers: 0,
  };
  for (const row of rows) {
    const n = Number(row.n);
    if (row.figure === 'orders') figures.orders.set(row.key, n);
    else if (row.figure === 'tickets') figures.tickets.set(row.key, n);
    else if (row.figure === 'checkins') figures.checkins = n;
    else if (row.figure === 'waitlist') figures.waitlistEntries.set(row.key, n);
    else if (row.figure === 'offers') figures.openOffers = n;
  }
  return figures;
}
