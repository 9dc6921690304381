import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  DEFAULT_EVENT_DURATION_MS,
  fromCents,
  isEventProduct,
  isPastEvent,
  type OrganizerEvent,
  type OrganizerEvents,
  type OrganizerTier,
  resolveEventDate,
  variantLabel,
  venueOf,
} from '@awhh/machines';
import { type CatalogProduct, isVariable } from '../catalog/catalog.port.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { CheckinRepository } from '../door/door.port.js';
import { findStockUnit } from '../holds/stock-unit.js';
import { OrderRepository, type OpenPlaces } from '../orders/orders.port.js';
import { TicketRepository, type TicketSale } from '../tickets/tickets.port.js';
import { type WaitlistCount, WaitlistRepository } from '../waitlist/waitlist.port.js';
import { cumulative, paidForValidTickets } from './organizer-figures.js';

/** A tier's name when the event is sold without tiers (a simple product). */
export const SINGLE_TIER_NAME = 'Ticket';

/** Everything one reading of the store and the catalog gives, for one or every event. */
interface Reading {
  products: CatalogProduct[];
  sales: TicketSale[];
  open: OpenPlaces[];
  waiting: WaitlistCount[];
}

interface TierPlan {
  variationId: number | null;
  name: string;
  /** The stock unit the tier draws from, and its stock; none when the catalog lacks it. */
  unit: { productKey: number; stock: number | null } | null;
}

/**
 * rules "The organizer": the dashboard's figures per event, read through the modules that
 * own them: the catalog (events, tiers, stock), the tickets (sold, what was paid), the
 * orders (checkouts waiting for their payment), the door (check-ins) and the waiting list
 * (queue lengths). It writes nothing.
 */
@Injectable()
export class OrganizerDashboard {
  private readonly logger = new Logger('Organizer');

  constructor(
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(TicketRepository) private readonly tickets: TicketRepository,
    @Inject(OrderRepository) private readonly orders: OrderRepository,
    @Inject(CheckinRepository) private readonly checkins: CheckinRepository,
    @Inject(WaitlistRepository) private readonly waitlist: WaitlistRepository,
  ) {}

  /** Today's and upcoming events soonest first, then undated ones, then past ones latest first. */
  async events(now = new Date()): Promise<OrganizerEvents> {
    const reading = await this.read(null, now);
    const ids = new Set<number>([
      ...reading.products.filter(isEventProduct).map((p) => p.id),
      ...reading.sales.map((s) => s.eventId),
    ]);
    const events = await Promise.all([...ids].map((id) => this.figures(id, reading, now)));
    return {
      events: sortEvents(
        events.filter((e) => e !== null),
        now,
      ),
    };
  }

  /** One event's figures; null when neither the catalog nor any ticket knows it. */
  async event(id: number, now = new Date()): Promise<OrganizerEvent | null> {
    return this.figures(id, await this.read([id], now), now);
  }

  private async read(eventIds: number[] | null, now: Date): Promise<Reading> {
    const [products, sales, open, waiting] = await Promise.all([
      this.products(),
      this.tickets.eventSales(eventIds),
      this.orders.openPlaces(now.getTime()),
      this.waitlist.counts(now.getTime()),
    ]);
    return { products, sales, open, waiting };
  }

  /**
   * The catalog's stock as checkout reads it (no older than CATALOG_TTL_SECONDS, so a
   * hand-off this process made is in it), else the last copy the pages have while the shop
   * is down; without any catalog data the events still show from their tickets, without
   * capacity.
   */
  private async products(): Promise<CatalogProduct[]> {
    try {
      return await this.catalog.currentProducts();
    } catch {
      try {
        return await this.catalog.products();
      } catch (err) {
        this.logger.warn({ msg: 'dashboard without catalog data', error: String(err) });
        return [];
      }
    }
  }

  private async figures(id: number, reading: Reading, now: Date): Promise<OrganizerEvent | null> {
    const product = reading.products.find((p) => p.id === id && isEventProduct(p));
    const paid = paidForValidTickets(reading.sales);
    const sales = reading.sales
      .map((sale, i) => ({ sale, paid: paid[i]! }))
      .filter(({ sale }) => sale.eventId === id);
    if (!product && sales.length === 0) return null;

    const tiers = tierPlan(
      id,
      product,
      reading.products,
      sales.map((s) => s.sale),
    );
    const validSeats = (variationId: number | null) =>
      sales
        .filter(({ sale }) => sale.variationId === variationId)
        .reduce((sum, { sale }) => sum + sale.validSeats, 0);
    // Places a handed-off order took are gone from the shop's stock: they count back in.
    const soldFromStock = new Map<number, number>();
    for (const tier of tiers) {
      if (!tier.unit) continue;
      const inShop = sales
        .filter(({ sale }) => sale.variationId === tier.variationId && sale.inShop)
        .reduce((sum, { sale }) => sum + sale.validSeats, 0);
      soldFromStock.set(
        tier.unit.productKey,
        (soldFromStock.get(tier.unit.productKey) ?? 0) + inShop,
      );
    }
    const capacityOf = (tier: TierPlan): number | null =>
      tier.unit && tier.unit.stock !== null
        ? tier.unit.stock + (soldFromStock.get(tier.unit.productKey) ?? 0)
        : null;
    const openOf = (variationId: number | null) =>
      reading.open
        .filter((o) => o.productId === id && o.variationId === variationId)
        .reduce((sum, o) => sum + o.quantity, 0);

    const tierViews: OrganizerTier[] = tiers.map((tier) => ({
      variationId: tier.variationId,
      name: tier.name,
      sold: validSeats(tier.variationId),
      capacity: capacityOf(tier),
      openCheckouts: openOf(tier.variationId),
    }));
    const units = new Map<number, number | null>();
    for (const tier of tiers) units.set(tier.unit?.productKey ?? -1, capacityOf(tier));
    const capacities = [...units.values()];
    const capacity =
      capacities.length > 0 && capacities.every((c) => c !== null)
        ? capacities.reduce<number>((sum, c) => sum + c!, 0)
        : null;

    const door = await this.checkins.eventTickets(id);
    const checkedIn = door.filter((t) => t.status === 'valid' && t.checkedInAt !== null);
    const sold = sales.reduce((sum, { sale }) => sum + sale.validSeats, 0);
    const waits = reading.waiting.filter((w) => w.productId === id);
    const startsAt = product
      ? (resolveEventDate(product)?.date.toISOString() ?? null)
      : latest(sales.map(({ sale }) => sale.startsAt));
    const ended =
      startsAt !== null && Date.parse(startsAt) + DEFAULT_EVENT_DURATION_MS <= now.getTime();

    return {
      id,
      name: product?.name ?? sales[0]!.sale.eventName,
      startsAt,
      venue: product
        ? venueOf(product)
        : (sales.find(({ sale }) => sale.venue)?.sale.venue ?? null),
      tiers: tierViews,
      sold,
      capacity,
      revenue: fromCents(Math.round(sales.reduce((sum, { paid: p }) => sum + p, 0))),
      openCheckouts: reading.open
        .filter((o) => o.productId === id)
        .reduce((sum, o) => sum + o.quantity, 0),
      checkedIn: checkedIn.length,
      waiting: waits.reduce((sum, w) => sum + w.waiting, 0),
      offered: waits.reduce((sum, w) => sum + w.offered, 0),
      noShows: ended ? sold - checkedIn.length : null,
      sales: cumulative(sales.map(({ sale }) => ({ at: sale.issuedAt, count: sale.validSeats }))),
      checkIns: cumulative(checkedIn.map((t) => ({ at: t.checkedInAt!, count: 1 }))),
      updatedAt: now.toISOString(),
    };
  }
}

/**
 * The event's tiers: the catalog's purchasable variations in the organizer's order (or the
 * product itself when it has none), then tiers tickets were sold in that the catalog no
 * longer lists.
 */
function tierPlan(
  id: number,
  product: CatalogProduct | undefined,
  products: readonly CatalogProduct[],
  sales: readonly TicketSale[],
): TierPlan[] {
  const plan: TierPlan[] = [];
  const variants = (product?.variants ?? []).filter((v) => v.purchasable);
  if (product && !isVariable(product)) {
    const unit = findStockUnit(products, id, null);
    plan.push({ variationId: null, name: SINGLE_TIER_NAME, unit: unit ?? null });
  }
  for (const v of [...variants].sort((a, b) => (a.menuOrder ?? 0) - (b.menuOrder ?? 0))) {
    const unit = findStockUnit(products, id, v.id);
    plan.push({
      variationId: v.id,
      name: variantLabel(v.attributes) || `Variante ${v.id}`,
      unit: unit ?? null,
    });
  }
  for (const sale of sales) {
    if (plan.some((t) => t.variationId === sale.variationId)) continue;
    plan.push({
      variationId: sale.variationId,
      name: sale.tier ?? SINGLE_TIER_NAME,
      unit: null,
    });
  }
  return plan;
}

function latest(dates: readonly (string | null)[]): string | null {
  let best: string | null = null;
  for (const d of dates) {
    if (d && !Number.isNaN(Date.parse(d)) && (!best || Date.parse(d) > Date.parse(best))) best = d;
  }
  return best;
}

/** rules "The organizer": today's and upcoming events soonest first, undated, then past latest first. */
function sortEvents(events: OrganizerEvent[], now: Date): OrganizerEvent[] {
  const rank = (e: OrganizerEvent) => {
    const date = e.startsAt ? new Date(e.startsAt) : null;
    if (!date || Number.isNaN(date.getTime())) return { group: 1, time: 0 };
    return isPastEvent(date, now)
      ? { group: 2, time: -date.getTime() }
      : { group: 0, time: date.getTime() };
  };
  return events
    .map((e) => ({ e, r: rank(e) }))
    .sort((a, b) => a.r.group - b.r.group || a.r.time - b.r.time || a.e.id - b.e.id)
    .map(({ e }) => e);
}
