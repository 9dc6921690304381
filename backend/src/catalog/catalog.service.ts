import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/config.js';
import { HealthIndicators, type HealthReport } from '../health/health-indicators.js';
import { CachedResource, type CacheStatus } from './catalog-cache.js';
import {
  CatalogPort,
  type CatalogCoupon,
  type CatalogPost,
  type CatalogProduct,
  type OrderHandOff,
  type OrderRefund,
  type RefundResult,
  type RestockResult,
  SHOP_READ_AT,
} from './catalog.port.js';

/** Coupon lookups are cached per code; bounded so random codes cannot grow memory. */
const MAX_CACHED_COUPONS = 500;

export interface CatalogReadiness extends HealthReport {
  ok: boolean;
  adapter: string;
  products: CacheStatus;
  posts: CacheStatus;
}

/**
 * The catalog as the rest of the backend sees it: the port behind a cache (visitors
 * see events within milliseconds even though WooCommerce is slow and sometimes
 * down). The checkout module codes against this class.
 */
@Injectable()
export class CatalogService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Catalog');
  private readonly productsCache: CachedResource<CatalogProduct[]>;
  private readonly postsCache: CachedResource<CatalogPost[]>;
  private readonly couponCaches = new Map<string, CachedResource<CatalogCoupon | null>>();
  private readonly ttlMs: number;

  constructor(
    @Inject(CatalogPort) private readonly port: CatalogPort,
    config: AppConfig,
    health: HealthIndicators,
  ) {
    this.ttlMs = config.catalogTtlSeconds * 1000;
    this.productsCache = new CachedResource(
      async () => {
        // Copies: an adapter may hand out the same objects again, and an older answer must
        // keep the moment it was read.
        const readAt = Date.now();
        const products = await this.port.listProducts();
        return products.map((product) => ({ ...product, [SHOP_READ_AT]: readAt }));
      },
      {
        name: 'products',
        ttlMs: this.ttlMs,
        logger: this.logger,
      },
    );
    this.postsCache = new CachedResource(() => this.port.listPosts(), {
      name: 'posts',
      ttlMs: this.ttlMs,
      logger: this.logger,
    });
    health.register('catalog', () => this.readiness());
  }

  /** Warms the cache so the first visitor does not wait for WooCommerce. */
  onApplicationBootstrap(): void {
    this.productsCache.refresh().catch(() => undefined);
    this.postsCache.refresh().catch(() => undefined);
  }

  get adapterName(): string {
    return this.port.name;
  }

  /** Every published product (cached). Throws a CatalogError when there is no data at all. */
  products(): Promise<CatalogProduct[]> {
    return this.productsCache.get();
  }

  /**
   * Products no older than the TTL, fetched now when they are: checkout sells only at
   * current prices and stock, never from the stale-if-error copy that keeps the pages up.
   * Throws a CatalogError when WooCommerce cannot answer.
   */
  currentProducts(): Promise<CatalogProduct[]> {
    return this.productsCache.status().state === 'fresh'
      ? this.productsCache.get()
      : this.productsCache.refresh();
  }

  /** Bumps whenever products() returns new data; derived responses key their memo on it. */
  get productsGeneration(): number {
    return this.productsCache.generation;
  }

  async productById(id: number): Promise<CatalogProduct | undefined> {
    return (await this.products()).find((product) => product.id === id);
  }

  posts(): Promise<CatalogPost[]> {
    return this.postsCache.get();
  }

  get postsGeneration(): number {
    return this.postsCache.generation;
  }

  /**
   * The coupon with this code (case-insensitive), or null. `fresh` skips the cache for
   * the last check at checkout, where a usage count from a minute ago is not good enough.
   */
  findCoupon(code: string, options: { fresh?: boolean } = {}): Promise<CatalogCoupon | null> {
    const key = code.trim().toLowerCase();
    let cache = this.couponCaches.get(key);
    if (!cache) {
      if (this.couponCaches.size >= MAX_CACHED_COUPONS) {
        const oldest = this.couponCaches.keys().next().value;
        if (oldest !== undefined) this.couponCaches.delete(oldest);
      }
      cache = new CachedResource(
        async () => {
          const readAt = Date.now();
          const coupon = await this.port.findCoupon(key);
          return coupon && { ...coupon, [SHOP_READ_AT]: readAt };
        },
        {
          name: `coupon:${key}`,
          ttlMs: this.ttlMs,
          logger: this.logger,
        },
      );
      this.couponCaches.set(key, cache);
    }
    return options.fresh ? cache.refresh() : cache.get();
  }

  /**
   * The shop changed a product or a coupon (rules "WooCommerce webhooks"): the next read
   * revalidates every cached product and coupon, still served stale meanwhile.
   */
  invalidate(): void {
    this.productsCache.invalidate();
    for (const cache of this.couponCaches.values()) cache.invalidate();
  }

  /** Not cached and not retried; throws on upstream failure so the caller can retry later. */
  async refundOrder(refund: OrderRefund): Promise<RefundResult> {
    return this.port.refundOrder(refund);
  }

  /**
   * rules "Orders made in the shop": the shop's orders changed after `since`, and one order
   * as it is now (null: gone). Not cached; throws on upstream failure.
   */
  ordersChangedSince(since: Date): Promise<unknown[]> {
    return this.port.ordersChangedSince(since);
  }

  findOrder(id: string): Promise<unknown> {
    return this.port.findOrder(id);
  }

  /** Not cached; throws on upstream failure. */
  orderRefunds(id: string): Promise<unknown[]> {
    return this.port.orderRefunds(id);
  }

  /** Not cached; the stock changed upstream, so this process's cache is stale. */
  async restockOrder(id: string, reason: string): Promise<RestockResult> {
    const result = await this.port.restockOrder(id, reason);
    if (result.restocked.length > 0) this.productsCache.invalidate();
    return result;
  }

  /** Not cached and not retried; throws on upstream failure so the caller can retry later. */
  async createOrder(order: OrderHandOff): Promise<{ id: string }> {
    const result = await this.port.createOrder(order);
    // Stock and coupon usage changed upstream.
    this.productsCache.invalidate();
    if (order.couponCode)
      this.couponCaches.get(order.couponCode.trim().toLowerCase())?.invalidate();
    this.logger.log({ msg: 'order handed to catalog', reference: order.reference, id: result.id });
    return result;
  }

  /** Seconds since each cached resource was last fetched successfully; null: never yet. */
  cacheAges(): { products: number | null; posts: number | null } {
    return {
      products: this.productsCache.status().ageSeconds,
      posts: this.postsCache.status().ageSeconds,
    };
  }

  /** Ready when product data is available (loading it now if there is none yet). */
  async readiness(): Promise<CatalogReadiness> {
    let ok = true;
    if (
      this.productsCache.status().state === 'empty' ||
      this.productsCache.status().state === 'expired'
    ) {
      ok = await this.productsCache.refresh().then(
        () => true,
        () => false,
      );
    }
    return {
      ok,
      adapter: this.port.name,
      products: this.productsCache.status(),
      posts: this.postsCache.status(),
    };
  }
}
