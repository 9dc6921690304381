import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A WooCommerce REST v3 + WordPress REST server on 127.0.0.1 that answers in the real
 * wire format: string prices (sometimes empty), meta_data arrays with values of any
 * type, X-WP-Total/X-WP-TotalPages pagination, basic auth with WooCommerce's 401 body.
 * Tests can slow it down or make it fail to exercise timeouts, retries and the cache.
 */

export type WooJson = Record<string, unknown>;

export interface FakeWooOptions {
  key?: string;
  secret?: string;
  products?: WooJson[];
  coupons?: WooJson[];
  posts?: WooJson[];
  /** Delay before every answer (WooCommerce is slow). */
  latencyMs?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorized: boolean;
  hasAuthHeader: boolean;
}

interface Failure {
  status: number;
  remaining: number;
  pathPrefix: string;
  html: boolean;
  method: string | undefined;
}

export const FAKE_WOO_KEY = 'ck_0123456789abcdef0123456789abcdef01234567';
export const FAKE_WOO_SECRET = 'cs_76543210fedcba9876543210fedcba9876543210';

const WC = '/wp-json/wc/v3';
const WP = '/wp-json/wp/v2';

export class FakeWooCommerce {
  products: WooJson[];
  coupons: WooJson[];
  posts: WooJson[];
  readonly orders: WooJson[] = [];
  readonly requests: RecordedRequest[] = [];
  latencyMs: number;
  /** Every request answers 503 (maintenance mode) while true. */
  down = false;
  readonly key: string;
  readonly secret: string;
  private readonly failures: Failure[] = [];
  private readonly slowPaths = new Map<string, number>();
  private server!: Server;
  private nextOrderId = 5001;

  private constructor(options: FakeWooOptions) {
    this.key = options.key ?? FAKE_WOO_KEY;
    this.secret = options.secret ?? FAKE_WOO_SECRET;
    this.products = options.products ?? wooProductFixtures(new Date());
    this.coupons = options.coupons ?? wooCouponFixtures();
    this.posts = options.posts ?? wpPostFixtures();
    this.latencyMs = options.latencyMs ?? 0;
  }

  static async start(options: FakeWooOptions = {}): Promise<FakeWooCommerce> {
    const fake = new FakeWooCommerce(options);
    fake.server = createServer((req, res) => {
      fake.handle(req, res).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
    });
    // Keep-alive sockets would hold close() open in tests.
    fake.server.keepAliveTimeout = 1_000;
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** The next `count` requests under `pathPrefix` fail with `status` (HTML body if asked). */
  failNext(count: number, status = 503, pathPrefix = '/', html = false, method?: string): void {
    this.failures.push({ status, remaining: count, pathPrefix, html, method });
  }

  /** Requests under `pathPrefix` wait `ms` before answering. */
  slow(pathPrefix: string, ms: number): void {
    this.slowPaths.set(pathPrefix, ms);
  }

  calls(pathPrefix = '/', method?: string): number {
    return this.requests.filter(
      (r) => r.path.startsWith(pathPrefix) && (method === undefined || r.method === method),
    ).length;
  }

  resetCalls(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const expected = 'Basic ' + Buffer.from(`${this.key}:${this.secret}`).toString('base64');
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      authorized: req.headers.authorization === expected,
      hasAuthHeader: req.headers.authorization !== undefined,
    };
    this.requests.push(record);
    const body = await readBody(req);

    let delay = this.latencyMs;
    for (const [prefix, ms] of this.slowPaths) if (url.pathname.startsWith(prefix)) delay += ms;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (res.destroyed) return;

    if (this.down) return sendHtml(res, 503, MAINTENANCE_HTML);
    const failure = this.failures.find(
      (f) =>
        f.remaining > 0 &&
        url.pathname.startsWith(f.pathPrefix) &&
        (f.method === undefined || f.method === req.method),
    );
    if (failure) {
      failure.remaining--;
      if (failure.html) return sendHtml(res, failure.status, CRITICAL_ERROR_HTML);
      return sendJson(res, failure.status, {
        code: 'internal_server_error',
        message: '<p>Es gab einen kritischen Fehler auf deiner Website.</p>',
        data: { status: failure.status },
      });
    }

    if (url.pathname.startsWith(WC)) {
      if (!record.authorized) {
        return sendJson(res, 401, {
          code: record.hasAuthHeader
            ? 'woocommerce_rest_cannot_view'
            : 'woocommerce_rest_authentication_error',
          message: record.hasAuthHeader
            ? 'Sorry, you cannot list resources.'
            : 'Consumer key is invalid.',
          data: { status: 401 },
        });
      }
      const route = url.pathname.slice(WC.length);
      if (req.method === 'GET' && route === '/products') {
        const published = this.products.filter((p) => (p.status ?? 'publish') === 'publish');
        return sendPage(res, url, published);
      }
      if (req.method === 'GET' && route === '/coupons') {
        const code = url.searchParams.get('code');
        const list = code
          ? this.coupons.filter((c) => String(c.code).toLowerCase().includes(code.toLowerCase()))
          : this.coupons;
        return sendPage(res, url, list);
      }
      if (req.method === 'GET' && route === '/orders') return sendPage(res, url, this.orders);
      if (req.method === 'POST' && route === '/orders') {
        let order: WooJson;
        try {
          order = JSON.parse(body) as WooJson;
        } catch {
          return sendJson(res, 400, {
            code: 'rest_invalid_json',
            message: 'Invalid JSON body passed.',
            data: { status: 400 },
          });
        }
        const created = { ...order, id: this.nextOrderId++, number: String(this.nextOrderId - 1) };
        this.orders.unshift(created);
        return sendJson(res, 201, created);
      }
    }
    if (req.method === 'GET' && url.pathname === `${WP}/posts`)
      return sendPage(res, url, this.posts);
    return sendJson(res, 404, {
      code: 'rest_no_route',
      message: 'No route was found matching the URL and request method.',
      data: { status: 404 },
    });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(text);
}

function sendHtml(res: ServerResponse, status: number, html: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=UTF-8' });
  res.end(html);
}

/** WordPress pagination: per_page (max 100), page, X-WP-Total, X-WP-TotalPages. */
function sendPage(res: ServerResponse, url: URL, all: WooJson[]) {
  const perPage = Math.min(Math.max(Number(url.searchParams.get('per_page') ?? 10) || 10, 1), 100);
  const page = Math.max(Number(url.searchParams.get('page') ?? 1) || 1, 1);
  const totalPages = Math.max(Math.ceil(all.length / perPage), 1);
  if (page > totalPages && all.length > 0) {
    return sendJson(res, 400, {
      code: 'rest_post_invalid_page_number',
      message: 'The page number requested is larger than the number of pages available.',
      data: { status: 400 },
    });
  }
  sendJson(res, 200, all.slice((page - 1) * perPage, page * perPage), {
    'x-wp-total': String(all.length),
    'x-wp-totalpages': String(totalPages),
  });
}

const MAINTENANCE_HTML =
  '<!DOCTYPE html><html><head><title>Wartungsmodus</title></head><body><p>Briefly unavailable for scheduled maintenance. Check back in a minute.</p></body></html>';
const CRITICAL_ERROR_HTML =
  '<!DOCTYPE html><html><body><p>There has been a critical error on this website.</p></body></html>';

// ---------------------------------------------------------------- fixtures

const pad = (n: number) => String(n).padStart(2, '0');

/** WordPress site time (Berlin wall clock) `days` from `now`, as "YYYY-MM-DD HH:MM:SS". */
export function siteTime(now: Date, days: number, hour = 19, minute = 0): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Berlin',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
    .format(now)
    .split('-')
    .map(Number) as [number, number, number];
  const d = new Date(Date.UTC(parts[0], parts[1] - 1, parts[2] + days));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(hour)}:${pad(minute)}:00`;
}

const wooDate = (siteTimeText: string) => siteTimeText.replace(' ', 'T');

export interface WooProductInput {
  id: number;
  name: string;
  slug: string;
  price?: string;
  regular_price?: string;
  sale_price?: string;
  meta_data?: { key: string; value: unknown }[];
  categories?: { id: number; name: string; slug: string }[];
  stock_quantity?: number | null;
  manage_stock?: boolean;
  stock_status?: string;
  short_description?: string;
  description?: string;
  date_created?: string;
  images?: { id: number; src: string; alt: string }[];
  status?: string;
}

/** A product exactly as WooCommerce REST v3 renders it (most fields; strings for money). */
export function wooProduct(input: WooProductInput): WooJson {
  const created = input.date_created ?? '2026-01-10T10:00:00';
  return {
    id: input.id,
    name: input.name,
    slug: input.slug,
    permalink: `https://shop.example/produkt/${input.slug}/`,
    date_created: created,
    date_created_gmt: created,
    date_modified: created,
    date_modified_gmt: created,
    type: 'simple',
    status: input.status ?? 'publish',
    featured: false,
    catalog_visibility: 'visible',
    description: input.description ?? '',
    short_description: input.short_description ?? '',
    sku: '',
    price: input.price ?? '',
    regular_price: input.regular_price ?? input.price ?? '',
    sale_price: input.sale_price ?? '',
    price_html: '',
    on_sale: (input.sale_price ?? '') !== '',
    purchasable: true,
    virtual: true,
    manage_stock: input.manage_stock ?? input.stock_quantity !== undefined,
    stock_quantity: input.stock_quantity ?? null,
    stock_status: input.stock_status ?? 'instock',
    categories: input.categories ?? [],
    tags: [],
    images: input.images ?? [],
    attributes: [],
    variations: [],
    meta_data: (input.meta_data ?? []).map((m, i) => ({ id: input.id * 100 + i, ...m })),
    _links: { self: [{ href: `https://shop.example/wp-json/wc/v3/products/${input.id}` }] },
  };
}

const EVENTS = { id: 15, name: 'Events', slug: 'events' };
const MERCH = { id: 16, name: 'Merch', slug: 'merch' };

/** Messy but realistic shop data: every case the adapter must survive. */
export function wooProductFixtures(now: Date): WooJson[] {
  return [
    wooProduct({
      id: 11,
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
    wooProduct({
      id: 12,
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
    wooProduct({
      id: 13,
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
    wooProduct({
      // Empty price, a date that is an object, another in an array, numbers as meta.
      id: 14,
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
    wooProduct({
      id: 15,
      name: 'Event ohne Datum',
      slug: 'event-ohne-datum',
      price: '15.00',
      categories: [EVENTS],
      date_created: wooDate(siteTime(now, -40, 10)),
    }),
    wooProduct({
      id: 21,
      name: 'Jutebeutel',
      slug: 'jutebeutel',
      price: '12.50',
      regular_price: '14.90',
      sale_price: '12.50',
      categories: [MERCH],
      stock_quantity: 40,
    }),
    wooProduct({
      id: 22,
      name: 'Produkt ohne Slug',
      slug: '',
      price: 'kostenlos',
      meta_data: [{ key: 'event_date', value: siteTime(now, 3) }],
    }),
    wooProduct({
      id: 23,
      name: 'Entwurf',
      slug: 'entwurf',
      price: '9.00',
      status: 'draft',
    }),
  ];
}

export function wooCoupon(input: {
  id: number;
  code: string;
  amount: string;
  discount_type: string;
  date_expires?: string | null;
  usage_count?: number;
  usage_limit?: number | null;
  minimum_amount?: string;
}): WooJson {
  return {
    id: input.id,
    code: input.code,
    amount: input.amount,
    date_created: '2026-01-01T10:00:00',
    discount_type: input.discount_type,
    description: '',
    date_expires: input.date_expires ?? null,
    date_expires_gmt: input.date_expires ?? null,
    usage_count: input.usage_count ?? 0,
    individual_use: false,
    product_ids: [],
    usage_limit: input.usage_limit ?? null,
    usage_limit_per_user: null,
    free_shipping: false,
    minimum_amount: input.minimum_amount ?? '0.00',
    maximum_amount: '0.00',
    meta_data: [],
  };
}

/** WooCommerce keeps coupon codes in lower case. */
export function wooCouponFixtures(): WooJson[] {
  return [
    wooCoupon({ id: 1, code: 'afterwork10', amount: '10.00', discount_type: 'percent' }),
    wooCoupon({ id: 2, code: 'willkommen5', amount: '5.00', discount_type: 'fixed_cart' }),
    wooCoupon({
      id: 3,
      code: 'sommer2024',
      amount: '15',
      discount_type: 'percent',
      date_expires: '2024-09-30T00:00:00',
    }),
    wooCoupon({
      id: 4,
      code: 'team20',
      amount: '20',
      discount_type: 'percent',
      minimum_amount: '100.00',
    }),
    wooCoupon({
      id: 5,
      code: 'fruehbucher',
      amount: '10',
      discount_type: 'fixed_cart',
      usage_limit: 50,
      usage_count: 50,
    }),
    // A code that merely contains another: WooCommerce's code filter would return both.
    wooCoupon({ id: 6, code: 'afterwork100', amount: '100', discount_type: 'percent' }),
  ];
}

export function wpPost(input: {
  id: number;
  slug: string;
  title: string;
  date: string;
  content: string;
  excerpt?: string;
  image?: { src: string; alt: string };
  author?: string;
}): WooJson {
  return {
    id: input.id,
    date: input.date,
    date_gmt: input.date,
    modified: input.date,
    slug: input.slug,
    status: 'publish',
    type: 'post',
    link: `https://shop.example/${input.slug}/`,
    title: { rendered: input.title },
    content: { rendered: input.content, protected: false },
    excerpt: { rendered: input.excerpt ?? '', protected: false },
    author: 1,
    featured_media: input.image ? 99 : 0,
    _embedded: {
      author: input.author ? [{ id: 1, name: input.author, slug: 'autor' }] : [],
      ...(input.image
        ? {
            'wp:featuredmedia': [
              { id: 99, source_url: input.image.src, alt_text: input.image.alt },
            ],
          }
        : {}),
    },
  };
}

export function wpPostFixtures(): WooJson[] {
  return [
    wpPost({
      id: 41,
      slug: 'rueckblick-hafen',
      title: 'R&uuml;ckblick: &#8222;Afterwork im Hafen&#8220;',
      date: '2026-03-02T09:00:00',
      excerpt: '<p>So war der Abend an der Elbe [&hellip;]</p>\n',
      content:
        '<p>Danke an alle!</p><script>track()</script><img src="https://shop.example/a.jpg" onerror="x()" alt="Gäste">',
      image: {
        src: 'https://shop.example/wp-content/uploads/rueckblick.jpg',
        alt: 'Gäste an der Bar',
      },
      author: 'Lena Hoffmann',
    }),
    wpPost({
      id: 42,
      slug: 'tipps',
      title: 'Fünf Tipps',
      date: '2026-04-10T18:00:00',
      content: '<p>Komm früh und stell dich an die Bar.</p>',
    }),
  ];
}

/** `count` simple products, for pagination tests and the benchmark. */
export function manyProducts(count: number, now = new Date()): WooJson[] {
  return Array.from({ length: count }, (_, i) =>
    wooProduct({
      id: 1000 + i,
      name: `Afterwork Nr. ${i + 1}`,
      slug: `afterwork-${i + 1}`,
      price: `${15 + (i % 20)}.90`,
      meta_data: [{ key: 'event_date', value: siteTime(now, (i % 120) - 30) }],
      stock_quantity: 50 + (i % 50),
      short_description: '<p>Networking, Musik und Drinks.</p>',
    }),
  );
}
