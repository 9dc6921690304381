import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import { type OrderHandOff, STRIPE_PAYMENT, TEST_MODE_PAYMENT } from '../catalog/catalog.port.js';
import { CatalogService } from '../catalog/catalog.service.js';
import {
  type Order,
  OrderRepository,
  type OutboxJob,
  OutboxRepository,
} from '../store/store.port.js';
import { TicketMailService } from '../tickets/mail/ticket-mail.service.js';
import { WaitlistMailer } from '../waitlist/waitlist-mailer.js';
import { splitName } from './buyer-details.js';
import { CheckoutOptions } from './checkout.options.js';
import { newId } from './ids.js';
import { OrderService } from './order.service.js';
import { OutboxSignal } from './outbox.signal.js';
import { PaymentsPort } from './payments/payments.port.js';
import { SerialRunner } from '../common/serial-runner.js';
import { maskSecrets } from '../common/log-masking.js';

/**
 * Delivers paid orders to the catalog, refunds late payments (rules "Webhook") and sends
 * the ticket mails (rules "E-mail").
 * Jobs live in the store's outbox, so nothing is lost when WooCommerce or Stripe is down
 * or the process restarts; every process polls, and a lease keeps two from running the
 * same job at once. The catalog's createOrder is idempotent by reference, so a job that
 * ran but could not be marked done is harmless to run again. Kept by hand: the job must
 * commit in the same transaction as the order on SQLite (the embedded default) and on
 * PostgreSQL; pg-boss is PostgreSQL-only and BullMQ needs Redis beside the store.
 */
@Injectable()
export class OutboxWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Outbox');
  private readonly owner = newId('worker');
  private readonly runner = new SerialRunner(
    () => this.drain(),
    (err) => this.logger.error({ msg: 'outbox poll failed', error: String(err) }),
  );

  constructor(
    @Inject(OutboxRepository) private readonly jobs: OutboxRepository,
    @Inject(OrderRepository) private readonly orders: OrderRepository,
    @Inject(OrderService) private readonly orderService: OrderService,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
    @Inject(CheckoutOptions) private readonly options: CheckoutOptions,
    @Inject(TicketMailService) private readonly ticketMail: TicketMailService,
    @Inject(OutboxSignal) signal: OutboxSignal,
    // Optional: a module graph without the waiting list (unit setups) still delivers orders.
    @Optional() @Inject(WaitlistMailer) private readonly waitlistMail?: WaitlistMailer,
  ) {
    signal.listen(() => this.kick());
  }

  onApplicationBootstrap(): void {
    this.runner.start(this.options.outboxPollMs);
  }

  async onModuleDestroy(): Promise<void> {
    await this.runner.stop();
  }

  /** Runs due jobs now instead of at the next poll. */
  kick(): void {
    this.runner.kick();
  }

  private async drain(): Promise<void> {
    while (!this.runner.isStopped) {
      const job = await this.jobs.lease(this.owner, Date.now(), this.options.outboxLeaseMs);
      if (job) {
        await this.run(job);
        continue;
      }
      // rules "Waiting list": its mails name no order, so they wait in a table of their
      // own; this worker runs them too, with the same lease and back-off.
      if (!(await this.waitlistMail?.runOne(this.owner))) return;
    }
  }

  private async run(job: OutboxJob): Promise<void> {
    try {
      if (job.kind === 'handoff') await this.handOff(job);
      else if (job.kind === 'refund') await this.refund(job);
      else if (job.kind === 'mail' || job.kind === 'resend') await this.sendMail(job);
      else throw new Error(`unknown outbox job kind ${String(job.kind)}`);
    } catch (err) {
      const delay = Math.min(
        this.options.outboxBaseBackoffMs * 2 ** Math.max(0, job.attempts - 1),
        this.options.outboxMaxBackoffMs,
      );
      // Kept with the job as well as logged: a mail server's refusal names the recipient.
      const error = maskSecrets(err instanceof Error ? err.message : String(err));
      this.logger.warn({
        msg: `outbox ${job.kind} failed, retrying`,
        orderId: job.orderId,
        attempts: job.attempts,
        retryInMs: delay,
        error,
      });
      await this.jobs.retry(job.id, this.owner, Date.now() + delay, error);
    }
  }

  private async handOff(job: OutboxJob): Promise<void> {
    const order = await this.order(job);
    if (order.status === 'refunded') {
      // Refunded at the provider before WooCommerce had it: there is nothing to sell.
      await this.jobs.complete(job.id, Date.now());
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
      })),
      couponCode: order.couponCode,
      total: context.total,
      currency: order.currency,
      paymentReference: context.paymentReference ?? order.id,
    };
    const result = await this.catalog.createOrder(handOff);
    await this.orderService.recordHandOff(job, result.id);
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

  private async refund(job: OutboxJob): Promise<void> {
    const order = await this.order(job);
    const { paymentReference, total } = order.context;
    if (!paymentReference) throw new Error(`order ${order.id} has no payment reference`);
    const refund = await this.payments.refund(paymentReference, total, `awhh-refund-${order.id}`);
    await this.orderService.recordRefund(job, refund.id);
    this.logger.warn({ msg: 'late payment refunded: no capacity left', orderId: order.id });
  }

  /**
   * rules "E-mail": the ticket mail, once per paid order. The job completes right after
   * the mail server accepted the mail; the mail's id is stable per order, so the embedded
   * mailbox keeps a repeat once and a receiver can recognise one.
   */
  private async sendMail(job: OutboxJob): Promise<void> {
    const outcome =
      job.kind === 'mail'
        ? await this.ticketMail.sendOrderMail(job.orderId)
        : await this.ticketMail.sendResend(job.orderId);
    await this.jobs.complete(job.id, Date.now());
    if (outcome !== 'sent')
      this.logger.log({ msg: `no ${job.kind} sent: ${outcome}`, orderId: job.orderId });
  }

  private async order(job: OutboxJob): Promise<Order> {
    const order = await this.orders.find({ id: job.orderId });
    if (!order) throw new Error(`order ${job.orderId} not found`);
    return order;
  }
}
