import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { sql, type Selectable } from 'kysely';
import { type OrderHandOff, STRIPE_PAYMENT, TEST_MODE_PAYMENT } from '../catalog/catalog.port.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { AppConfig } from '../config/config.js';
import { StoreDatabase } from '../store/store.database.js';
import type { OutboxTable } from '../store/store.schema.js';
import { splitName } from './buyer-details.js';
import {
  findOrder,
  newId,
  orderLines,
  type OrderRow,
  setReservationExpiry,
} from './checkout.repository.js';
import { CheckoutOptions } from './checkout.options.js';
import { PaymentsPort } from './payments/payments.port.js';

type OutboxJob = Selectable<OutboxTable>;

/** After the hand-off the catalog's stock counts the order; until every process's cache has seen that, the reservation stays. */
const CACHE_SETTLE_MS = 5_000;

/**
 * Delivers paid orders to the catalog and refunds late payments (DESIGN "Webhook").
 * Jobs live in the store's outbox, so nothing is lost when WooCommerce or Stripe is down
 * or the process restarts; every process polls, and a lease keeps two from running the
 * same job at once. The catalog's createOrder is idempotent by reference, so a job that
 * ran but could not be marked done is harmless to run again.
 */
@Injectable()
export class OutboxWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Outbox');
  private readonly owner = newId('worker');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    @Inject(StoreDatabase) private readonly store: StoreDatabase,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
    @Inject(CheckoutOptions) private readonly options: CheckoutOptions,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.kick(), this.options.outboxPollMs);
    this.timer.unref();
    this.kick();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Runs due jobs now instead of at the next poll (after a payment was recorded). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err) => this.logger.error({ msg: 'outbox poll failed', error: String(err) }))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const job = await this.claim();
      if (!job) return;
      await this.run(job);
    }
  }

  /** Takes one due job under a lease; a conditional update decides between competing processes. */
  private async claim(): Promise<OutboxJob | undefined> {
    const now = Date.now();
    const due = await this.store.db
      .selectFrom('outbox')
      .select('id')
      .where('done_at', 'is', null)
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('next_attempt_at')
      .limit(5)
      .execute();
    for (const { id } of due) {
      const claimed = await this.store.db
        .updateTable('outbox')
        .set({
          lease_owner: this.owner,
          lease_until: now + this.options.outboxLeaseMs,
          attempts: sql<number>`attempts + 1`,
        })
        .where('id', '=', id)
        .where('done_at', 'is', null)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .returningAll()
        .executeTakeFirst();
      if (claimed) return claimed;
    }
    return undefined;
  }

  private async run(job: OutboxJob): Promise<void> {
    try {
      if (job.kind === 'handoff') await this.handOff(job);
      else if (job.kind === 'refund') await this.refund(job);
      else throw new Error(`unknown outbox job kind ${job.kind}`);
    } catch (err) {
      const delay = Math.min(
        this.options.outboxBaseBackoffMs * 2 ** Math.max(0, job.attempts - 1),
        this.options.outboxMaxBackoffMs,
      );
      const error = err instanceof Error ? err.message : String(err);
      this.logger.warn({
        msg: `outbox ${job.kind} failed, retrying`,
        orderId: job.order_id,
        attempts: job.attempts,
        retryInMs: delay,
        error,
      });
      await this.store.db
        .updateTable('outbox')
        .set({
          next_attempt_at: Date.now() + delay,
          lease_owner: null,
          lease_until: null,
          last_error: error.slice(0, 500),
        })
        .where('id', '=', job.id)
        .where('lease_owner', '=', this.owner)
        .execute();
    }
  }

  private async handOff(job: OutboxJob): Promise<void> {
    const order = await findOrder(this.store.db, { id: job.order_id });
    if (!order) throw new Error(`order ${job.order_id} not found`);
    const lines = await orderLines(this.store.db, order.id);
    const handOff: OrderHandOff = {
      reference: order.id,
      email: order.email,
      ...(order.buyer_name ? { buyer: splitName(order.buyer_name) } : {}),
      payment: this.isTestMode(order) ? TEST_MODE_PAYMENT : STRIPE_PAYMENT,
      lines: lines.map((l) => ({
        productId: l.product_id,
        ...(l.variation_id !== null ? { variationId: l.variation_id } : {}),
        name: l.name,
        quantity: l.quantity,
        // Integer cents, like the total.
        unitAmount: l.unit_amount,
      })),
      couponCode: order.coupon_code,
      total: order.total,
      currency: order.currency,
      paymentReference: order.payment_reference ?? order.id,
    };
    const result = await this.catalog.createOrder(handOff);
    const now = Date.now();
    await this.store.write(async (trx) => {
      await trx
        .updateTable('orders')
        .set({ catalog_order_id: result.id, updated_at: now })
        .where('id', '=', order.id)
        .execute();
      // The catalog's stock now carries the order; the reservation only has to outlive
      // the catalog caches (CATALOG_TTL_SECONDS) of every process.
      await setReservationExpiry(
        trx,
        order.id,
        now + this.config.catalogTtlSeconds * 1000 + CACHE_SETTLE_MS,
      );
      await this.finish(trx, job);
    });
    this.logger.log({ msg: 'order handed off', orderId: order.id, catalogOrderId: result.id });
  }

  /**
   * Paid on the test provider, or free while payments run on it (the whole shop is then in
   * test mode): WooCommerce must not count such an order as real money.
   */
  private isTestMode(order: OrderRow): boolean {
    return (
      order.provider === 'test' || (order.provider === 'none' && this.payments.name === 'test')
    );
  }

  private async refund(job: OutboxJob): Promise<void> {
    const order = await findOrder(this.store.db, { id: job.order_id });
    if (!order) throw new Error(`order ${job.order_id} not found`);
    if (!order.payment_reference) throw new Error(`order ${order.id} has no payment reference`);
    const refund = await this.payments.refund(
      order.payment_reference,
      order.total,
      `awhh-refund-${order.id}`,
    );
    await this.store.write(async (trx) => {
      await trx
        .updateTable('orders')
        .set({ refund_status: 'refunded', refund_reference: refund.id, updated_at: Date.now() })
        .where('id', '=', order.id)
        .execute();
      await this.finish(trx, job);
    });
    this.logger.warn({ msg: 'late payment refunded: no capacity left', orderId: order.id });
  }

  private async finish(trx: StoreDatabase['db'], job: OutboxJob): Promise<void> {
    await trx
      .updateTable('outbox')
      .set({ done_at: Date.now(), lease_owner: null, lease_until: null, last_error: null })
      .where('id', '=', job.id)
      .execute();
  }
}
