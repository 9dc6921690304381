import { Inject, Injectable } from '@nestjs/common';
import {
  type Availability,
  type BlogPost,
  type BlogPostSummary,
  type EventDetail,
  type EventSummary,
  type MerchDetail,
  type MerchSummary,
  type Product,
  type Variant,
  fromCents,
  isEventProduct,
  SHOP_CURRENCY,
  hasValidSlug,
  isPastEvent,
  parseEventDate,
  resolveEventDate,
  startOfBerlinDay,
  toCents,
  variantLabel,
  venueOf,
} from '@awhh/machines';
import {
  isVariable,
  type CatalogPost,
  type CatalogProduct,
  type CatalogVariation,
} from '../catalog/catalog.port.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { plainText, sanitizeRichText } from '../catalog/html.js';
import { maxPerOrderOf } from '../catalog/order-limits.js';
import { AppConfig } from '../config/config.js';
import { cachedBody, type CachedBody } from './http-cache.js';
import { Memo } from './memo.js';

/** Availability thresholds (rules "Event page": sold out / few left): sold out at 0, "few left" from 10 down. */
export const FEW_LEFT_THRESHOLD = 10;

interface EventIndex {
  list: CachedBody;
  bySlug: Map<string, CachedBody>;
}

type BlogIndex = EventIndex;
type MerchIndex = EventIndex;

interface Stock {
  availability: Availability;
  available: number | null;
}

/** Availability of a product or a variation: sold out at 0, "few left" from 10 down. */
export function availabilityOf(
  stock: Pick<CatalogProduct | CatalogVariation, 'stock_status' | 'stock_quantity'>,
): Stock {
  const quantity = stock.stock_quantity ?? null;
  if (stock.stock_status === 'outofstock' || (quantity !== null && quantity <= 0)) {
    return { availability: 'sold_out', available: 0 };
  }
  return levelOf(quantity);
}

function levelOf(quantity: number | null): Stock {
  if (quantity !== null && quantity <= 0) return { availability: 'sold_out', available: 0 };
  if (quantity !== null && quantity <= FEW_LEFT_THRESHOLD) {
    return { availability: 'few_left', available: quantity };
  }
  return { availability: 'available', available: quantity };
}

/** Euros as the catalog gives them, rounded to whole cents. */
const euros = (value: number | undefined) => fromCents(toCents(value ?? 0));

/** rules "Everything the shop sells": the variations a visitor can choose from. */
export function variantsOf(product: CatalogProduct): Variant[] {
  if (!isVariable(product)) return [];
  return (product.variants ?? [])
    .filter((v) => v.purchasable && v.price !== undefined)
    .map((v) => {
      const price = euros(v.price);
      return {
        id: v.id,
        name: variantLabel(v.attributes) || product.name,
        attributes: v.attributes.map((a) => ({ ...a })),
        price,
        regularPrice: Math.max(price, euros(v.regular_price ?? v.price)),
        ...availabilityOf(v),
      };
    });
}

/**
 * Price, regular price and availability of what can be bought: the product itself, or
 * for a variable product its variants (from the lowest price still on offer; sold out
 * when every variant is; the units left summed when every variant counts its stock).
 */
function offerOf(product: CatalogProduct, variants: Variant[]) {
  if (!isVariable(product)) {
    const price = euros(product.price);
    return {
      price,
      regularPrice: Math.max(price, euros(product.regular_price ?? product.price)),
      ...availabilityOf(product),
    };
  }
  const open = variants.filter((v) => v.availability !== 'sold_out');
  const pool = open.length > 0 ? open : variants;
  const cheapest = pool.reduce<Variant | undefined>(
    (low, v) => (!low || v.price < low.price ? v : low),
    undefined,
  );
  const untracked = open.some((v) => v.available === null);
  return {
    price: cheapest?.price ?? euros(product.price),
    regularPrice: cheapest?.regularPrice ?? euros(product.price),
    ...(open.length === 0
      ? { availability: 'sold_out' as const, available: 0 }
      : levelOf(untracked ? null : open.reduce((sum, v) => sum + (v.available ?? 0), 0))),
  };
}

function toMerchDetail(
  product: CatalogProduct & { slug: string },
  maxTicketsPerOrder: number,
): MerchDetail {
  const image = product.images[0];
  const variants = variantsOf(product);
  return {
    id: product.id,
    slug: product.slug.trim(),
    name: product.name,
    image: image ? { ...image } : null,
    ...offerOf(product, variants),
    currency: SHOP_CURRENCY,
    shortDescription: plainText(product.short_description),
    variants,
    maxPerOrder: maxPerOrderOf(product, maxTicketsPerOrder),
    descriptionHtml: sanitizeRichText(product.description || product.short_description),
  };
}

function toEventDetail(
  product: CatalogProduct & { slug: string },
  now: Date,
  maxTicketsPerOrder: number,
): EventDetail {
  const resolved = resolveEventDate(product);
  const { descriptionHtml, ...merch } = toMerchDetail(product, maxTicketsPerOrder);
  return {
    ...merch,
    startsAt: resolved ? resolved.date.toISOString() : null,
    venue: venueOf(product),
    past: resolved ? isPastEvent(resolved.date, now) : false,
    descriptionHtml,
  };
}

/** rules "Events": upcoming events first (soonest first), then past ones (latest first). */
export function orderEvents<E extends Pick<EventSummary, 'startsAt' | 'past'>>(events: E[]): E[] {
  const time = (e: E) => (e.startsAt ? Date.parse(e.startsAt) : Number.POSITIVE_INFINITY);
  const upcoming = events.filter((e) => !e.past).sort((a, b) => time(a) - time(b));
  const past = events.filter((e) => e.past).sort((a, b) => time(b) - time(a));
  return [...upcoming, ...past];
}

function toPost(post: CatalogPost): BlogPost {
  const published = parseEventDate(post.publishedAt);
  const excerpt = plainText(post.excerptHtml) || plainText(post.contentHtml, 200);
  return {
    slug: post.slug,
    title: post.title,
    excerpt,
    publishedAt: published ? published.toISOString() : post.publishedAt,
    image: post.image ? { ...post.image } : null,
    author: post.author,
    contentHtml: sanitizeRichText(post.contentHtml),
  };
}

/** Read side of the products module: feed, events, blog, as JSON serialised once per generation. */
@Injectable()
export class ProductsService {
  private readonly feedMemo = new Memo<CachedBody>();
  private readonly eventsMemo = new Memo<EventIndex>();
  private readonly blogMemo = new Memo<BlogIndex>();
  private readonly merchMemo = new Memo<MerchIndex>();
  private today = { start: 0, end: 0 };

  constructor(
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  /** rules §7 feed: every product with slug, dates, meta_data and what the site shows. */
  async feed(): Promise<CachedBody> {
    const products = await this.catalog.products();
    return this.feedMemo.get(String(this.catalog.productsGeneration), () =>
      cachedBody(products.map(toFeedProduct)),
    );
  }

  async events(now: Date): Promise<CachedBody> {
    return (await this.eventIndex(now)).list;
  }

  async event(slug: string, now: Date): Promise<CachedBody | undefined> {
    return (await this.eventIndex(now)).bySlug.get(slug);
  }

  async merch(): Promise<CachedBody> {
    return (await this.merchIndex()).list;
  }

  async merchItem(slug: string): Promise<CachedBody | undefined> {
    return (await this.merchIndex()).bySlug.get(slug);
  }

  /** rules "Everything the shop sells": merch is every product that is not an event. */
  private async merchIndex(): Promise<MerchIndex> {
    const products = await this.catalog.products();
    return this.merchMemo.get(String(this.catalog.productsGeneration), () => {
      const details = products
        .filter(
          (p): p is CatalogProduct & { slug: string } => hasValidSlug(p) && !isEventProduct(p),
        )
        .map((p) => toMerchDetail(p, this.config.maxTicketsPerOrder));
      const bySlug = new Map<string, CachedBody>();
      for (const detail of details) {
        if (!bySlug.has(detail.slug)) bySlug.set(detail.slug, cachedBody(detail));
      }
      const summaries: MerchSummary[] = details.map(
        ({ descriptionHtml: _html, ...summary }) => summary,
      );
      return { list: cachedBody(summaries), bySlug };
    });
  }

  async posts(): Promise<CachedBody> {
    return (await this.blogIndex()).list;
  }

  async post(slug: string): Promise<CachedBody | undefined> {
    return (await this.blogIndex()).bySlug.get(slug);
  }

  private async eventIndex(now: Date): Promise<EventIndex> {
    const products = await this.catalog.products();
    // "past" flips at the start of the Berlin day, so the day is part of the key.
    const key = `${this.catalog.productsGeneration}:${this.berlinDayStart(now)}`;
    return this.eventsMemo.get(key, () => {
      const details = orderEvents(
        products
          .filter(
            (p): p is CatalogProduct & { slug: string } => hasValidSlug(p) && isEventProduct(p),
          )
          .map((p) => toEventDetail(p, now, this.config.maxTicketsPerOrder)),
      );
      const bySlug = new Map<string, CachedBody>();
      for (const detail of details) {
        // Two products with one slug: the first (upcoming) one wins, as on the list.
        if (!bySlug.has(detail.slug)) bySlug.set(detail.slug, cachedBody(detail));
      }
      const summaries: EventSummary[] = details.map(
        ({ descriptionHtml: _html, ...summary }) => summary,
      );
      return { list: cachedBody(summaries), bySlug };
    });
  }

  /** Start of today in Berlin, recomputed only when the day changes (Intl is slow per request). */
  private berlinDayStart(now: Date): number {
    const t = now.getTime();
    if (t < this.today.start || t >= this.today.end) {
      const start = startOfBerlinDay(now).getTime();
      // 36 h later is always inside the next Berlin day, DST switches included.
      const end = startOfBerlinDay(new Date(start + 36 * 3600_000)).getTime();
      this.today = { start, end };
    }
    return this.today.start;
  }

  private async blogIndex(): Promise<BlogIndex> {
    const posts = await this.catalog.posts();
    return this.blogMemo.get(String(this.catalog.postsGeneration), () => {
      const full = posts
        .map(toPost)
        .sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt));
      const bySlug = new Map<string, CachedBody>();
      for (const post of full) if (!bySlug.has(post.slug)) bySlug.set(post.slug, cachedBody(post));
      const summaries: BlogPostSummary[] = full.map(
        ({ contentHtml: _html, ...summary }) => summary,
      );
      return { list: cachedBody(summaries), bySlug };
    });
  }
}

/**
 * Exactly the productSchema fields (rules §3/§7): the long description and the variations'
 * details stay out of the feed; a variable product lists its variation ids as WooCommerce does.
 */
function toFeedProduct(product: CatalogProduct): Product {
  const {
    description: _description,
    variants: _variants,
    categoryIds: _categoryIds,
    ...feed
  } = product;
  return { ...feed, short_description: sanitizeRichText(product.short_description) };
}
