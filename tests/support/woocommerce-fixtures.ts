import authWrongSecret from './woocommerce-11/auth.wrong-secret.json' with { type: 'json' };
import couponAb50 from './woocommerce-11/coupons.code-AB50.json' with { type: 'json' };
import couponAbgelaufen from './woocommerce-11/coupons.code-ABGELAUFEN.json' with { type: 'json' };
import couponAufgebraucht from './woocommerce-11/coupons.code-AUFGEBRAUCHT.json' with { type: 'json' };
import couponFest5 from './woocommerce-11/coupons.code-FEST5.json' with { type: 'json' };
import couponGibtEsNicht from './woocommerce-11/coupons.code-GIBTESNICHT.json' with { type: 'json' };
import couponHafen20 from './woocommerce-11/coupons.code-HAFEN20.json' with { type: 'json' };
import ordersCreateExpiredCoupon from './woocommerce-11/orders.create-expired-coupon.json' with { type: 'json' };
import ordersCreatePaid from './woocommerce-11/orders.create-paid.json' with { type: 'json' };
import ordersList from './woocommerce-11/orders.list.json' with { type: 'json' };
import postsEmbed from './woocommerce-11/posts.embed.json' with { type: 'json' };
import productAfterStockChange from './woocommerce-11/product.after-stock-change.json' with { type: 'json' };
import productsAny from './woocommerce-11/products.any.json' with { type: 'json' };
import productsDefaultPage from './woocommerce-11/products.default-page.json' with { type: 'json' };
import productsPerPage101 from './woocommerce-11/products.per_page_101.json' with { type: 'json' };
import productsPublishP1 from './woocommerce-11/products.publish.p1.json' with { type: 'json' };
import productsPublishPer5P2 from './woocommerce-11/products.publish.per5.p2.json' with { type: 'json' };
import productsUnknownId from './woocommerce-11/products.unknown_id.json' with { type: 'json' };
import routeUnknown from './woocommerce-11/route.unknown.json' with { type: 'json' };
import variationsTShirt from './woocommerce-11/variations.t-shirt.json' with { type: 'json' };
import variationsTicketTiers from './woocommerce-11/variations.ticket-tiers.json' with { type: 'json' };

/**
 * Wire types, builders and data sets for the fake WooCommerce (fake-woocommerce.ts).
 * Everything here has the field set of the real WooCommerce 11 answers recorded in
 * `woocommerce-11/` (see its README): string prices, `meta_data: [{id, key, value}]`,
 * Berlin local dates with `*_gmt` twins, links naming the shop's canonical host.
 */

/** The canonical host the recorded shop names in every link and permalink. */
export const SHOP_URL = 'https://shop.afterwork-hamburg.example';

export interface WooMeta {
  id: number;
  key: string;
  value: unknown;
}

export interface WooImage {
  id: number;
  src: string;
  alt: string;
  [field: string]: unknown;
}

export interface WooAttribute {
  id: number;
  name: string;
  slug: string;
  option: string;
}

/** The fields of a product the fake and the tests use; the wire has many more. */
interface WooProductFields {
  id: number;
  name: string;
  slug: string;
  type: string;
  status: string;
  price: string;
  regular_price: string;
  sale_price: string;
  on_sale: boolean;
  total_sales: number;
  manage_stock: boolean;
  stock_quantity: number | null;
  stock_status: string;
  images: WooImage[];
  categories: { id: number; name: string; slug: string }[];
  variations: number[];
  meta_data: WooMeta[];
}

/** A product as `GET /wc/v3/products` renders it (simple or variable parent). */
export interface WooProduct extends WooProductFields {
  [field: string]: unknown;
}

interface WooVariationFields {
  id: number;
  parent_id: number;
  name: string;
  price: string;
  regular_price: string;
  sale_price: string;
  on_sale: boolean;
  status: string;
  /** WooCommerce answers "parent" when the variation draws from the parent's stock. */
  manage_stock: boolean | 'parent';
  stock_quantity: number | null;
  stock_status: string;
  image: WooImage | null;
  attributes: WooAttribute[];
  meta_data: WooMeta[];
}

/** An entry of `GET /wc/v3/products/{id}/variations`. */
export interface WooVariation extends WooVariationFields {
  [field: string]: unknown;
}

export interface WooCoupon {
  id: number;
  code: string;
  amount: string;
  discount_type: string;
  date_expires: string | null;
  date_expires_gmt: string | null;
  usage_count: number;
  usage_limit: number | null;
  minimum_amount: string;
  maximum_amount: string;
  used_by: string[];
  [field: string]: unknown;
}

export interface WpPost {
  id: number;
  date: string;
  date_gmt: string;
  slug: string;
  status: string;
  title: { rendered: string };
  content: { rendered: string; protected?: boolean };
  excerpt: { rendered: string; protected?: boolean };
  featured_media: number;
  _embedded?: Record<string, unknown>;
  [field: string]: unknown;
}

/** An order as `GET/POST /wc/v3/orders` renders it. */
export interface WooOrder {
  id: number;
  status: string;
  date_created_gmt: string;
  meta_data: WooMeta[];
  line_items: Record<string, unknown>[];
  coupon_lines: Record<string, unknown>[];
  [field: string]: unknown;
}

/** What a shop holds; the fake serves and changes it. */
export interface ShopData {
  products: WooProduct[];
  variations: WooVariation[];
  coupons: WooCoupon[];
  posts: WpPost[];
  orders: WooOrder[];
}

// ---------------------------------------------------------------- recordings

/** One recorded exchange with the real shop (see woocommerce-11/README.md). */
export interface Recording {
  request: { method: string; path: string; body?: unknown };
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: unknown;
}

const asRecording = (json: unknown) => json as Recording;

export const RECORDINGS = {
  authWrongSecret: asRecording(authWrongSecret),
  couponAb50: asRecording(couponAb50),
  couponAbgelaufen: asRecording(couponAbgelaufen),
  couponAufgebraucht: asRecording(couponAufgebraucht),
  couponFest5: asRecording(couponFest5),
  couponGibtEsNicht: asRecording(couponGibtEsNicht),
  couponHafen20: asRecording(couponHafen20),
  ordersCreateExpiredCoupon: asRecording(ordersCreateExpiredCoupon),
  ordersCreatePaid: asRecording(ordersCreatePaid),
  ordersList: asRecording(ordersList),
  postsEmbed: asRecording(postsEmbed),
  productAfterStockChange: asRecording(productAfterStockChange),
  productsAny: asRecording(productsAny),
  productsDefaultPage: asRecording(productsDefaultPage),
  productsPerPage101: asRecording(productsPerPage101),
  productsPublishP1: asRecording(productsPublishP1),
  productsPublishPer5P2: asRecording(productsPublishPer5P2),
  productsUnknownId: asRecording(productsUnknownId),
  routeUnknown: asRecording(routeUnknown),
  variationsTShirt: asRecording(variationsTShirt),
  variationsTicketTiers: asRecording(variationsTicketTiers),
};

/** The moment the recorded shop answered the order requests (Berlin 04:36:38). */
export const RECORDED_AT = new Date('2026-11-23T03:36:38Z');

const bodyOf = <T>(recording: Recording) => structuredClone(recording.body) as T;

/**
 * The recorded shop as it stood before the recorded paid order (46): twelve published
 * products and a draft, the ticket tiers of event 42 (43 Early Bird sold out, 44 Regulär,
 * 45 VIP on sale) and the T-shirt 28 in M (29) and L (30), five coupons, three posts and
 * orders 39–41. Posting `RECORDINGS.ordersCreatePaid.request.body` to it gives order 46.
 */
export function recordedShop(): ShopData {
  const published = bodyOf<WooProduct[]>(RECORDINGS.productsPublishP1);
  const any = bodyOf<WooProduct[]>(RECORDINGS.productsAny);
  // Listed in the shop's order (newest first); only the draft is missing from the
  // publish list. related_ids are drawn at random per request, so either copy will do.
  const byId = new Map(published.map((p) => [p.id, p]));
  const products = any.map((p) => byId.get(p.id) ?? p);
  const paid = RECORDINGS.ordersCreatePaid.body as WooOrder;
  return {
    products,
    variations: [
      ...bodyOf<WooVariation[]>(RECORDINGS.variationsTicketTiers),
      ...bodyOf<WooVariation[]>(RECORDINGS.variationsTShirt),
    ],
    coupons: [
      RECORDINGS.couponAb50,
      RECORDINGS.couponAufgebraucht,
      RECORDINGS.couponAbgelaufen,
      RECORDINGS.couponFest5,
      RECORDINGS.couponHafen20,
    ].flatMap((r) => bodyOf<WooCoupon[]>(r)),
    posts: bodyOf<WpPost[]>(RECORDINGS.postsEmbed),
    orders: bodyOf<WooOrder[]>(RECORDINGS.ordersList)
      .filter((o) => o.id !== paid.id)
      .reverse(),
  };
}

// ---------------------------------------------------------------- dates

const pad = (n: number) => String(n).padStart(2, '0');

const berlin = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Berlin',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** A moment as WordPress renders it: Berlin wall clock, and UTC for the `*_gmt` twin. */
export function wpDate(at: Date): { local: string; gmt: string } {
  const part = (type: string) => berlin.formatToParts(at).find((p) => p.type === type)!.value;
  return {
    local: `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}`,
    gmt: at.toISOString().slice(0, 19),
  };
}

/** WordPress site time (Berlin wall clock) `days` from `now`, as "YYYY-MM-DD HH:MM:SS". */
export function siteTime(now: Date, days: number, hour = 19, minute = 0): string {
  const [year, month, day] = wpDate(now).local.slice(0, 10).split('-').map(Number) as [
    number,
    number,
    number,
  ];
  const d = new Date(Date.UTC(year, month - 1, day + days));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(hour)}:${pad(minute)}:00`;
}

// ---------------------------------------------------------------- builders

const ALLOW_ALL = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const selfLink = (path: string, allow = ALLOW_ALL) => [
  { href: `${SHOP_URL}/wp-json${path}`, targetHints: { allow } },
];

/** WordPress's sanitize_title for attribute slugs ("Größe" → "grose"). */
function sanitizeTitle(text: string): string {
  return text
    .replace(/ß/g, 's')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Image fields as WooCommerce renders them on products and variations. */
export function wooImage(image: { id: number; src: string; alt?: string }): WooImage {
  const created = '2026-01-02T10:00:00';
  return {
    id: image.id,
    date_created: created,
    date_created_gmt: '2026-01-02T09:00:00',
    date_modified: created,
    date_modified_gmt: '2026-01-02T09:00:00',
    src: image.src,
    name: image.alt ?? '',
    alt: image.alt ?? '',
    srcset: '',
    sizes: '',
    thumbnail: image.src,
  };
}

type MetaInput = { id?: number; key: string; value: unknown };

export type WooProductInput = Partial<Omit<WooProductFields, 'id' | 'meta_data' | 'images'>> & {
  meta_data?: MetaInput[];
  images?: { id: number; src: string; alt?: string }[];
  [field: string]: unknown;
};

const withMetaIds = (owner: number, meta: MetaInput[] = []): WooMeta[] =>
  meta.map((m, i) => ({ ...m, id: m.id ?? owner * 100 + i }));

/**
 * A simple product with every field WooCommerce 11 sends. `regular_price` follows
 * `price`, `on_sale` follows `sale_price`, stock is managed when a quantity is given.
 */
export function wooProduct(id: number, input: WooProductInput = {}): WooProduct {
  const {
    meta_data,
    images,
    name = `Produkt ${id}`,
    slug = `produkt-${id}`,
    price = '',
    sale_price = '',
    ...rest
  } = input;
  const created = input.date_created ?? '2026-01-10T10:00:00';
  const stock = input.stock_quantity ?? null;
  const manageStock = input.manage_stock ?? stock !== null;
  return {
    id,
    name,
    slug,
    permalink: `${SHOP_URL}/produkt/${slug}/`,
    date_created: created,
    date_created_gmt: created,
    date_modified: created,
    date_modified_gmt: created,
    type: 'simple',
    status: 'publish',
    featured: false,
    catalog_visibility: 'visible',
    description: '',
    short_description: '',
    sku: '',
    price,
    regular_price: input.regular_price ?? price,
    sale_price,
    date_on_sale_from: null,
    date_on_sale_from_gmt: null,
    date_on_sale_to: null,
    date_on_sale_to_gmt: null,
    on_sale: sale_price !== '',
    purchasable: price !== '',
    total_sales: 0,
    virtual: true,
    downloadable: false,
    downloads: [],
    download_limit: -1,
    download_expiry: -1,
    external_url: '',
    button_text: '',
    tax_status: 'taxable',
    tax_class: '',
    manage_stock: manageStock,
    stock_quantity: manageStock ? stock : null,
    backorders: 'no',
    backorders_allowed: false,
    backordered: false,
    low_stock_amount: null,
    sold_individually: false,
    weight: '',
    dimensions: { length: '', width: '', height: '' },
    shipping_required: false,
    shipping_taxable: false,
    shipping_class: '',
    shipping_class_id: 0,
    reviews_allowed: false,
    average_rating: '0.00',
    rating_count: 0,
    upsell_ids: [],
    cross_sell_ids: [],
    parent_id: 0,
    purchase_note: '',
    categories: [],
    brands: [],
    tags: [],
    images: (images ?? []).map(wooImage),
    attributes: [],
    default_attributes: [],
    variations: [],
    grouped_products: [],
    menu_order: 0,
    price_html: '',
    related_ids: [],
    meta_data: withMetaIds(id, meta_data),
    stock_status: manageStock && stock !== null && stock <= 0 ? 'outofstock' : 'instock',
    has_options: false,
    post_password: '',
    global_unique_id: '',
    _links: {
      self: selfLink(`/wc/v3/products/${id}`),
      collection: [{ href: `${SHOP_URL}/wp-json/wc/v3/products` }],
    },
    ...rest,
  };
}

/** An upcoming event (rules §3 `event_date` meta) that sells `stock_quantity` tickets. */
export function wooEvent(
  id: number,
  overrides: WooProductInput & { startsInDays?: number } = {},
): WooProduct {
  const { startsInDays = 14, ...rest } = overrides;
  const day = new Date(Date.now() + startsInDays * 86_400_000);
  const date = day.toISOString().slice(0, 10) + ' 19:00:00';
  return wooProduct(id, {
    name: `Testevent ${id}`,
    slug: `testevent-${id}`,
    date_created: '2026-01-05T10:00:00',
    date_modified: '2026-01-06T10:00:00',
    price: '19.90',
    stock_quantity: 100,
    short_description: '<p>Ein Abend zum Kennenlernen.</p>',
    description: '<p>Ein Abend zum Kennenlernen, mit Musik und Getränken.</p>',
    categories: [{ id: 15, name: 'Events', slug: 'events' }],
    meta_data: [
      { id: id * 10 + 1, key: 'event_date', value: date },
      { id: id * 10 + 2, key: 'location', value: 'Hafenklang, Hamburg' },
    ],
    ...rest,
  });
}

export type WooVariationInput = Partial<Omit<WooVariationFields, 'id' | 'image'>> & {
  id: number;
  [field: string]: unknown;
  /** The attribute value this variation stands for ("VIP", "M"). */
  option: string;
  image?: { id: number; src: string; alt?: string } | null;
};

/**
 * A variable product (ticket tiers, sizes) and its variations, shaped as WooCommerce
 * renders them. The fake derives the parent's `price` (lowest variation price),
 * `variations`, `on_sale` and `stock_status` from the variations, as WooCommerce's
 * product sync does.
 */
export function wooVariable(
  id: number,
  input: WooProductInput & { attribute: string },
  variations: WooVariationInput[],
): { product: WooProduct; variations: WooVariation[] } {
  const { attribute, ...parentInput } = input;
  const product = wooProduct(id, {
    type: 'variable',
    manage_stock: false,
    virtual: false,
    has_options: true,
    ...parentInput,
    regular_price: '',
    sale_price: '',
    attributes: [
      {
        id: 0,
        name: attribute,
        slug: attribute,
        position: 0,
        visible: true,
        variation: true,
        options: variations.map((v) => v.option),
      },
    ],
  });
  const attributeSlug = sanitizeTitle(attribute);
  return {
    product,
    variations: variations.map(({ id: variationId, option, image, ...v }) => {
      const regular = v.regular_price ?? v.price ?? '';
      const sale = v.sale_price ?? '';
      const stock = v.stock_quantity ?? null;
      const manageStock = v.manage_stock ?? stock !== null;
      const created = product.date_created as string;
      const query = encodeURIComponent(option).replace(/%20/g, '+');
      return {
        id: variationId,
        type: 'variation',
        date_created: created,
        date_created_gmt: created,
        date_modified: created,
        date_modified_gmt: created,
        description: '',
        permalink: `${product.permalink as string}?attribute_${attributeSlug}=${query}`,
        sku: '',
        global_unique_id: '',
        price: v.price ?? (sale || regular),
        regular_price: regular,
        sale_price: sale,
        date_on_sale_from: null,
        date_on_sale_from_gmt: null,
        date_on_sale_to: null,
        date_on_sale_to_gmt: null,
        on_sale: sale !== '',
        status: 'publish',
        purchasable: (v.price ?? (sale || regular)) !== '',
        virtual: true,
        downloadable: false,
        downloads: [],
        download_limit: -1,
        download_expiry: -1,
        tax_status: 'taxable',
        tax_class: '',
        manage_stock: manageStock,
        stock_quantity: manageStock === true ? stock : null,
        stock_status:
          manageStock === true && stock !== null && stock <= 0 ? 'outofstock' : 'instock',
        backorders: 'no',
        backorders_allowed: false,
        backordered: false,
        low_stock_amount: null,
        weight: '',
        dimensions: { length: '', width: '', height: '' },
        shipping_class: '',
        shipping_class_id: 0,
        image: image ? wooImage(image) : null,
        gallery_image_ids: [],
        attributes: [{ id: 0, name: attribute, slug: attributeSlug, option }],
        menu_order: 0,
        meta_data: [],
        name: option,
        parent_id: id,
        _links: {
          self: selfLink(`/wc/v3/products/${id}/variations/${variationId}`),
          collection: [{ href: `${SHOP_URL}/wp-json/wc/v3/products/${id}/variations` }],
          up: [{ href: `${SHOP_URL}/wp-json/wc/v3/products/${id}` }],
        },
        ...v,
      };
    }),
  };
}

/**
 * A coupon as WooCommerce stores it: the code in lower case (WooCommerce lower-cases codes
 * on save), amounts as strings, `minimum_amount` "0.00" for none.
 */
export function wooCoupon(code: string, overrides: Partial<WooCoupon> = {}): WooCoupon {
  const id = overrides.id ?? code.length * 1000 + code.toLowerCase().charCodeAt(0);
  return {
    id,
    code: code.toLowerCase(),
    amount: '10.00',
    status: 'publish',
    date_created: '2026-01-01T10:00:00',
    date_created_gmt: '2026-01-01T09:00:00',
    date_modified: '2026-01-01T10:00:00',
    date_modified_gmt: '2026-01-01T09:00:00',
    discount_type: 'percent',
    description: '',
    date_expires: null,
    date_expires_gmt: null,
    usage_count: 0,
    individual_use: false,
    product_ids: [],
    excluded_product_ids: [],
    usage_limit: null,
    usage_limit_per_user: null,
    limit_usage_to_x_items: null,
    free_shipping: false,
    product_categories: [],
    excluded_product_categories: [],
    exclude_sale_items: false,
    minimum_amount: '0.00',
    maximum_amount: '0.00',
    email_restrictions: [],
    used_by: [],
    meta_data: [],
    _links: {
      self: selfLink(`/wc/v3/coupons/${id}`),
      collection: [{ href: `${SHOP_URL}/wp-json/wc/v3/coupons` }],
    },
    ...overrides,
    ...(overrides.code !== undefined ? { code: overrides.code.toLowerCase() } : {}),
  };
}

export type WpPostInput = Partial<WpPost> & {
  /** Embedded as `wp:featuredmedia`. */
  image?: { src: string; alt: string };
  /** Embedded author name; null: no author embedded. */
  author?: string | null;
};

/** A WordPress post with `_embedded` author and featured image (`?_embed`). */
export function wpPost(id: number, input: WpPostInput = {}): WpPost {
  const { image, author = 'Redaktion', ...overrides } = input;
  const slug = overrides.slug ?? `beitrag-${id}`;
  const date = overrides.date ?? '2026-02-01T09:00:00';
  const mediaId = image ? id * 10 + 1 : 0;
  const link = `${SHOP_URL}/${slug}/`;
  return {
    id,
    date,
    date_gmt: overrides.date_gmt ?? date,
    guid: { rendered: link },
    modified: date,
    modified_gmt: date,
    slug,
    status: 'publish',
    type: 'post',
    link,
    title: { rendered: `Beitrag ${id}` },
    content: { rendered: '<p>Inhalt des Beitrags.</p>', protected: false },
    excerpt: { rendered: '<p>Kurzfassung.</p>', protected: false },
    author: 1,
    featured_media: mediaId,
    comment_status: 'closed',
    ping_status: 'open',
    sticky: false,
    template: '',
    format: 'standard',
    meta: { footnotes: '' },
    categories: [1],
    tags: [],
    class_list: [`post-${id}`, 'post', 'type-post', 'status-publish', 'format-standard', 'hentry'],
    _links: {
      self: selfLink(`/wp/v2/posts/${id}`, ['GET']),
      collection: [{ href: `${SHOP_URL}/wp-json/wp/v2/posts` }],
    },
    _embedded: {
      ...(author !== null
        ? { author: [{ id: 1, name: author, slug: sanitizeTitle(author), link: SHOP_URL }] }
        : {}),
      ...(image
        ? {
            'wp:featuredmedia': [
              {
                id: mediaId,
                date,
                slug: `bild-${mediaId}`,
                type: 'attachment',
                title: { rendered: image.alt },
                author: 1,
                alt_text: image.alt,
                media_type: 'image',
                mime_type: 'image/jpeg',
                source_url: image.src,
              },
            ],
          }
        : {}),
    },
    ...overrides,
  };
}

// ---------------------------------------------------------------- edge-case shop

const EVENTS = { id: 15, name: 'Events', slug: 'events' };
const MERCH = { id: 16, name: 'Merch', slug: 'merch' };

/** Messy but realistic shop data: every case the adapter must survive. */
export function edgeCaseProducts(now: Date): WooProduct[] {
  return [
    wooProduct(11, {
      name: 'Afterwork im Hafen',
      slug: 'afterwork-im-hafen',
      price: '24.90',
      meta_data: [
        { key: 'event_date', value: siteTime(now, 10, 18, 30) },
        { key: 'location', value: 'Hafenbar, St. Pauli' },
      ],
      categories: [EVENTS],
      stock_quantity: 80,
      short_description: '<p>Drinks mit Blick auf die Elbe.<script>alert(1)</script></p>',
      description:
        '<h1>Afterwork</h1><p onclick="steal()">Komm vorbei!</p><a href="https://example.org/karte" target="_blank">Karte</a> <a href="javascript:alert(1)">böse</a><iframe src="https://evil.example"></iframe>',
      images: [
        {
          id: 1,
          src: 'https://shop.example/wp-content/uploads/hafen.jpg',
          alt: 'Hafen &amp; Kräne',
        },
      ],
    }),
    wooProduct(12, {
      name: 'FooEvents Abend',
      slug: 'fooevents-abend',
      price: '19',
      meta_data: [
        { key: 'WooCommerceEventsDateMySQLFormat', value: siteTime(now, 20).slice(0, 10) },
        { key: 'WooCommerceEventsHour', value: '08' },
        { key: 'WooCommerceEventsMinutes', value: '15' },
        { key: 'WooCommerceEventsPeriod', value: 'p.m.' },
        { key: 'WooCommerceEventsLocation', value: 'Kontorhaus' },
      ],
      stock_quantity: 5,
    }),
    wooProduct(13, {
      name: 'Kalender-Event',
      slug: 'kalender-event',
      price: '30.00',
      meta_data: [
        { key: '_EventStartDate', value: siteTime(now, -5) },
        { key: '_edit_lock', value: '1700000000:1' },
      ],
      stock_quantity: 0,
      manage_stock: true,
      stock_status: 'outofstock',
    }),
    // Empty price, a date that is an object, another in an array, numbers as meta.
    wooProduct(14, {
      name: 'Jazz &amp; Gin &#8211; Spezial',
      slug: 'jazz-gin-spezial',
      price: '',
      meta_data: [
        { key: 'event_date', value: { date: 'kein Datum' } },
        { key: 'event_start_date', value: 'demnächst' },
        { key: 'start_date', value: [siteTime(now, 30)] },
        { key: 'capacity', value: 120 },
        { key: 'sponsors', value: ['Brennerei Nord', 'Elbtonic'] },
      ],
      stock_quantity: null,
      manage_stock: false,
    }),
    wooProduct(15, {
      name: 'Event ohne Datum',
      slug: 'event-ohne-datum',
      price: '15.00',
      categories: [EVENTS],
      date_created: siteTime(now, -40, 10).replace(' ', 'T'),
    }),
    wooProduct(21, {
      name: 'Jutebeutel',
      slug: 'jutebeutel',
      price: '12.50',
      regular_price: '14.90',
      sale_price: '12.50',
      categories: [MERCH],
      stock_quantity: 40,
    }),
    wooProduct(22, {
      name: 'Produkt ohne Slug',
      slug: '',
      price: 'kostenlos',
      meta_data: [{ key: 'event_date', value: siteTime(now, 3) }],
    }),
    wooProduct(23, { name: 'Entwurf', slug: 'entwurf', price: '9.00', status: 'draft' }),
  ];
}

export function edgeCaseCoupons(): WooCoupon[] {
  return [
    wooCoupon('afterwork10', { id: 1, amount: '10.00', discount_type: 'percent' }),
    wooCoupon('willkommen5', { id: 2, amount: '5.00', discount_type: 'fixed_cart' }),
    wooCoupon('sommer2024', {
      id: 3,
      amount: '15',
      discount_type: 'percent',
      date_expires: '2024-09-30T00:00:00',
      date_expires_gmt: '2024-09-29T22:00:00',
    }),
    wooCoupon('team20', {
      id: 4,
      amount: '20',
      discount_type: 'percent',
      minimum_amount: '100.00',
    }),
    wooCoupon('fruehbucher', {
      id: 5,
      amount: '10',
      discount_type: 'fixed_cart',
      usage_limit: 50,
      usage_count: 50,
    }),
    // A code that merely contains another: the adapter must not take it for the shorter one.
    wooCoupon('afterwork100', { id: 6, amount: '100', discount_type: 'percent' }),
  ];
}

export function edgeCasePosts(): WpPost[] {
  return [
    wpPost(41, {
      slug: 'rueckblick-hafen',
      title: { rendered: 'R&uuml;ckblick: &#8222;Afterwork im Hafen&#8220;' },
      date: '2026-03-02T09:00:00',
      excerpt: { rendered: '<p>So war der Abend an der Elbe [&hellip;]</p>\n', protected: false },
      content: {
        rendered:
          '<p>Danke an alle!</p><script>track()</script><img src="https://shop.example/a.jpg" onerror="x()" alt="Gäste">',
        protected: false,
      },
      image: {
        src: 'https://shop.example/wp-content/uploads/rueckblick.jpg',
        alt: 'Gäste an der Bar',
      },
      author: 'Lena Hoffmann',
    }),
    wpPost(42, {
      slug: 'tipps',
      title: { rendered: 'Fünf Tipps' },
      date: '2026-04-10T18:00:00',
      content: { rendered: '<p>Komm früh und stell dich an die Bar.</p>', protected: false },
      excerpt: { rendered: '', protected: false },
      author: null,
    }),
  ];
}

/** The edge-case shop: what the fake serves when a test gives no data of its own. */
export function edgeCaseShop(now = new Date()): ShopData {
  return {
    products: edgeCaseProducts(now),
    variations: [],
    coupons: edgeCaseCoupons(),
    posts: edgeCasePosts(),
    orders: [],
  };
}

/** `count` simple products, for pagination tests and the benchmark. */
export function manyProducts(count: number, now = new Date()): WooProduct[] {
  return Array.from({ length: count }, (_, i) =>
    wooProduct(1000 + i, {
      name: `Afterwork Nr. ${i + 1}`,
      slug: `afterwork-${i + 1}`,
      price: `${15 + (i % 20)}.90`,
      meta_data: [{ key: 'event_date', value: siteTime(now, (i % 120) - 30) }],
      stock_quantity: 50 + (i % 50),
      short_description: '<p>Networking, Musik und Drinks.</p>',
    }),
  );
}

/** The reference the site gives an order (its meta, else the transaction id). */
export function orderReference(order: Record<string, unknown>): string {
  const meta = Array.isArray(order.meta_data)
    ? (order.meta_data as { key?: unknown; value?: unknown }[])
    : [];
  const fromMeta = meta.find((m) => typeof m.value === 'string' && /ord|ref/i.test(String(m.key)));
  if (fromMeta) return String(fromMeta.value);
  if (typeof order.transaction_id === 'string' && order.transaction_id) return order.transaction_id;
  return JSON.stringify(order.line_items ?? order);
}

/**
 * A WordPress account of the shop as `GET /wp-json/wp/v2/users/me?context=edit` describes it
 * (WordPress's users controller; not in the recordings, which were made with API keys), and
 * the application passwords it can sign in with (WordPress → Benutzer → Profil →
 * Anwendungspasswörter: 24 letters and digits, shown in groups of four).
 */
export interface WpUser {
  id: number;
  username: string;
  name: string;
  first_name: string;
  last_name: string;
  email: string;
  roles: string[];
  registered_date: string;
  /** Shortened: WordPress lists every capability of the roles; these are the ones that tell. */
  capabilities: Record<string, boolean>;
  applicationPasswords: string[];
}

/** Application passwords of the default accounts, as WordPress shows them once. */
export const WP_APP_PASSWORDS = {
  shopManager: 'Hafn 7KqM 2xLp Vw9R tE4s Yb3N',
  administrator: 'Adm1 nPw0 rtE5 9sKq LmN2 xYz7',
  subscriber: 'Sub5 crib 3rPw 0rd7 AbCd 1234',
} as const;

/** A shop manager, an administrator and a customer who only subscribed (no organizer). */
export function wordpressUsers(): WpUser[] {
  const user = (
    id: number,
    username: string,
    name: string,
    roles: string[],
    capabilities: string[],
    password: string,
  ): WpUser => {
    const [first = '', last = ''] = name.split(' ');
    return {
      id,
      username,
      name,
      first_name: first,
      last_name: last,
      email: `${username}@afterwork-hamburg.example`,
      roles,
      registered_date: '2025-03-14T09:12:40+00:00',
      capabilities: Object.fromEntries(
        [...capabilities, ...roles].map((capability) => [capability, true]),
      ),
      applicationPasswords: [password],
    };
  };
  return [
    user(
      2,
      'hanna.hafen',
      'Hanna Hafen',
      ['shop_manager'],
      ['read', 'edit_posts', 'manage_woocommerce', 'view_woocommerce_reports', 'edit_products'],
      WP_APP_PASSWORDS.shopManager,
    ),
    user(
      1,
      'admin',
      'Alex Admin',
      ['administrator'],
      ['read', 'manage_options', 'manage_woocommerce', 'list_users', 'edit_users'],
      WP_APP_PASSWORDS.administrator,
    ),
    user(7, 'karla.kundin', 'Karla Kundin', ['subscriber'], ['read'], WP_APP_PASSWORDS.subscriber),
  ];
}
