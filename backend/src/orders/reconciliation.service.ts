import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { type Order, OrderRepository } from './orders.port.js';
import { CheckoutOptions } from './checkout.options.js';
import { OrderService } from './order.service.js';
import { PaymentsPort } from './payments/payments.port.js';

/** The recurring job of the sweep (`OrderJobHandlers` registers it). */
export const RECONCILIATION_JOB = 'reconciliation-sweep';

/** Sessions whose last on-view check this process remembers; older ones are forgotten first. */
const MAX_VIEW_CHECKS = 1_000;

/**
 * rules "The order's life": an order still open after the provider's success redirect,
 * or older than `reconcileAfterMs`, is checked with the provider, so a missing or
 * misconfigured webhook loses no paid order. The sweep is a recurring job, run every
 * `reconcileIntervalMs` by one process at a time; a sweep and the success page (or a sweep
 * taken over from a slow process) may ask about the same order at once, which is harmless:
 * each transition locks the order row and the order machine ignores an event it has
 * already taken.
 */
@Injectable()
export class ReconciliationService implements OnModuleDestroy {
  private readonly logger = new Logger('Reconciliation');
  private readonly viewChecks = new Map<string, number>();
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    @Inject(OrderRepository) private readonly orders: OrderRepository,
    @Inject(OrderService) private readonly orderService: OrderService,
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
    @Inject(CheckoutOptions) private readonly options: CheckoutOptions,
  ) {}

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** One pass over the orders waiting too long for their payment's outcome; one pass at a time. */
  sweep(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= this.pass()
      .catch((err) => this.logger.error({ msg: 'reconciliation sweep failed', error: String(err) }))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /**
   * GET /api/checkout/session/:id found the order open: the buyer is back from the
   * provider, usually before its webhook. Asked at most every `reconcileOnViewMs` per
   * session (the success page polls); a provider that cannot answer leaves the order as
   * stored, and the page asks again.
   */
  async onView(order: Order): Promise<Order> {
    if (order.status !== 'open' || order.provider !== this.payments.name || !order.sessionId) {
      return order;
    }
    const now = Date.now();
    const last = this.viewChecks.get(order.sessionId);
    if (last !== undefined && now - last < this.options.reconcileOnViewMs) return order;
    this.viewChecks.delete(order.sessionId);
    this.viewChecks.set(order.sessionId, now);
    if (this.viewChecks.size > MAX_VIEW_CHECKS) {
      const oldest = this.viewChecks.keys().next().value;
      if (oldest !== undefined) this.viewChecks.delete(oldest);
    }
    try {
      return await this.orderService.reconcile(order);
    } catch (err) {
      this.logger.warn({
        msg: 'provider not asked about an open order',
        orderId: order.id,
        error: String(err),
      });
      return order;
    }
  }

  private async pass(): Promise<void> {
    const due = await this.orders.findUnsettled({
      provider: this.payments.name,
      createdBefore: Date.now() - this.options.reconcileAfterMs,
      limit: this.options.reconcileBatch,
    });
    for (const order of due) {
      if (this.stopped) return;
      try {
        const now = await this.orderService.reconcile(order);
        if (now.status !== order.status) {
          // The webhook should have done this: worth a look at its configuration.
          this.logger.warn({
            msg: 'order settled by reconciliation, not by its webhook',
            orderId: order.id,
            from: order.status,
            to: now.status,
          });
        }
      } catch (err) {
        this.logger.warn({ msg: 'order not reconciled', orderId: order.id, error: String(err) });
      }
    }
  }
}
