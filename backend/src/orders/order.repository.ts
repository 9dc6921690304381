import { orderStatusSchema } from '@awhh/machines';
import { type Selectable, sql } from 'kysely';
import type { StoreDb, StoreKind } from '../store/store.database.js';
import type { OrdersTable } from '../store/store.schema.js';
import {
  type NewOrder,
  type Order,
  type OrderKey,
  type OrderLine,
  OrderRepository,
  type OpenCheckouts,
  type OpenPlaces,
  type RefusedHandOff,
} from './orders.port.js';

type OrderRow = Selectable<OrdersTable>;

/** Orders and their lines on Kysely; `db` is the store or one transaction. */
export class KyselyOrderRepository extends OrderRepository {
  constructor(
    private readonly db: StoreDb,
    private readonly kind: StoreKind,
  ) {
    super();
  }

  async create({ order, lines, clientKey }: NewOrder): Promise<void> {
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
        handoff_error: context.handoffError ?? null,
        refunded_amount: context.refundedAmount ?? 0,
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
          discount: l.discount,
          refunded_quantity: l.refundedQuantity,
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
    const units = new Map<number, number>();
    if (count > 0) {
      const rows = await this.db
        .selectFrom('order_lines')
        .innerJoin('orders', 'orders.id', 'order_lines.order_id')
        .select((eb) => [
          'order_lines.product_id',
          eb.fn.sum<number>('order_lines.quantity').as('units'),
        ])
        .where('orders.client_key', '=', clientKey)
        .where('orders.status', '=', 'open')
        .where('orders.expires_at', '>', now)
        .groupBy('order_lines.product_id')
        .execute();
      for (const r of rows) units.set(Number(r.product_id), Number(r.units));
    }
    return {
      count,
      firstExpiresAt: count > 0 ? Number(row!.first) : null,
      unitsByProduct: units,
    };
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
      ['catalog_order_id', key.catalogOrderId],
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
      discount: l.discount,
      refundedQuantity: l.refunded_quantity,
    }));
  }

  async addRefundedUnits(
    orderId: string,
    units: readonly { position: number; quantity: number }[],
  ): Promise<void> {
    for (const { position, quantity } of units) {
      if (quantity <= 0) continue;
      await this.db
        .updateTable('order_lines')
        .set((eb) => ({ refunded_quantity: eb('refunded_quantity', '+', quantity) }))
        .where('order_id', '=', orderId)
        .where('position', '=', position)
        .execute();
    }
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
        handoff_error: context.handoffError ?? null,
        refunded_amount: context.refundedAmount ?? 0,
        paid_at: order.paidAt,
        updated_at: now,
        // Needed only while the order waits for its payment.
        ...(order.status === 'open' ? {} : { client_key: null }),
      })
      .where('id', '=', order.id)
      .execute();
  }

  refusedHandOffs(limit: number): Promise<RefusedHandOff[]> {
    return refusedHandOffsOf(this.db, limit);
  }

  async openPlaces(now: number): Promise<OpenPlaces[]> {
    const rows = await this.db
      .selectFrom('orders')
      .innerJoin('order_lines', 'order_lines.order_id', 'orders.id')
      .select((eb) => [
        'order_lines.product_id',
        'order_lines.variation_id',
        eb.fn.sum<number>('order_lines.quantity').as('quantity'),
      ])
      .where((eb) =>
        eb.or([
          eb.and([eb('orders.status', '=', 'open'), eb('orders.expires_at', '>', now)]),
          eb('orders.status', '=', 'processing'),
        ]),
      )
      .groupBy(['order_lines.product_id', 'order_lines.variation_id'])
      .execute();
    return rows.map((r) => ({
      productId: Number(r.product_id),
      variationId: r.variation_id === null ? null : Number(r.variation_id),
      quantity: Number(r.quantity),
    }));
  }

  async handedOffUpcoming(startsAfter: string, limit: number): Promise<Order[]> {
    const rows = await this.db
      .selectFrom('orders')
      .selectAll()
      .where('status', '=', 'handedOff')
      .where('catalog_order_id', 'is not', null)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('tickets')
            .select('tickets.id')
            .whereRef('tickets.order_id', '=', 'orders.id')
            .where('tickets.starts_at', '>=', startsAfter),
        ),
      )
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return rows.map(toOrder);
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

export async function refusedHandOffsOf(db: StoreDb, limit: number): Promise<RefusedHandOff[]> {
  const rows = await db
    .selectFrom('orders')
    .select(['id', 'handoff_error', 'updated_at'])
    .where('handoff_error', 'is not', null)
    .where('catalog_order_id', 'is', null)
    .orderBy('updated_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ orderId: r.id, reason: r.handoff_error ?? '', at: r.updated_at }));
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
      handoffError: row.handoff_error,
      refundedAmount: row.refunded_amount,
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
