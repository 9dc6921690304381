import { OnEvent } from '@nestjs/event-emitter';
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
import { CheckoutOptions } from '../orders/checkout.options.js';
import { AppConfig } from '../config/config.js';
import { Holds, PLACES_RELEASED } from '../holds/holds.js';
import { findStockUnit, type StockUnit } from '../holds/stock-unit.js';
import { Store, type Transaction } from '../store/store.port.js';
import {
  type WaitedUnit,
  type WaitlistEntry,
  type WaitlistOffer,
  WAITLIST_CONFIRMED,
  WaitlistRepository,
} from './waitlist.port.js';
import { newWaitlistToken } from './waitlist-links.js';
import { waitlistMailJob } from './waitlist-mailer.js';
import { SerialRunner } from '../common/serial-runner.js';
import { HoldRepository } from '../holds/holds.port.js';
import { JobRepository } from '../jobs/jobs.port.js';

/**
 * The unit's stock from the catalog (null: unlimited) and when the shop reported it;
 * undefined when the catalog no longer sells it that way (product or tier gone, or its
 * stock moved to another unit).
 */
export function stockOfWaitedUnit(
  products: readonly CatalogProduct[],
  unit: WaitedUnit,
): StockUnit | undefined {
  const found = findStockUnit(products, unit.productId, unit.variationId);
  return found?.productKey === unit.productKey ? found : undefined;
}

/**
 * rules "Waiting list": turns places that came free into offers. Places come free in three
 * ways: a hold expires or is released (a checkout canceled, a paid order refunded, an offer
 * declined: the `places.released` event after the commit, `PLACES_RELEASED` in `holds/holds.ts`), and
 * the organizer raises the stock in WooCommerce (seen through the catalog at the next
 * periodic pass). So one pass covers all of them: per stock unit somebody waits for, free =
 * stock − holds (checkouts' and offers'), and the oldest confirmed entries whose quantity
 * fits get an offer, whose hold keeps the places.
 *
 * Only places that came free while the entry waited are offered (docs/features.md "Waiting list"):
 * each entry carries the places that were on sale when it was confirmed (`publicFree`,
 * lowered at every pass to what is on sale then). Those stay on sale to everyone; an entry
 * is offered only what is free beyond them, so the list never takes seats nobody had sold.
 *
 * Several processes run it at once: each stock unit is handled in one write transaction
 * under `lockCapacity` (PostgreSQL: the unit's lock row, taken by checkouts too; SQLite: the
 * write lock), which re-reads the queue and the holds after taking the lock, so a
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
    @Inject(Holds) private readonly holds: Holds,
  ) {}

  /** An entry was confirmed (published after its commit): look now. */
  @OnEvent(WAITLIST_CONFIRMED)
  onConfirmed(): void {
    this.kick();
  }

  /** Places came free (published by the holds' users after their commit): look now. */
  @OnEvent(PLACES_RELEASED)
  onPlacesReleased(): void {
    this.kick();
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
    // rules "Waiting list": entries are deleted once their event is over (the day after).
    const cutoff = startOfBerlinDay(new Date(now)).getTime();
    const removed = await this.store.write((tx) =>
      tx.get(WaitlistRepository).removeStartedBefore(cutoff),
    );
    if (removed > 0)
      this.logger.log({ msg: 'waiting-list entries of past events deleted', removed });
    // Cheap when nobody waits: one indexed query, no catalog, no lock.
    const units = await this.waitlist.waitedUnits();
    if (units.length === 0) return [];
    // The current stock: a raise in WooCommerce counts as soon as the catalog has seen it.
    const products = await this.catalog.currentProducts();
    const made: WaitlistOffer[] = [];
    for (const unit of units) {
      const found = stockOfWaitedUnit(products, unit);
      if (found === undefined) continue;
      made.push(...(await this.offerPlaces(found)));
    }
    if (made.length > 0) {
      this.logger.log({ msg: 'waiting-list offers made', offers: made.length });
    }
    return made;
  }

  /**
   * rules "Giving a ticket back": `places` places of the unit that returned tickets lend go
   * to the oldest confirmed entries they fit, in the caller's transaction (which holds the
   * unit's capacity lock). Each offer's hold is matched by a lent hold (`Holds.lend`), so
   * the offers cost nothing against the stock and only their claimers can buy the places;
   * they are never on sale to everyone. Returns the offers with their places.
   */
  async offerReturned(
    tx: Transaction,
    productKey: number,
    places: number,
    now: number,
  ): Promise<WaitlistOffer[]> {
    const queue = await tx.get(WaitlistRepository).queue(productKey);
    const expiresAt = now + Math.round(this.config.waitlistOfferHours * 3_600_000);
    const made: WaitlistOffer[] = [];
    let left = places;
    for (const entry of queue) {
      if (left <= 0) break;
      if (entry.quantity > left) continue;
      const offer = await this.makeOffer(tx, entry, productKey, expiresAt, now);
      if (!offer) continue;
      await this.holds.lend(tx, {
        owner: entry.id,
        productKey,
        quantity: entry.quantity,
        expiresAt,
      });
      left -= entry.quantity;
      made.push(offer);
    }
    if (made.length > 0) {
      this.logger.log({ msg: 'returned places offered', offers: made.length });
    }
    return made;
  }

  /** The entry's offer, its places held claimable with the offer's token, and its mail. */
  private async makeOffer(
    tx: Transaction,
    entry: WaitlistEntry,
    productKey: number,
    expiresAt: number,
    now: number,
  ): Promise<WaitlistOffer | null> {
    if (!(await tx.get(WaitlistRepository).markOffered(entry.id))) return null;
    const token = newWaitlistToken();
    const [hold] = await tx
      .get(HoldRepository)
      .add([
        { owner: entry.id, productKey, quantity: entry.quantity, expiresAt, claimToken: token },
      ]);
    const offer = await tx
      .get(WaitlistRepository)
      .createOffer({ entryId: entry.id, token, holdId: hold!.id }, now);
    await tx.get(JobRepository).enqueue(waitlistMailJob.offer(entry.id, offer.id), now);
    return offer;
  }

  private offerPlaces({ productKey, stock, readAt }: StockUnit): Promise<WaitlistOffer[]> {
    // Unlimited: everything is on sale to everyone, so nothing ever comes free for the list.
    if (stock === null) return Promise.resolve([]);
    return this.store.write(async (tx) => {
      await tx.get(HoldRepository).lockCapacity([productKey]);
      const now = Date.now();
      const queue = await tx.get(WaitlistRepository).queue(productKey);
      if (queue.length === 0) return [];
      const held =
        (await tx.get(HoldRepository).heldByKey([productKey], now, readAt)).get(productKey) ?? 0;
      let free = Math.max(0, stock - held);
      // What is on sale now stays on sale for every entry unless it is taken and comes free
      // again. Every sale counts once (docs/ledger.md), so what is free is what is on sale.
      const onSale = free;
      await tx.get(WaitlistRepository).capPublicFree(productKey, onSale);
      const expiresAt = now + Math.round(this.config.waitlistOfferHours * 3_600_000);
      const made: WaitlistOffer[] = [];
      // Oldest first; an entry wanting more than came free for it waits while a later,
      // smaller one fits.
      for (const entry of queue) {
        if (free <= 0) break;
        const publicFree = Math.min(entry.publicFree ?? onSale, onSale);
        if (entry.quantity > free - publicFree) continue;
        // The offer's places are a hold of the entry's, claimable with the offer's token.
        const offer = await this.makeOffer(tx, entry, productKey, expiresAt, now);
        if (!offer) continue;
        free -= entry.quantity;
        made.push(offer);
      }
      return made;
    });
  }
}
