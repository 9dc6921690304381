import { Inject, Injectable, Logger } from '@nestjs/common';
import { CatalogService } from '../catalog/catalog.service.js';
import { StoreDatabase, type StoreDb } from '../store/store.database.js';
import { stockOf } from './capacity.js';
import {
  enqueue,
  findOrder,
  orderLines,
  HELD_UNTIL,
  hasActiveReservation,
  type OrderRow,
  releaseReservations,
  reservedByKey,
  setReservationExpiry,
} from './checkout.repository.js';
import { CheckoutOptions } from './checkout.options.js';
import { OutboxWorker } from './outbox.worker.js';
import {
  type PaymentEvent,
  PaymentsPort,
  WebhookSignatureError,
} from './payments/payments.port.js';

/** What an event did; shown on the webhook test page (no personal data). */
export type EventOutcome =
  | 'paid'
  | 'processing'
  | 'expired'
  | 'canceled'
  | 'refund_pending'
  | 'unchanged'
  | 'unknown_order'
  | 'ignored'
  | 'test'
  | 'duplicate';

export interface RecentEvent {
  type: string;
  receivedAt: string;
  outcome: string;
}

/**
 * The one pipeline every payment event goes through, from Stripe's webhook or the test
 * provider (DESIGN "Webhook"): verified, recorded by id for good, applied in the same
 * transaction. Transitions only move forward, so duplicates and any arrival order end
 * in the same state.
 */
@Injectable()
export class OrderEventsService {
  private readonly logger = new Logger('CheckoutEvents');

  constructor(
    @Inject(StoreDatabase) private readonly store: StoreDatabase,
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
    @Inject(OutboxWorker) private readonly outbox: OutboxWorker,
    @Inject(CheckoutOptions) private readonly options: CheckoutOptions,
    @Inject(CatalogService) private readonly catalog: CatalogService,
  ) {}

  /** Verifies and applies a delivery; WebhookSignatureError when forged or stale. */
  async deliver(rawBody: Buffer | string, signature: string): Promise<EventOutcome> {
    const event = this.payments.parseWebhook(rawBody, signature);
    return this.apply(event);
  }

  async apply(event: PaymentEvent): Promise<EventOutcome> {
    // Read before the write transaction: a late payment needs the current stock, and no
    // network call may run while the store's write lock is held.
    const stock = isPayment(event) ? await this.currentStock(event) : null;
    const now = Date.now();
    const outcome = await this.store.write(async (trx) => {
      const recorded = await trx
        .insertInto('webhook_events')
        .values({ id: event.id, type: event.type, received_at: now, outcome: 'received' })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!recorded) return 'duplicate' as const;
      const result = await this.transition(trx, event, now, stock);
      await trx
        .updateTable('webhook_events')
        .set({ outcome: result })
        .where('id', '=', event.id)
        .execute();
      return result;
    });
    if (outcome === 'paid' || outcome === 'refund_pending') this.outbox.kick();
    this.logger.log({ msg: 'payment event', id: event.id, type: event.type, outcome });
    return outcome;
  }

  async recent(): Promise<RecentEvent[]> {
    const rows = await this.store.db
      .selectFrom('webhook_events')
      .select(['type', 'received_at', 'outcome'])
      .orderBy('received_at', 'desc')
      .limit(this.options.recentEventsLimit)
      .execute();
    return rows.map((r) => ({
      type: r.type,
      receivedAt: new Date(r.received_at).toISOString(),
      outcome: r.outcome,
    }));
  }

  private async transition(
    trx: StoreDb,
    event: PaymentEvent,
    now: number,
    stock: StockLookup | null,
  ): Promise<EventOutcome> {
    if (event.type === 'awhh.webhook_test') return 'test';
    if (!event.type.startsWith('checkout.session.')) return 'ignored';
    const found = await findOrder(trx, { id: event.orderId, sessionId: event.sessionId });
    if (!found) return 'unknown_order';
    // PostgreSQL runs concurrent deliveries side by side: lock the order row and read it
    // again, so each transition sees the state the previous one committed. (SQLite's
    // BEGIN IMMEDIATE already runs them one after another.)
    if (this.store.kind === 'postgres') {
      await trx.selectFrom('orders').select('id').where('id', '=', found.id).forUpdate().execute();
    }
    const order = (await findOrder(trx, { id: found.id }))!;

    switch (event.type) {
      case 'checkout.session.completed':
        return event.paymentStatus === 'paid' || event.paymentStatus === 'no_payment_required'
          ? this.markPaid(trx, order, event, now, stock)
          : this.markProcessing(trx, order, event, now);
      case 'checkout.session.async_payment_succeeded':
        return this.markPaid(trx, order, event, now, stock);
      case 'checkout.session.async_payment_failed':
        return this.close(trx, order, 'canceled', now, ['open', 'processing']);
      case 'checkout.session.expired':
        return this.close(trx, order, 'expired', now, ['open']);
      default:
        return 'ignored';
    }
  }

  private async markPaid(
    trx: StoreDb,
    order: OrderRow,
    event: PaymentEvent,
    now: number,
    stock: StockLookup | null,
  ): Promise<EventOutcome> {
    if (order.status === 'paid' || order.refund_status !== null) return 'unchanged';

    const stillReserved =
      (order.status === 'open' || order.status === 'processing') &&
      (await hasActiveReservation(trx, order.id, now));
    if (!stillReserved && !(await this.fitsAgain(trx, order.id, now, stock))) {
      // DESIGN "Capacity": paid after its reservation lapsed and the places are gone.
      await releaseReservations(trx, order.id);
      await trx
        .updateTable('orders')
        .set({
          status: 'canceled',
          refund_status: 'pending',
          payment_reference: event.paymentReference ?? order.payment_reference,
          email: event.email ?? order.email,
          buyer_name: event.name ?? order.buyer_name,
          updated_at: now,
        })
        .where('id', '=', order.id)
        .execute();
      await enqueue(trx, 'refund', order.id, now);
      return 'refund_pending';
    }

    // Held until the catalog's stock reflects the order (see OutboxWorker).
    await setReservationExpiry(trx, order.id, HELD_UNTIL);
    await trx
      .updateTable('orders')
      .set({
        status: 'paid',
        paid_at: now,
        payment_reference: event.paymentReference ?? order.payment_reference,
        // DESIGN "Everything the shop sells": the buyer as the payment page collected them.
        email: event.email ?? order.email,
        buyer_name: event.name ?? order.buyer_name,
        session_id: order.session_id ?? event.sessionId,
        updated_at: now,
      })
      .where('id', '=', order.id)
      .execute();
    await enqueue(trx, 'handoff', order.id, now);
    return 'paid';
  }

  /** An async payment (e.g. SEPA) has started: the places stay held until it settles. */
  private async markProcessing(
    trx: StoreDb,
    order: OrderRow,
    event: PaymentEvent,
    now: number,
  ): Promise<EventOutcome> {
    if (order.status !== 'open') return 'unchanged';
    await setReservationExpiry(trx, order.id, HELD_UNTIL);
    await trx
      .updateTable('orders')
      .set({
        status: 'processing',
        email: event.email ?? order.email,
        buyer_name: event.name ?? order.buyer_name,
        updated_at: now,
      })
      .where('id', '=', order.id)
      .execute();
    return 'processing';
  }

  private async close(
    trx: StoreDb,
    order: OrderRow,
    status: 'expired' | 'canceled',
    now: number,
    from: readonly string[],
  ): Promise<EventOutcome> {
    if (!from.includes(order.status)) return 'unchanged';
    await releaseReservations(trx, order.id);
    await trx
      .updateTable('orders')
      .set({ status, updated_at: now })
      .where('id', '=', order.id)
      .execute();
    return status;
  }

  /** Whether a lapsed order's lines fit into what others have not reserved meanwhile. */
  private async fitsAgain(
    trx: StoreDb,
    orderId: string,
    now: number,
    stock: StockLookup | null,
  ): Promise<boolean> {
    // Without the catalog's stock the question cannot be answered: fail the delivery so
    // the provider retries it later (the event is not recorded, the transaction rolls back).
    if (!stock || stock instanceof Error) {
      throw stock ?? new Error('stock unknown for a late payment');
    }
    const own = await trx
      .selectFrom('reservations')
      .select(['product_key', 'quantity'])
      .where('order_id', '=', orderId)
      .execute();
    const keys = own.map((r) => r.product_key);
    await this.store.lockCapacity(trx, keys);
    const reserved = await reservedByKey(trx, keys, now, orderId);
    return own.every((r) => {
      const limit = stock.get(r.product_key);
      return (
        limit === null ||
        (limit !== undefined && r.quantity <= limit - (reserved.get(r.product_key) ?? 0))
      );
    });
  }

  private async currentStock(event: PaymentEvent): Promise<StockLookup> {
    try {
      const order = await findOrder(this.store.db, {
        id: event.orderId,
        sessionId: event.sessionId,
      });
      const stock = new Map<number, number | null>();
      if (!order) return stock;
      for (const line of await orderLines(this.store.db, order.id)) {
        const key = line.variation_id ?? line.product_id;
        stock.set(key, stockOf(await this.catalog.productById(key)));
      }
      return stock;
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }
}

/** Stock per unit (null = unlimited), or why it could not be read. */
type StockLookup = Map<number, number | null> | Error;

function isPayment(event: PaymentEvent): boolean {
  return (
    (event.type === 'checkout.session.completed' &&
      (event.paymentStatus === 'paid' || event.paymentStatus === 'no_payment_required')) ||
    event.type === 'checkout.session.async_payment_succeeded'
  );
}

export { WebhookSignatureError };
