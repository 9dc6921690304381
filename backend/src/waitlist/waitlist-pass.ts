import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { startOfBerlinDay } from '@awhh/machines';
import type { CatalogProduct } from '../catalog/catalog.port.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { stockUnitOf } from '../checkout/capacity.js';
import { CheckoutOptions } from '../checkout/checkout.options.js';
import { OutboxSignal } from '../checkout/outbox.signal.js';
import { AppConfig } from '../config/config.js';
import {
  Store,
  type WaitedUnit,
  type WaitlistOffer,
  WaitlistRepository,
} from '../store/store.port.js';
import { newWaitlistToken } from './waitlist-links.js';
import { WaitlistSignal } from './waitlist.signal.js';
import { SerialRunner } from '../common/serial-runner.js';

/**
 * DESIGN "Waiting list": turns free places into offers. Places come free in three ways:
 * a reservation expires or is canceled, a paid order is refunded (both release an order's
 * reservation, and the order service wakes this pass after the commit), and the organizer
 * raises the stock in WooCommerce (seen through the catalog at the next periodic pass). A
 * lapsed or declined offer frees its places the same way. So one pass covers all of them:
 * per stock unit somebody waits for, free = stock − reservations − active offers, and the
 * oldest confirmed entries whose quantity fits get an offer, which reserves the places.
 *
 * Several processes run it at once: each stock unit is handled in one write transaction
 * under `lockCapacity` (PostgreSQL: the unit's lock row, taken by checkouts too; SQLite: the
 * write lock), which re-reads the queue and the reservations after taking the lock, so a
 * second pass sees the first one's offers and the same place is never offered twice.
 */
@Injectable()
export class WaitlistPass implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Waitlist');
  private readonly runner = new SerialRunner(
    () => this.run(),
    (err) => this.logger.error({ msg: 'waiting-list pass failed', error: String(err) }),
  );

  constructor(
    @Inject(Store) private readonly store: Store,
    @Inject(WaitlistRepository) private readonly waitlist: WaitlistRepository,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(CheckoutOptions) private readonly options: CheckoutOptions,
    @Inject(OutboxSignal) private readonly outbox: OutboxSignal,
    @Inject(WaitlistSignal) signal: WaitlistSignal,
  ) {
    signal.listen(() => this.kick());
  }

  onApplicationBootstrap(): void {
    this.runner.start(this.options.waitlistPassMs);
  }

  async onModuleDestroy(): Promise<void> {
    await this.runner.stop();
  }

  /** Runs a pass now; one that is running is followed by one more, never two at once. */
  kick(): void {
    this.runner.kick();
  }

  /** Waits for a running pass (tests, shutdown). */
  async idle(): Promise<void> {
    await this.runner.idle();
  }

  /** One pass; returns the offers it made. */
  async run(): Promise<WaitlistOffer[]> {
    const now = Date.now();
    await this.waitlist.expireOffers(now);
    // DESIGN "Waiting list": entries are deleted once their event is over (the day after).
    const cutoff = startOfBerlinDay(new Date(now)).getTime();
    const removed = await this.store.write((tx) => tx.waitlist.removeStartedBefore(cutoff));
    if (removed > 0)
      this.logger.log({ msg: 'waiting-list entries of past events deleted', removed });
    // Cheap when nobody waits: one indexed query, no catalog, no lock.
    const units = await this.waitlist.waitedUnits();
    if (units.length === 0) return [];
    // The current stock: a raise in WooCommerce counts as soon as the catalog has seen it.
    const products = await this.catalog.currentProducts();
    const made: WaitlistOffer[] = [];
    for (const unit of units) {
      const stock = stockOfUnit(products, unit);
      if (stock === undefined) continue;
      made.push(...(await this.offerPlaces(unit.productKey, stock)));
    }
    if (made.length > 0) {
      this.outbox.wake();
      this.logger.log({ msg: 'waiting-list offers made', offers: made.length });
    }
    return made;
  }

  private offerPlaces(productKey: number, stock: number | null): Promise<WaitlistOffer[]> {
    return this.store.write(async (tx) => {
      await tx.orders.lockCapacity([productKey]);
      const now = Date.now();
      const queue = await tx.waitlist.queue(productKey);
      if (queue.length === 0) return [];
      const reserved = (await tx.orders.reservedByKey([productKey], now)).get(productKey) ?? 0;
      let free = stock === null ? Number.POSITIVE_INFINITY : stock - reserved;
      const expiresAt = now + Math.round(this.config.waitlistOfferHours * 3_600_000);
      const made: WaitlistOffer[] = [];
      // Oldest first; an entry wanting more than is free waits while a later, smaller one fits.
      for (const entry of queue) {
        if (free <= 0) break;
        if (entry.quantity > free) continue;
        const offer = await tx.waitlist.createOffer(
          {
            entryId: entry.id,
            token: newWaitlistToken(),
            productKey,
            quantity: entry.quantity,
            expiresAt,
          },
          now,
        );
        if (!offer) continue;
        await tx.waitlist.enqueueMail('offer', entry.id, offer.id, now);
        free -= entry.quantity;
        made.push(offer);
      }
      return made;
    });
  }
}

/**
 * The unit's stock from the catalog (null: unlimited); undefined when the catalog no longer
 * sells it that way (product or tier gone, or its stock moved to another unit).
 */
function stockOfUnit(
  products: readonly CatalogProduct[],
  unit: WaitedUnit,
): number | null | undefined {
  const product = products.find((p) => p.id === unit.productId);
  if (!product) return undefined;
  const variation =
    unit.variationId === null ? null : product.variants?.find((v) => v.id === unit.variationId);
  if (unit.variationId !== null && !variation) return undefined;
  const found = stockUnitOf(product, variation);
  return found.productKey === unit.productKey ? found.stock : undefined;
}
