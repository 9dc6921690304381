import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { type OrderHandOff, STRIPE_PAYMENT, TEST_MODE_PAYMENT } from '../catalog/catalog.port.js';
import { CatalogError } from '../catalog/catalog.errors.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { CatalogVersion } from '../catalog/catalog-version.js';
import { Holds } from '../holds/holds.js';
import { AppConfig } from '../config/config.js';
import { MailPort } from '../mail/mail.port.js';
import { raiseOrganizerNotice } from '../notices/organizer-notices.port.js';
import { Store } from '../store/store.port.js';
import { handoffRefusedMail } from './handoff-refused-mail.js';
import type { Job } from '../jobs/job-handlers.js';
import { JobHandlers } from '../jobs/job-handlers.js';
import { type Order, OrderRepository } from './orders.port.js';
import { splitName } from './buyer-details.js';
import { CheckoutOptions } from './checkout.options.js';
import {
  describeOrderJob,
  ORDER_JOBS,
  type OrderJobPayload,
  type ShopRestockPayload,
} from './order-jobs.js';
import { OrderService } from './order.service.js';
import { PaymentsPort } from './payments/payments.port.js';
import { RECONCILIATION_JOB, ReconciliationService } from './reconciliation.service.js';

/**
 * Delivers paid orders to the catalog and refunds late payments (rules "Webhook"), as jobs
 * of the job runner: nothing is lost when WooCommerce or Stripe is down or the process
 * restarts; and sweeps for orders whose payment's outcome never arrived (rules "The
 * order's life", `ReconciliationService`) as a recurring job. The catalog's createOrder is idempotent by reference and the refund by its
 * idempotency key, so a job that ran but could not be marked done is harmless to run again;
 * each records its outcome through the order machine, which completes the job in the same
 * transaction.
 */
@Injectable()
export class OrderJobHandlers implements OnModuleInit {
  private readonly logger = new Logger('Orders');

  constructor(
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(OrderRepository) private readonly orders: OrderRepository,
    @Inject(OrderService) private readonly orderService: OrderService,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
    @Inject(ReconciliationService) private readonly reconciliation: ReconciliationService,
    @Inject(CheckoutOptions) private readonly options: CheckoutOptions,
    @Inject(MailPort) private readonly mail: MailPort,
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(CatalogVersion) private readonly catalogVersion: CatalogVersion,
    @Inject(Holds) private readonly holds: Holds,
    @Inject(Store) private readonly store: Store,
  ) {}

  onModuleInit(): void {
    this.handlers.register<OrderJobPayload>(ORDER_JOBS.handoff, {
      run: (job) => this.handOff(job),
      describe: describeOrderJob,
    });
    this.handlers.register<OrderJobPayload>(ORDER_JOBS.refund, {
      run: (job) => this.refund(job),
      describe: describeOrderJob,
    });
    this.handlers.register<OrderJobPayload>(ORDER_JOBS.handoffRefusedMail, {
      run: (job) => this.tellOrganizer(job),
      describe: describeOrderJob,
    });
    this.handlers.register<OrderJobPayload>(ORDER_JOBS.shopRefund, {
      run: (job) => this.shopRefund(job),
      describe: describeOrderJob,
    });
    this.handlers.register<ShopRestockPayload>(ORDER_JOBS.shopRestock, {
      run: (job) => this.shopRestock(job),
      describe: (payload) => ({ ...payload }),
    });
    const every = this.options.reconcileIntervalMs;
    if (every > 0) {
      this.handlers.recurring(RECONCILIATION_JOB, {
        run: () => this.reconciliation.sweep(),
        firstRunAt: (now) => now + every,
        nextRunAt: (now) => now + every,
      });
    }
  }

  private async handOff(job: Job<OrderJobPayload>): Promise<void> {
    const order = await this.order(job);
    if (order.status === 'refunded') {
      // Refunded at the provider before WooCommerce had it: there is nothing to sell.
      this.logger.log({ msg: 'refunded before its hand-off: not handed off', orderId: order.id });
      return;
    }
    const lines = await this.orders.lines(order.id);
    const { context } = order;
    const handOff: OrderHandOff = {
      reference: order.id,
      email: context.email,
      ...(context.buyerName ? { buyer: splitName(context.buyerName) } : {}),
      payment: this.isTestMode(order) ? TEST_MODE_PAYMENT : STRIPE_PAYMENT,
      lines: lines.map((l) => ({
        productId: l.productId,
        ...(l.variationId !== null ? { variationId: l.variationId } : {}),
        name: l.name,
        quantity: l.quantity,
        // Integer cents, like the total.
        unitAmount: l.unitAmount,
        discount: l.discount,
      })),
      couponCode: order.couponCode,
      total: context.total,
      currency: order.currency,
      paymentReference: context.paymentReference ?? order.id,
    };
    let result: { id: string };
    let answeredAt: number;
    try {
      result = await this.catalog.createOrder(handOff);
      // docs/ledger.md "A sale counts once": from the shop's answer on, its stock carries the sale.
      answeredAt = Date.now();
    } catch (err) {
      // rules "Hand-off refused": a 4xx never succeeds when sent again; 5xx, timeouts and
      // the network keep retrying with the runner's backoff.
      if (!(err instanceof CatalogError) || err.kind !== 'refused') throw err;
      await this.orderService.recordHandOffRefused(job, err.message);
      this.logger.warn({
        msg: 'hand-off refused by the shop',
        orderId: order.id,
        reason: err.message,
      });
      return;
    }
    await this.orderService.recordHandOff(job, result.id, answeredAt);
    this.logger.log({ msg: 'order handed off', orderId: order.id, catalogOrderId: result.id });
  }

  /**
   * Paid on the test provider, or free while payments run on it (the whole shop is then in
   * test mode): WooCommerce must not count such an order as real money.
   */
  private isTestMode(order: Order): boolean {
    return (
      order.provider === 'test' || (order.provider === 'none' && this.payments.name === 'test')
    );
  }

  private async refund(job: Job<OrderJobPayload>): Promise<void> {
    const order = await this.order(job);
    const { paymentReference, total } = order.context;
    if (!paymentReference) throw new Error(`order ${order.id} has no payment reference`);
    const refund = await this.payments.refund(paymentReference, total, `awhh-refund-${order.id}`);
    await this.orderService.recordRefund(job, refund.id);
    this.logger.warn({ msg: 'late payment refunded: no capacity left', orderId: order.id });
  }

  /**
   * rules "Hand-off refused": the organizer's mail, with the shop's reason and the retry
   * command; without ORGANIZER_EMAIL a warning in the log says the same.
   */
  private async tellOrganizer(job: Job<OrderJobPayload>): Promise<void> {
    const order = await this.order(job);
    const reason = order.context.handoffError;
    // Handed off meanwhile (a retry went through): nothing to tell.
    if (!reason) return;
    const to = this.config.organizerEmail ?? null;
    if (!to) {
      this.logger.warn({
        msg: 'hand-off refused by the shop; set ORGANIZER_EMAIL to have the organizer told by mail',
        orderId: order.id,
        reason,
        retry: `npm run handoff:retry -- ${order.id}`,
      });
      return;
    }
    await this.mail.send(
      handoffRefusedMail(to, {
        orderId: order.id,
        reason,
        total: order.context.total,
        publicUrl: this.config.publicUrl,
        requestedAt: job.requestedAt,
      }),
    );
  }

  /**
   * rules "Refunds reach the shop": the shop's refunds of the order are brought up to what
   * the provider refunded so far (`refundedAmount`); the adapter reads the shop's refunds
   * first, so a second run creates none. An order the shop never got (refunded before its
   * hand-off) has nothing to refund there; one still on its way waits for its hand-off.
   */
  private async shopRefund(job: Job<OrderJobPayload>): Promise<void> {
    const order = await this.order(job);
    const { refundedAmount, refundReference, catalogOrderId, total } = order.context;
    if (!refundedAmount || !refundReference) return;
    // rules "Refunds": the units whose price went back (tickets a partial refund covered).
    const lines = await this.orders.lines(order.id);
    const result = await this.catalog.refundOrder({
      reference: order.id,
      catalogOrderId,
      refundedTotal: refundedAmount,
      orderTotal: total,
      refundReference,
      testMode: this.isTestMode(order),
      restock: lines
        .map((l, position) => ({ position, quantity: l.refundedQuantity }))
        .filter((l) => l.quantity > 0),
    });
    if (!result.found) {
      if (order.status === 'refunded' && catalogOrderId === null) return;
      throw new Error(
        `order ${order.id} is not in the shop yet; its refund waits for the hand-off`,
      );
    }
    this.logger.log({
      msg: result.refundId ? 'refund recorded in the shop' : 'the shop has this refund already',
      orderId: order.id,
      catalogRefundId: result.refundId,
      restocked: result.restocked ?? 0,
    });
    if ((result.restocked ?? 0) > 0) {
      // The shop's stock has those places again: every process's catalog is told, then
      // the waiting list (rules "Waiting list": places that came free).
      await this.catalogVersion.changed();
      this.holds.shopStockReturned();
    }
  }

  /**
   * docs/ledger.md "A place freed in the shop": an order refunded or trashed in the shop
   * keeps its places out of the shop's stock (WooCommerce restocks a cancellation only);
   * its tickets are revoked here, so its places go back, once. With SHOP_RESTOCK=off the
   * organizer does it in the shop, told on the dashboard and by mail which places.
   */
  private async shopRestock(job: Job<ShopRestockPayload>): Promise<void> {
    const { orderId, catalogOrderId } = job.payload;
    if (this.config.woocommerce?.restock === false) {
      const items = (await this.orders.lines(orderId))
        .map((line) => ({ line, left: line.quantity - line.refundedQuantity }))
        .filter(({ left }) => left > 0)
        .map(({ line, left }) => `${left} × ${line.name}`);
      if (items.length === 0) return;
      await this.store.write((tx) =>
        raiseOrganizerNotice(
          tx,
          { kind: 'placesNotRestocked', orderId, shopOrder: catalogOrderId, items },
          catalogOrderId,
          Date.now(),
        ),
      );
      this.logger.warn({
        msg: 'places of an order the shop no longer counts left out of its stock (SHOP_RESTOCK=off)',
        orderId,
        catalogOrderId,
      });
      return;
    }
    const result = await this.catalog.restockOrder(
      catalogOrderId,
      `After Work Hamburg: Plätze wieder im Bestand (Bestellung ${catalogOrderId} gilt nicht mehr, ihre Tickets sind storniert)`,
    );
    const units = result.restocked.reduce((sum, r) => sum + r.quantity, 0);
    this.logger.log({ msg: 'places put back into the shop', orderId, catalogOrderId, units });
    if (units > 0) {
      await this.catalogVersion.changed();
      this.holds.shopStockReturned();
    }
  }

  private async order(job: Job<OrderJobPayload>): Promise<Order> {
    const { orderId } = job.payload;
    const order = await this.orders.find({ id: orderId });
    if (!order) throw new Error(`order ${orderId} not found`);
    return order;
  }
}
