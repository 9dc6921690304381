import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { CatalogService } from '../catalog/catalog.service.js';
import { maskSecrets } from '../common/log-masking.js';
import { AppConfig } from '../config/config.js';
import { JobHandlers } from '../jobs/job-handlers.js';
import { SHOP_EVENT_PREFIX } from '../orders/orders.port.js';
import { ShopOrders, type ShopOrderOutcome } from './shop-orders.js';
import { ShopSweepRepository, type SweepState } from './shop.port.js';
import { wooOrderState } from './woocommerce-webhook.js';

/** The recurring job, and its row in `shop_order_sweeps`. */
export const SHOP_ORDER_SWEEP_JOB = 'shop-order-sweep';
/** What /webhook-test shows as the topic of a change the sweep applied. */
export const SWEEP_LABEL = `${SHOP_EVENT_PREFIX}sweep`;

/**
 * Timings of the sweep (rules "Orders made in the shop"). Defaults are production values.
 */
@Injectable()
export class ShopSweepOptions {
  /** How often the deployment reads the shop's changed orders. */
  intervalMs = 5 * 60_000;
  /** The first run (no high-water mark yet) reads the orders changed this long before it. */
  firstWindowMs = 24 * 3600_000;
  /**
   * Each run reads again from this long before the high-water mark: WooCommerce compares
   * whole seconds, exclusively, and an order changed in the mark's second may have been
   * committed after the last read. Reading one twice changes nothing.
   */
  overlapMs = 60_000;
}

/** Outcomes that changed something: counted as applied. */
const APPLIED: ReadonlySet<ShopOrderOutcome> = new Set([
  'tickets_issued',
  'tickets_revoked',
  'too_many_seats',
  'canceled',
]);

/**
 * rules "Orders made in the shop": nothing is lost when a webhook is. Every
 * `intervalMs`, one process (a recurring job of the job runner) reads the orders the shop
 * changed since the last run (`modified_after`, every page) and applies each as its
 * webhook would have been (`ShopOrders.apply`): an order of ours cancelled in the shop
 * goes to the order machine, an order made in the shop gets or loses its tickets. The
 * high-water mark is the shop's own `date_modified_gmt` of the latest order read, so the
 * shop's clock and ours never need to agree. Only with WooCommerce configured.
 */
@Injectable()
export class ShopOrderSweep implements OnModuleInit {
  private readonly logger = new Logger('ShopOrderSweep');

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(ShopOrders) private readonly shopOrders: ShopOrders,
    @Inject(ShopSweepRepository) private readonly sweeps: ShopSweepRepository,
    @Inject(ShopSweepOptions) private readonly options: ShopSweepOptions,
  ) {}

  onModuleInit(): void {
    if (!this.config.woocommerce) return;
    // The first run at once: a process starting after an outage catches up now.
    this.handlers.recurring(SHOP_ORDER_SWEEP_JOB, {
      run: (now) => this.sweep(now),
      nextRunAt: (now) => now + this.options.intervalMs,
    });
  }

  /** The sweep's last run for /webhook-test; null without WooCommerce. */
  async state(): Promise<SweepState | null> {
    if (!this.config.woocommerce) return null;
    return this.sweeps.state(SHOP_ORDER_SWEEP_JOB);
  }

  /** One run. A failure is recorded for /webhook-test and thrown, so the runner retries. */
  async sweep(now: number): Promise<void> {
    const { highWater } = await this.sweeps.state(SHOP_ORDER_SWEEP_JOB);
    const since =
      highWater === null ? now - this.options.firstWindowMs : highWater - this.options.overlapMs;
    let read = 0;
    let applied = 0;
    let latest: number | null = null;
    try {
      const orders = await this.catalog.ordersChangedSince(new Date(since));
      for (const body of orders) {
        const state = wooOrderState(body);
        if (!state) continue;
        read += 1;
        const outcome = await this.shopOrders.apply({
          key: `sweep:${state.id}:${state.modifiedAt ?? 'undated'}:${state.status}`,
          label: SWEEP_LABEL,
          quiet: true,
          state,
        });
        if (APPLIED.has(outcome)) applied += 1;
        if (state.modifiedAt !== null)
          latest = Math.max(latest ?? state.modifiedAt, state.modifiedAt);
      }
    } catch (err) {
      const error = maskSecrets(err instanceof Error ? err.message : String(err));
      // What was applied stays applied; the mark stays, so the retry reads it all again.
      await this.sweeps.recordRun(
        SHOP_ORDER_SWEEP_JOB,
        { lastRunAt: now, lastRead: read, lastApplied: applied, lastError: error },
        null,
      );
      throw err;
    }
    await this.sweeps.recordRun(
      SHOP_ORDER_SWEEP_JOB,
      { lastRunAt: now, lastRead: read, lastApplied: applied, lastError: null },
      latest,
    );
    if (applied > 0) {
      // Usually their webhook was lost or is still on its way; often a look at it is worth it.
      this.logger.log({ msg: 'shop orders applied by the sweep', read, applied });
    }
  }
}
