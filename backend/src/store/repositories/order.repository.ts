import { orderStatusSchema } from '@awhh/machines';
import { type Selectable, sql } from 'kysely';
import type { StoreDb, StoreKind } from '../store.database.js';
import type { OrdersTable } from '../store.schema.js';
import {
  type NewOrder,
  type Order,
  type OrderKey,
  type OrderLine,
  OrderRepository,
  type OpenCheckouts,
  type Reservation,
} from '../store.port.js';

type OrderRow = Selectable<OrdersTable>;

/** Orders, their lines and reservations on Kysely; `db` is the store or one transaction. */
export class KyselyOrderRepository extends OrderRepository {
  constructor(
    private readonly db: StoreDb,
    private readonly kind: StoreKind,
  ) {
    super();
  }

  /**
   * On SQLite the write transaction already holds the database's write lock. On
   * PostgreSQL each stock unit has a lock row, taken in key order so two checkouts
   * cannot deadlock.
   */
  async lockCapacity(productKeys: readonly number[]): Promise<void> {
    if (this.kind !== 'postgres' || productKeys.length === 0) return;
    const keys = [...new Set(productKeys)].sort((a, b) => a - b);
    await this.db
      .insertInto('capacity_locks')
      .values(keys.map((product_key) => ({ product_key })))
      .onConflict((oc) => oc.column('product_key').doNothing())
      .execute();
    await this.db
      .selectFrom('capacity_locks')
      .select('product_key')
      .where('product_key', 'in', keys)
      .orderBy('product_key')
      .forUpdate()
      .execute();
  }

  async reservedByKey(
    productKeys: readonly number[],
    now: number,
    exceptOrderId?: string,
    exceptOfferId?: number,
  ): Promise<Map<number, number>> {
    if (productKeys.length === 0) return new Map();
    let query = this.db
      .selectFrom('reservations')
      .select((eb) => ['product_key', eb.fn.sum<number>('quantity').as('reserved')])
      .where('product_key', 'in', [...productKeys])
      .where('released', '=', 0)
      .where('expires_at', '>', now);
    if (exceptOrderId) query = query.where('order_id', '<>', exceptOrderId);
    // rules "Waiting list": an offer is a reservation too, or a checkout would sell the
    // places a waiting visitor was promised.
    let offers = this.db
      .selectFrom('waitlist_offers')
      .select((eb) => ['product_key', eb.fn.sum<number>('quantity').as('reserved')])
      .where('product_key', 'in', [...productKeys])
      .where('status', '=', 'active')
      .where('expires_at', '>', now);
    if (exceptOfferId !== undefined) offers = offers.where('id', '<>', exceptOfferId);
    // One statement for both: a checkout's capacity check is on its hot path, and on
    // PostgreSQL each statement is a round trip.
    const rows = await query
      .groupBy('product_key')
      .unionAll(offers.groupBy('product_key'))
      .execute();
    const reserved = new Map<number, number>();
    for (const r of rows) {
      const key = Number(r.product_key);
      reserved.set(key, (reserved.get(key) ?? 0) + Number(r.reserved));
    }
    return reserved;
  }

  async unpaidReservedByKey(
    productKeys: readonly number[],
    now: number,
  ): Promise<Map<number, number>> {
    if (productKeys.length === 0) return new Map();
    const held = this.db
      .selectFrom('reservations')
      .select((eb) => ['product_key', eb.fn.sum<number>('quantity').as('reserved')])
      .where('product_key', 'in', [...productKeys])
      .where('released', '=', 0)
      .where('expires_at', '>', now)
      .where('order_id', 'in', (eb) =>
        eb.selectFrom('orders').select('orders.id').where('orders.paid_at', 'is', null),
      )
      .groupBy('product_key');
    const offers = this.db
      .selectFrom('waitlist_offers')
      .select((eb) => ['product_key', eb.fn.sum<number>('quantity').as('reserved')])
      .where('product_key', 'in', [...productKeys])
      .where('status', '=', 'active')
      .where('expires_at', '>', now)
      .groupBy('product_key');
    const reserved = new Map<number, number>();
    for (const r of await held.unionAll(offers).execute()) {
      const key = Number(r.product_key);
      reserved.set(key, (reserved.get(key) ?? 0) + Number(r.reserved));
    }
    return reserved;
  }

  async create({ order, lines, reservations, reservedUntil, clientKey }: NewOrder): Promise<void> {
    const { context } = order;
    await this.db
      .insertInto('orders')
      .values({
        id: order.id,
        session_id: order.sessionId,
        provider: order.provider,
        status: order.status,
        email: context.email,
        buyer_name: context.buyerName,
        coupon_code: order.couponCode,
        coupon_entered: order.couponEntered,
        subtotal: context.subtotal,
        discount: context.discount,
        total: context.total,
        currency: order.currency,
        payment_method: order.paymentMethod,
        success_url: order.successUrl,
        cancel_url: order.cancelUrl,
        payment_url: null,
        payment_reference: context.paymentReference,
        catalog_order_id: context.catalogOrderId,
        refund_reference: context.refundReference,
        created_at: order.createdAt,
        expires_at: order.expiresAt,
        paid_at: order.paidAt,
        updated_at: order.createdAt,
        client_key: order.status === 'open' ? (clientKey ?? null) : null,
      })
      .execute();
    await this.db
      .insertInto('order_lines')
      .values(
        lines.map((l, position) => ({
          order_id: order.id,
          position,
          product_id: l.productId,
          variation_id: l.variationId,
          name: l.name,
          image: l.image,
          quantity: l.quantity,
          unit_amount: l.unitAmount,
        })),
      )
      .execute();
    if (reservations.length === 0) return;
    await this.db
      .insertInto('reservations')
      .values(
        reservations.map((r) => ({
          order_id: order.id,
          product_key: r.productKey,
          quantity: r.quantity,
          expires_at: reservedUntil,
          released: 0,
        })),
      )
      .execute();
  }

  /** On SQLite the write lock already serialises; PostgreSQL takes a lock on the key. */
  async lockClient(clientKey: string): Promise<void> {
    if (this.kind !== 'postgres') return;
    await sql`select pg_advisory_xact_lock(hashtext(${`client:${clientKey}`}))`.execute(this.db);
  }

  async openForClient(clientKey: string, now: number): Promise<OpenCheckouts> {
    const row = await this.db
      .selectFrom('orders')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('expires_at').as('first')])
      .where('client_key', '=', clientKey)
      .where('status', '=', 'open')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    const count = Number(row?.count ?? 0);
    return { count, firstExpiresAt: count > 0 ? Number(row!.first) : null };
  }

  find(key: OrderKey): Promise<Order | undefined> {
    return this.select(key, false);
  }

  /** PostgreSQL runs concurrent transactions side by side: FOR UPDATE makes them queue. */
  lock(key: OrderKey): Promise<Order | undefined> {
    return this.select(key, this.kind === 'postgres');
  }

  private async select(key: OrderKey, forUpdate: boolean): Promise<Order | undefined> {
    for (const [column, value] of [
      ['id', key.id],
      ['session_id', key.sessionId],
      ['payment_reference', key.paymentReference],
    ] as const) {
      if (!value) continue;
      let query = this.db.selectFrom('orders').selectAll().where(column, '=', value);
      if (forUpdate) query = query.forUpdate();
      const row = await query.executeTakeFirst();
      if (row) return toOrder(row);
    }
    return undefined;
  }

  async lines(orderId: string): Promise<OrderLine[]> {
    const rows = await this.db
      .selectFrom('order_lines')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('position')
      .execute();
    return rows.map((l) => ({
      productId: l.product_id,
      variationId: l.variation_id,
      name: l.name,
      image: l.image,
      quantity: l.quantity,
      unitAmount: l.unit_amount,
    }));
  }

  async recordSession(
    orderId: string,
    session: { id: string; url: string },
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('orders')
      .set({ session_id: session.id, payment_url: session.url, updated_at: now })
      .where('id', '=', orderId)
      .execute();
  }

  async save(order: Order, now: number): Promise<void> {
    const { context } = order;
    await this.db
      .updateTable('orders')
      .set({
        status: order.status,
        session_id: order.sessionId,
        email: context.email,
        buyer_name: context.buyerName,
        subtotal: context.subtotal,
        discount: context.discount,
        total: context.total,
        payment_reference: context.paymentReference,
        catalog_order_id: context.catalogOrderId,
        refund_reference: context.refundReference,
        paid_at: order.paidAt,
        updated_at: now,
        // Needed only while the order waits for its payment.
        ...(order.status === 'open' ? {} : { client_key: null }),
      })
      .where('id', '=', order.id)
      .execute();
  }

  async reservations(orderId: string): Promise<Reservation[]> {
    const rows = await this.db
      .selectFrom('reservations')
      .select(['product_key', 'quantity'])
      .where('order_id', '=', orderId)
      .execute();
    return rows.map((r) => ({ productKey: r.product_key, quantity: r.quantity }));
  }

  async isReservationHeld(orderId: string, now: number): Promise<boolean> {
    const lapsed = await this.db
      .selectFrom('reservations')
      .select('id')
      .where('order_id', '=', orderId)
      .where((eb) => eb.or([eb('released', '<>', 0), eb('expires_at', '<=', now)]))
      .executeTakeFirst();
    return lapsed === undefined;
  }

  async holdReservations(orderId: string, until: number): Promise<void> {
    await this.db
      .updateTable('reservations')
      .set({ released: 0, expires_at: until })
      .where('order_id', '=', orderId)
      .execute();
  }

  async releaseReservations(orderId: string): Promise<void> {
    await this.db
      .updateTable('reservations')
      .set({ released: 1 })
      .where('order_id', '=', orderId)
      .execute();
  }

  async findUnsettled(query: {
    provider: string;
    createdBefore: number;
    limit: number;
  }): Promise<Order[]> {
    const rows = await this.db
      .selectFrom('orders')
      .selectAll()
      .where('status', 'in', ['open', 'processing'])
      .where('provider', '=', query.provider)
      .where('created_at', '<', query.createdBefore)
      .orderBy('created_at')
      .limit(query.limit)
      .execute();
    return rows.map(toOrder);
  }
}

function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    sessionId: row.session_id,
    provider: row.provider,
    // An unknown status fails loudly here rather than being guessed at later.
    status: orderStatusSchema.parse(row.status),
    context: {
      subtotal: row.subtotal,
      discount: row.discount,
      total: row.total,
      email: row.email,
      buyerName: row.buyer_name,
      paymentReference: row.payment_reference,
      catalogOrderId: row.catalog_order_id,
      refundReference: row.refund_reference,
    },
    couponCode: row.coupon_code,
    couponEntered: row.coupon_entered,
    currency: row.currency,
    paymentMethod: row.payment_method,
    successUrl: row.success_url,
    cancelUrl: row.cancel_url,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    paidAt: row.paid_at,
  };
}
