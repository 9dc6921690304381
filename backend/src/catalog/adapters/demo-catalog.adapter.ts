import type { MetaData } from '@awhh/machines';
import {
  CatalogPort,
  type CatalogCoupon,
  type CatalogPost,
  type CatalogProduct,
  type CatalogVariation,
  type OrderHandOff,
  type OrderRefund,
  type RefundResult,
  type RestockResult,
} from '../catalog.port.js';
import { demoCoupons } from '../demo/demo-coupons.data.js';
import { DEMO_EVENTS, EVENTS_CATEGORY, type DemoVariant } from '../demo/demo-events.data.js';
import { DEMO_MERCH, MERCH_CATEGORY } from '../demo/demo-merch.data.js';
import { DEMO_POSTS } from '../demo/demo-posts.data.js';
import { wallTimeFromToday, wooDate } from '../demo/demo-time.js';

/**
 * The embedded catalog (docs/architecture.md, "Ports and adapters": used when
 * WOOCOMMERCE_URL is not set). Dates are relative to today, so the demo always has upcoming
 * and past events. Orders are kept in memory and reduce the demo stock, so a test purchase
 * shows its effect on availability.
 */
export class DemoCatalogAdapter extends CatalogPort {
  readonly name = 'demo';
  private readonly stock = new Map<number, number | null>();
  private readonly orders = new Map<string, { id: string; order: OrderHandOff }>();
  /** Cents refunded per order reference. */
  private readonly refunded = new Map<string, number>();
  /** Units back in stock per order reference, by line. */
  private readonly restocked = new Map<string, number[]>();
  private readonly couponUsage = new Map<string, number>();
  private nextOrderNumber = 1001;

  constructor(private readonly clock: () => Date = () => new Date()) {
    super();
    for (const event of DEMO_EVENTS) this.stock.set(event.id, event.stock);
    for (const item of DEMO_MERCH) this.stock.set(item.id, item.stock);
    for (const variant of [
      ...DEMO_EVENTS.flatMap((e) => e.tiers ?? []),
      ...DEMO_MERCH.flatMap((m) => m.sizes ?? []),
    ]) {
      this.stock.set(variant.id, variant.stock);
    }
  }

  async listProducts(): Promise<CatalogProduct[]> {
    const now = this.clock();
    const events = DEMO_EVENTS.map((event): CatalogProduct => {
      const at = wallTimeFromToday(now, event.dayOffset, event.hour, event.minute);
      const created = wallTimeFromToday(now, event.dayOffset - 60, 10, 15);
      const modified = wallTimeFromToday(now, Math.min(event.dayOffset - 3, -1), 9, 40);
      const meta: MetaData[] = [
        ...event.dateMeta(at),
        event.venueMeta,
        ...(event.placeMeta ? [event.placeMeta] : []),
      ];
      return {
        ...this.stockFields(event.id),
        id: event.id,
        name: event.name,
        slug: event.slug,
        date_created: wooDate(created),
        date_modified: wooDate(modified),
        meta_data: meta,
        price: event.price,
        regular_price: event.regularPrice ?? event.price,
        sale_price: event.regularPrice ? event.price : null,
        on_sale: event.regularPrice !== undefined,
        images: [{ src: event.image, alt: event.imageAlt }],
        short_description: event.shortDescription,
        description: event.description,
        categories: [{ ...EVENTS_CATEGORY }],
        kind: 'event',
        ...this.variableFields(event.tiers),
      };
    });
    const merch = DEMO_MERCH.map((item): CatalogProduct => {
      const created = wallTimeFromToday(now, -item.createdDaysAgo, 11, 0);
      return {
        ...this.stockFields(item.id),
        id: item.id,
        name: item.name,
        slug: item.slug,
        date_created: wooDate(created),
        date_modified: wooDate(created),
        meta_data: [],
        price: item.price,
        regular_price: item.regularPrice,
        sale_price: item.salePrice,
        on_sale: item.salePrice !== null,
        images: [{ src: item.image, alt: item.imageAlt }],
        short_description: item.shortDescription,
        description: item.description,
        categories: [{ ...MERCH_CATEGORY }],
        kind: 'product',
        ...this.variableFields(item.sizes),
      };
    });
    return [...events, ...merch];
  }

  async findCoupon(code: string): Promise<CatalogCoupon | null> {
    const wanted = code.trim().toLowerCase();
    const coupon = demoCoupons(this.clock()).find((c) => c.code.toLowerCase() === wanted);
    if (!coupon) return null;
    return { ...coupon, usageCount: coupon.usageCount + (this.couponUsage.get(wanted) ?? 0) };
  }

  async listPosts(): Promise<CatalogPost[]> {
    const now = this.clock();
    return DEMO_POSTS.map((post) => {
      const at = wallTimeFromToday(now, -post.publishedDaysAgo, 9, 30);
      return {
        id: post.id,
        slug: post.slug,
        title: post.title,
        excerptHtml: post.excerpt,
        contentHtml: post.content,
        publishedAt: wooDate(at),
        image: { src: post.image, alt: post.imageAlt },
        author: post.author,
      };
    });
  }

  /** Idempotent by reference, like the WooCommerce hand-off. */
  async createOrder(order: OrderHandOff): Promise<{ id: string }> {
    const existing = this.orders.get(order.reference);
    if (existing) return { id: existing.id };
    for (const line of order.lines) {
      const key = line.variationId ?? line.productId;
      const left = this.stock.get(key);
      // As WooCommerce does: a paid order takes its units even below zero rather than refuse
      // the payment. The ledger counts on it: a returned ticket's sale takes the place once
      // and its refund puts it back once (decision 20), so a place lent from a return is
      // never freed twice.
      if (left !== undefined && left !== null) {
        this.stock.set(key, left - line.quantity);
      }
    }
    if (order.couponCode) {
      const key = order.couponCode.trim().toLowerCase();
      this.couponUsage.set(key, (this.couponUsage.get(key) ?? 0) + 1);
    }
    const id = String(this.nextOrderNumber++);
    this.orders.set(order.reference, { id, order: structuredClone(order) });
    return { id };
  }

  /**
   * The demo keeps what was refunded per order and puts a fully refunded order's units
   * back, as WooCommerce does with `restock_items`; idempotent like the shop's.
   */
  async refundOrder(refund: OrderRefund): Promise<RefundResult> {
    const entry = this.orders.get(refund.reference);
    if (!entry) return { found: false, refundId: null };
    const before = this.refunded.get(refund.reference) ?? 0;
    if (refund.refundedTotal <= before) return { found: true, refundId: null };
    this.refunded.set(refund.reference, refund.refundedTotal);
    // Units back so far per line: all of them refunded in full, else those a partial
    // refund covered (rules "Refunds").
    const full = refund.refundedTotal >= refund.orderTotal;
    const restocked = this.restocked.get(refund.reference) ?? [];
    let units = 0;
    entry.order.lines.forEach((line, position) => {
      const wanted = full
        ? line.quantity
        : (refund.restock?.find((r) => r.position === position)?.quantity ?? 0);
      const back = Math.max(0, Math.min(line.quantity, wanted) - (restocked[position] ?? 0));
      if (back === 0) return;
      restocked[position] = (restocked[position] ?? 0) + back;
      units += back;
      const key = line.variationId ?? line.productId;
      const left = this.stock.get(key);
      if (left !== undefined && left !== null) this.stock.set(key, left + back);
    });
    this.restocked.set(refund.reference, restocked);
    return { found: true, refundId: `demo-refund-${refund.refundReference}`, restocked: units };
  }

  /** The demo has no shop in which anyone could make or change an order. */
  async ordersChangedSince(): Promise<unknown[]> {
    return [];
  }

  async findOrder(): Promise<unknown> {
    return null;
  }

  async orderRefunds(): Promise<unknown[]> {
    return [];
  }

  /** Nobody can refund or trash an order in the demo's shop: nothing is ever kept out of stock. */
  async restockOrder(): Promise<RestockResult> {
    return { found: false, restocked: [] };
  }

  /** Orders received so far (newest last); for readiness details and tests. */
  recordedOrders(): { id: string; order: OrderHandOff }[] {
    return [...this.orders.values()];
  }

  /**
   * A product with variants is shaped as WooCommerce shapes a variable product: no regular
   * price and no stock of its own, price = the lowest variation price.
   */
  private variableFields(variants: DemoVariant[] | undefined): Partial<CatalogProduct> {
    if (!variants || variants.length === 0) return { type: 'simple' };
    const inStock = variants.some((v) => this.stock.get(v.id) !== 0);
    return {
      type: 'variable',
      variations: variants.map((v) => v.id),
      price: Math.min(...variants.map((v) => v.price)),
      regular_price: undefined,
      sale_price: null,
      on_sale: variants.some((v) => v.regularPrice !== undefined),
      stock_quantity: null,
      stock_status: inStock ? 'instock' : 'outofstock',
      variants: variants.map((v, i) => this.variation(v, i)),
    };
  }

  private variation(variant: DemoVariant, menuOrder: number): CatalogVariation {
    const left = this.stock.get(variant.id) ?? null;
    return {
      id: variant.id,
      menuOrder,
      attributes: [{ name: variant.attribute, option: variant.option }],
      price: variant.price,
      regular_price: variant.regularPrice ?? variant.price,
      sale_price: variant.regularPrice !== undefined ? variant.price : null,
      on_sale: variant.regularPrice !== undefined,
      stock_quantity: left,
      stock_status: left === null || left > 0 ? 'instock' : 'outofstock',
      sharesParentStock: false,
      purchasable: true,
      image: null,
    };
  }

  private stockFields(id: number): Pick<CatalogProduct, 'stock_status' | 'stock_quantity'> {
    const left = this.stock.get(id) ?? null;
    return {
      stock_quantity: left,
      stock_status: left === null || left > 0 ? 'instock' : 'outofstock',
    };
  }
}
