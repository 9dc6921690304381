import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { StoreDb } from '../store/store.database.js';
import type { OrderLinesTable, OrdersTable } from '../store/store.schema.js';

export type OrderRow = Selectable<OrdersTable>;
export type OrderLineRow = Selectable<OrderLinesTable>;

/** Order states in the store; the API shows them as sessionStatusSchema (machines/). */
export type OrderStatus = 'open' | 'processing' | 'paid' | 'expired' | 'canceled';

export type OutboxKind = 'handoff' | 'refund';

/**
 * A reservation that must not lapse on its own: a paid order not yet in the catalog's
 * stock, or an async payment (SEPA) still on its way. Year 9999 in epoch ms.
 */
export const HELD_UNTIL = 253_402_300_799_000;

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}

/** Units of each stock key held by active reservations, optionally not counting one order's own. */
export async function reservedByKey(
  db: StoreDb,
  productKeys: readonly number[],
  now: number,
  exceptOrderId?: string,
): Promise<Map<number, number>> {
  if (productKeys.length === 0) return new Map();
  let query = db
    .selectFrom('reservations')
    .select((eb) => ['product_key', eb.fn.sum<number>('quantity').as('reserved')])
    .where('product_key', 'in', [...productKeys])
    .where('released', '=', 0)
    .where('expires_at', '>', now);
  if (exceptOrderId) query = query.where('order_id', '<>', exceptOrderId);
  const rows = await query.groupBy('product_key').execute();
  return new Map(rows.map((r) => [Number(r.product_key), Number(r.reserved)]));
}

export async function releaseReservations(db: StoreDb, orderId: string): Promise<void> {
  await db
    .updateTable('reservations')
    .set({ released: 1 })
    .where('order_id', '=', orderId)
    .execute();
}

export async function setReservationExpiry(
  db: StoreDb,
  orderId: string,
  expiresAt: number,
): Promise<void> {
  await db
    .updateTable('reservations')
    .set({ released: 0, expires_at: expiresAt })
    .where('order_id', '=', orderId)
    .execute();
}

/** Whether the order's reservation still counts (not released, not lapsed). */
export async function hasActiveReservation(
  db: StoreDb,
  orderId: string,
  now: number,
): Promise<boolean> {
  const lapsed = await db
    .selectFrom('reservations')
    .select('id')
    .where('order_id', '=', orderId)
    .where((eb) => eb.or([eb('released', '<>', 0), eb('expires_at', '<=', now)]))
    .executeTakeFirst();
  return lapsed === undefined;
}

/** Idempotent: one job per (kind, order), however often the triggering event arrives. */
export async function enqueue(
  db: StoreDb,
  kind: OutboxKind,
  orderId: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('outbox')
    .values({ kind, order_id: orderId, attempts: 0, next_attempt_at: now, created_at: now })
    .onConflict((oc) => oc.columns(['kind', 'order_id']).doNothing())
    .execute();
}

export async function findOrder(
  db: StoreDb,
  by: { id?: string | null; sessionId?: string | null },
): Promise<OrderRow | undefined> {
  if (by.id) {
    const row = await db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', by.id)
      .executeTakeFirst();
    if (row) return row;
  }
  if (by.sessionId) {
    return db
      .selectFrom('orders')
      .selectAll()
      .where('session_id', '=', by.sessionId)
      .executeTakeFirst();
  }
  return undefined;
}

export async function orderLines(db: StoreDb, orderId: string): Promise<OrderLineRow[]> {
  return db
    .selectFrom('order_lines')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('position')
    .execute();
}
