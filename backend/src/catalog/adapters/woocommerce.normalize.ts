import { EVENTS_CALENDAR_DATE_KEY, isEventProduct, type MetaData } from '@awhh/machines';
import type {
  CatalogCoupon,
  CatalogPost,
  CatalogProduct,
  CatalogVariation,
} from '../catalog.port.js';
import { decodeEntities } from '../html.js';

/** Categories that make a product an event even without date meta. */

type Raw = Record<string, unknown>;

function isRecord(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** WooCommerce sends prices as strings ("24.90", "" when unset); a few plugins send numbers. */
export function parseMoney(value: unknown): number | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\s*\d+(?:[.,]\d+)?\s*$/.test(value)) {
    n = Number(value.trim().replace(',', '.'));
  } else return undefined;
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 100) / 100 : undefined;
}

function parseCount(value: unknown): number | null {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
  return typeof value !== 'boolean' && value !== '' && Number.isFinite(n) ? Math.trunc(n) : null;
}

function dateText(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * Meta values stay as they are (strings, numbers, arrays, objects: the next-event rule
 * copes). Private keys (leading underscore) stay out of the public feed, except the
 * event plugin's date key the rule reads.
 */
function normalizeMeta(value: unknown): MetaData[] {
  if (!Array.isArray(value)) return [];
  const out: MetaData[] = [];
  for (const entry of value) {
    if (!isRecord(entry) || typeof entry.key !== 'string' || entry.key === '') continue;
    if (entry.key.startsWith('_') && entry.key !== EVENTS_CALENDAR_DATE_KEY) continue;
    const meta: MetaData = { key: entry.key, value: entry.value ?? null };
    if (typeof entry.id === 'number') meta.id = entry.id;
    out.push(meta);
  }
  return out;
}

function normalizeImages(value: unknown): { src: string; alt?: string }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((image) => {
    if (!isRecord(image) || typeof image.src !== 'string' || image.src.trim() === '') return [];
    const alt = str(image.alt).trim();
    return [alt ? { src: image.src, alt: decodeEntities(alt) } : { src: image.src }];
  });
}

function normalizeCategories(value: unknown): { slug: string; name: string }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((category) =>
    isRecord(category) && typeof category.slug === 'string'
      ? [{ slug: category.slug, name: decodeEntities(str(category.name)) }]
      : [],
  );
}

function categoryIdsOf(value: unknown): number[] {
  return Array.isArray(value) ? idList(value.map((c) => (isRecord(c) ? c.id : null))) : [];
}

const STOCK_STATUSES = ['instock', 'outofstock', 'onbackorder'] as const;

/** A WooCommerce REST v3 product in the feed's shape; null for entries that are not products. */
export function normalizeProduct(raw: unknown): CatalogProduct | null {
  if (!isRecord(raw)) return null;
  const id = typeof raw.id === 'number' ? raw.id : parseCount(raw.id);
  if (id === null || !Number.isInteger(id) || id <= 0) return null;

  const meta = normalizeMeta(raw.meta_data);
  const categories = normalizeCategories(raw.categories);
  const regular = parseMoney(raw.regular_price);
  const sale = parseMoney(raw.sale_price);
  const price = parseMoney(raw.price) ?? sale ?? regular;
  const stockStatus = STOCK_STATUSES.find((s) => s === raw.stock_status);
  const stockQuantity = parseCount(raw.stock_quantity);
  const isEvent = isEventProduct({ meta_data: meta, categories });

  const product: CatalogProduct = {
    id,
    name: decodeEntities(str(raw.name)).trim(),
    // rules §5: the feed keeps the slug as sent; consumers ignore non-text slugs.
    slug: raw.slug,
    date_created: dateText(raw.date_created),
    date_modified: dateText(raw.date_modified),
    meta_data: meta,
    images: normalizeImages(raw.images),
    categories,
    // rules "Coupons": the ids a coupon's category restrictions name.
    categoryIds: categoryIdsOf(raw.categories),
    sale_price: sale ?? null,
    on_sale: raw.on_sale === true,
    // Untracked stock (manage_stock false) has no meaningful quantity.
    stock_quantity: raw.manage_stock === false ? null : stockQuantity,
    short_description: str(raw.short_description),
    description: str(raw.description),
    kind: isEvent ? 'event' : 'product',
  };
  if (typeof raw.type === 'string' && raw.type !== '') product.type = raw.type;
  if (product.type === 'variable') {
    product.variations = Array.isArray(raw.variations)
      ? raw.variations.filter((v): v is number => Number.isInteger(v) && (v as number) > 0)
      : [];
  }
  if (price !== undefined) product.price = price;
  if (regular !== undefined) product.regular_price = regular;
  if (stockStatus) product.stock_status = stockStatus;
  // "Limit purchases to 1 item per order": the checkout and the cart hold to it too.
  if (raw.sold_individually === true) product.sold_individually = true;
  return product;
}

function normalizeAttributes(value: unknown): { name: string; option: string }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((attribute) =>
    isRecord(attribute) && str(attribute.option).trim() !== ''
      ? [
          {
            name: decodeEntities(str(attribute.name)).trim(),
            option: decodeEntities(str(attribute.option)).trim(),
          },
        ]
      : [],
  );
}

/**
 * An entry of `/wc/v3/products/{id}/variations`: strings for prices, `attributes: [{name,
 * option}]`, its own stock (or the parent's with `manage_stock: "parent"`). Null for
 * entries that are not variations.
 */
export function normalizeVariation(raw: unknown): CatalogVariation | null {
  if (!isRecord(raw)) return null;
  const id = typeof raw.id === 'number' ? raw.id : parseCount(raw.id);
  if (id === null || !Number.isInteger(id) || id <= 0) return null;
  const regular = parseMoney(raw.regular_price);
  const sale = parseMoney(raw.sale_price);
  const price = parseMoney(raw.price) ?? sale ?? regular;
  const image =
    isRecord(raw.image) && typeof raw.image.src === 'string' && raw.image.src.trim() !== ''
      ? normalizeImages([raw.image])[0]!
      : null;
  const variation: CatalogVariation = {
    id,
    menuOrder: parseCount(raw.menu_order) ?? 0,
    attributes: normalizeAttributes(raw.attributes),
    sale_price: sale ?? null,
    on_sale: raw.on_sale === true,
    stock_quantity: raw.manage_stock === true ? parseCount(raw.stock_quantity) : null,
    sharesParentStock: raw.manage_stock === 'parent',
    // A variation without a price cannot be bought in WooCommerce either.
    purchasable:
      (raw.status ?? 'publish') === 'publish' && raw.purchasable !== false && price !== undefined,
    image,
  };
  if (price !== undefined) variation.price = price;
  if (regular !== undefined) variation.regular_price = regular;
  const stockStatus = STOCK_STATUSES.find((s) => s === raw.stock_status);
  if (stockStatus) variation.stock_status = stockStatus;
  return variation;
}

/**
 * The organizer's order: WooCommerce's `menu_order`, then the order of the options on the
 * parent's attribute ("Early Bird, Regulär, VIP"); the variations endpoint itself lists
 * the newest first.
 */
export function sortVariations(
  parent: unknown,
  variations: CatalogVariation[],
): CatalogVariation[] {
  const options = new Map<string, number>();
  const attributes = isRecord(parent) && Array.isArray(parent.attributes) ? parent.attributes : [];
  for (const attribute of attributes) {
    if (!isRecord(attribute) || !Array.isArray(attribute.options)) continue;
    attribute.options.forEach((option, index) => {
      const key = `${decodeEntities(str(attribute.name)).trim()}|${decodeEntities(str(option)).trim()}`;
      if (!options.has(key)) options.set(key, index);
    });
  }
  const rank = (v: CatalogVariation) =>
    v.attributes.map((a) => options.get(`${a.name}|${a.option}`) ?? Number.MAX_SAFE_INTEGER);
  return [...variations].sort((a, b) => {
    const byMenu = (a.menuOrder ?? 0) - (b.menuOrder ?? 0);
    if (byMenu !== 0) return byMenu;
    const ra = rank(a);
    const rb = rank(b);
    for (let i = 0; i < Math.max(ra.length, rb.length); i++) {
      const d = (ra[i] ?? Number.MAX_SAFE_INTEGER) - (rb[i] ?? Number.MAX_SAFE_INTEGER);
      if (d !== 0) return d;
    }
    return a.id - b.id;
  });
}

/**
 * A variation that shares its parent's stock counts the parent's quantity (WooCommerce
 * `manage_stock: "parent"`).
 */
export function withParentStock(
  product: CatalogProduct,
  variations: CatalogVariation[],
): CatalogVariation[] {
  return variations.map((v) =>
    v.sharesParentStock ? { ...v, stock_quantity: product.stock_quantity ?? null } : v,
  );
}

/** Whole ids of a WooCommerce id list (`product_ids`, `product_categories`, …). */
function idList(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) => {
    const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
    return typeof n === 'number' && Number.isInteger(n) && n > 0 ? [n] : [];
  });
}

function textList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) => (typeof v === 'string' && v.trim() !== '' ? [v.trim()] : []));
}

function positiveOrNull(value: number | null | undefined): number | null {
  return value !== null && value !== undefined && value > 0 ? value : null;
}

/**
 * A WooCommerce coupon with every restriction the REST API returns (rules "Coupons");
 * "0.00" amounts and 0 or null limits mean none.
 */
export function normalizeCoupon(raw: unknown): CatalogCoupon | null {
  if (!isRecord(raw) || typeof raw.code !== 'string' || raw.code.trim() === '') return null;
  return {
    code: raw.code.trim(),
    discountType: str(raw.discount_type) || 'fixed_cart',
    amount: parseMoney(raw.amount) ?? 0,
    expiresAt: dateText(raw.date_expires),
    usageLimit: positiveOrNull(parseCount(raw.usage_limit)),
    usageCount: Math.max(0, parseCount(raw.usage_count) ?? 0),
    usageLimitPerUser: positiveOrNull(parseCount(raw.usage_limit_per_user)),
    usedBy: textList(raw.used_by),
    productIds: idList(raw.product_ids),
    excludedProductIds: idList(raw.excluded_product_ids),
    productCategories: idList(raw.product_categories),
    excludedProductCategories: idList(raw.excluded_product_categories),
    excludeSaleItems: raw.exclude_sale_items === true,
    individualUse: raw.individual_use === true,
    limitUsageToXItems: positiveOrNull(parseCount(raw.limit_usage_to_x_items)),
    minimumAmount: positiveOrNull(parseMoney(raw.minimum_amount)),
    maximumAmount: positiveOrNull(parseMoney(raw.maximum_amount)),
    emailRestrictions: textList(raw.email_restrictions).map((e) => e.toLowerCase()),
  };
}

function rendered(value: unknown): string {
  return isRecord(value) ? str(value.rendered) : str(value);
}

/** A WordPress REST post with `_embed` (featured image, author). */
export function normalizePost(raw: unknown): CatalogPost | null {
  if (!isRecord(raw) || typeof raw.id !== 'number') return null;
  const slug = str(raw.slug).trim();
  if (slug === '') return null;
  const embedded = isRecord(raw._embedded) ? raw._embedded : {};
  const media = Array.isArray(embedded['wp:featuredmedia'])
    ? embedded['wp:featuredmedia'][0]
    : null;
  const author = Array.isArray(embedded.author) ? embedded.author[0] : null;
  const imageSrc = isRecord(media) ? str(media.source_url) : '';
  const imageAlt = isRecord(media) ? str(media.alt_text).trim() : '';
  return {
    id: raw.id,
    slug,
    title: decodeEntities(rendered(raw.title)).trim(),
    excerptHtml: rendered(raw.excerpt),
    contentHtml: rendered(raw.content),
    publishedAt: dateText(raw.date) ?? dateText(raw.date_gmt) ?? '',
    image: imageSrc
      ? imageAlt
        ? { src: imageSrc, alt: decodeEntities(imageAlt) }
        : { src: imageSrc }
      : null,
    author:
      isRecord(author) && str(author.name).trim() ? decodeEntities(str(author.name).trim()) : null,
  };
}
