import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A WooCommerce + WordPress REST server on loopback that speaks the real wire format
 * (string prices, meta_data arrays, pagination headers, basic auth) and that a test can
 * break on purpose: down, slow or answering garbage.
 */

export type WooMode = 'ok' | 'down' | 'slow' | 'garbage' | 'error';

export interface WooProduct {
  id: number;
  name: string;
  slug: string;
  permalink: string;
  type: 'simple';
  status: 'publish';
  date_created: string;
  date_modified: string;
  price: string;
  regular_price: string;
  sale_price: string;
  on_sale: boolean;
  manage_stock: boolean;
  stock_quantity: number | null;
  stock_status: 'instock' | 'outofstock';
  short_description: string;
  description: string;
  images: { id: number; src: string; alt: string }[];
  categories: { id: number; name: string; slug: string }[];
  meta_data: { id: number; key: string; value: unknown }[];
}

export interface WooCoupon {
  id: number;
  code: string;
  amount: string;
  discount_type: 'percent' | 'fixed_cart' | 'fixed_product';
  date_expires: string | null;
  date_expires_gmt: string | null;
  usage_count: number;
  usage_limit: number | null;
  minimum_amount: string;
  maximum_amount: string;
}

export interface WpPost {
  id: number;
  date: string;
  date_gmt: string;
  slug: string;
  status: 'publish';
  title: { rendered: string };
  content: { rendered: string };
  excerpt: { rendered: string };
  featured_media: number;
  _embedded?: Record<string, unknown>;
}

export interface RecordedOrder {
  id: number;
  body: Record<string, unknown>;
}

export const WOO_KEY = 'ck_' + 'a'.repeat(40);
export const WOO_SECRET = 'cs_' + 'b'.repeat(40);

/** An upcoming event (SPEC §3 `event_date` meta) that sells `stock` tickets. */
export function wooEvent(
  id: number,
  overrides: Partial<WooProduct> & { startsInDays?: number } = {},
): WooProduct {
  const { startsInDays = 14, ...rest } = overrides;
  const day = new Date(Date.now() + startsInDays * 86_400_000);
  const date = day.toISOString().slice(0, 10) + ' 19:00:00';
  return {
    id,
    name: `Testevent ${id}`,
    slug: `testevent-${id}`,
    permalink: `https://shop.example/product/testevent-${id}/`,
    type: 'simple',
    status: 'publish',
    date_created: '2026-01-05T10:00:00',
    date_modified: '2026-01-06T10:00:00',
    price: '19.90',
    regular_price: '19.90',
    sale_price: '',
    on_sale: false,
    manage_stock: true,
    stock_quantity: 100,
    stock_status: 'instock',
    short_description: '<p>Ein Abend zum Kennenlernen.</p>',
    description: '<p>Ein Abend zum Kennenlernen, mit Musik und Getränken.</p>',
    images: [],
    categories: [{ id: 15, name: 'Events', slug: 'events' }],
    meta_data: [
      { id: id * 10 + 1, key: 'event_date', value: date },
      { id: id * 10 + 2, key: 'location', value: 'Hafenklang, Hamburg' },
    ],
    ...rest,
  };
}

export function wooCoupon(code: string, overrides: Partial<WooCoupon> = {}): WooCoupon {
  return {
    id: code.length * 1000 + code.charCodeAt(0),
    code,
    amount: '10.00',
    discount_type: 'percent',
    date_expires: null,
    date_expires_gmt: null,
    usage_count: 0,
    usage_limit: null,
    minimum_amount: '0.00',
    maximum_amount: '0.00',
    ...overrides,
  };
}

export function wpPost(id: number, overrides: Partial<WpPost> = {}): WpPost {
  return {
    id,
    date: '2026-02-01T09:00:00',
    date_gmt: '2026-02-01T08:00:00',
    slug: `beitrag-${id}`,
    status: 'publish',
    title: { rendered: `Beitrag ${id}` },
    content: { rendered: '<p>Inhalt des Beitrags.</p>' },
    excerpt: { rendered: '<p>Kurzfassung.</p>' },
    featured_media: 0,
    _embedded: { author: [{ name: 'Redaktion' }] },
    ...overrides,
  };
}

export class FakeWooCommerce {
  mode: WooMode = 'ok';
  /** Added to every answer in mode "ok" (the real WooCommerce is slow). */
  delayMs = 0;
  /** How long a "slow" answer takes; longer than any sane client timeout. */
  slowMs = 30_000;
  products: WooProduct[];
  coupons: WooCoupon[];
  posts: WpPost[];
  readonly orders: RecordedOrder[] = [];
  readonly calls: { method: string; path: string }[] = [];
  private server: Server | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  url = '';

  constructor(
    data: { products?: WooProduct[]; coupons?: WooCoupon[]; posts?: WpPost[] } = {},
    readonly key = WOO_KEY,
    readonly secret = WOO_SECRET,
  ) {
    this.products = data.products ?? [wooEvent(501), wooEvent(502, { startsInDays: 30 })];
    this.coupons = data.coupons ?? [wooCoupon('SOMMER10')];
    this.posts = data.posts ?? [wpPost(801)];
  }

  /** The environment that points the site at this server. */
  get env(): Record<string, string> {
    return {
      WOOCOMMERCE_URL: this.url,
      WOOCOMMERCE_KEY: this.key,
      WOOCOMMERCE_SECRET: this.secret,
    };
  }

  callsTo(prefix: string): number {
    return this.calls.filter((c) => c.path.startsWith(prefix)).length;
  }

  /** Orders handed off, counted once per order reference the site sent. */
  ordersByReference(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const order of this.orders) {
      const ref = orderReference(order.body);
      counts.set(ref, (counts.get(ref) ?? 0) + 1);
    }
    return counts;
  }

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      void this.handle(req, res).catch(() => res.destroy());
    });
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }

  private wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((r) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        r();
      }, ms);
      this.timers.add(t);
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    this.calls.push({ method: req.method ?? 'GET', path: url.pathname });
    const body = await readBody(req);

    if (this.mode === 'down') {
      // An abrupt reset, as when the host is gone or a proxy drops the connection.
      req.socket.destroy();
      return;
    }
    if (this.mode === 'slow') {
      await this.wait(this.slowMs);
      if (res.destroyed) return;
    }
    if (this.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.end('<!DOCTYPE html><html><body>Fatal error: Allowed memory size exhausted{"id":');
      return;
    }
    if (this.mode === 'error') {
      return json(res, 500, {
        code: 'internal_server_error',
        message: 'Es ist ein kritischer Fehler aufgetreten.',
        data: { status: 500 },
      });
    }
    await this.wait(this.delayMs);
    if (res.destroyed) return;

    // WordPress's own routes (posts) are public; WooCommerce's need the consumer key.
    if (url.pathname.startsWith('/wp-json/wc/') && !this.authorised(req, url)) {
      return json(res, 401, {
        code: 'woocommerce_rest_cannot_view',
        message: 'Sorry, you cannot list resources.',
        data: { status: 401 },
      });
    }

    const path = url.pathname.replace(/\/+$/, '');
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/wp-json/wc/v3/products') {
      const published = this.products.filter((p) => p.status === 'publish');
      return paginated(res, url, published);
    }
    const one = /^\/wp-json\/wc\/v3\/products\/(\d+)$/.exec(path);
    if (method === 'GET' && one) {
      const product = this.products.find((p) => p.id === Number(one[1]));
      if (!product) return notFound(res);
      return json(res, 200, product);
    }
    if (method === 'GET' && path === '/wp-json/wc/v3/coupons') {
      const code = url.searchParams.get('code');
      const found = code
        ? this.coupons.filter((c) => c.code.toLowerCase() === code.toLowerCase())
        : this.coupons;
      return paginated(res, url, found);
    }
    if (method === 'GET' && path === '/wp-json/wp/v2/posts') {
      return paginated(res, url, this.posts);
    }
    if (method === 'GET' && path === '/wp-json/wc/v3/orders') {
      const search = url.searchParams.get('search');
      const all = this.orders.map((o) => ({ id: o.id, ...o.body }));
      const found = search ? all.filter((o) => JSON.stringify(o).includes(search)) : all;
      return paginated(res, url, found);
    }
    if (method === 'POST' && path === '/wp-json/wc/v3/orders') {
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        return json(res, 400, { code: 'rest_invalid_json', message: 'Invalid JSON body passed.' });
      }
      const id = 9000 + this.orders.length + 1;
      this.orders.push({ id, body: parsed });
      return json(res, 201, { id, status: parsed.set_paid ? 'processing' : 'pending', ...parsed });
    }
    return notFound(res);
  }

  private authorised(req: IncomingMessage, url: URL): boolean {
    const header = req.headers.authorization ?? '';
    if (header.startsWith('Basic ')) {
      const [key, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
      return key === this.key && secret === this.secret;
    }
    return (
      url.searchParams.get('consumer_key') === this.key &&
      url.searchParams.get('consumer_secret') === this.secret
    );
  }
}

/** The reference the site gives an order (metadata, transaction id or customer note). */
export function orderReference(body: Record<string, unknown>): string {
  const meta = Array.isArray(body.meta_data)
    ? (body.meta_data as { key?: unknown; value?: unknown }[])
    : [];
  const fromMeta = meta.find((m) => typeof m.value === 'string' && /ord|ref/i.test(String(m.key)));
  if (fromMeta) return String(fromMeta.value);
  if (typeof body.transaction_id === 'string' && body.transaction_id) return body.transaction_id;
  return JSON.stringify(body.line_items ?? body);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks)));
    req.on('error', () => done(Buffer.concat(chunks)));
  });
}

function json(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify(body));
}

function notFound(res: ServerResponse): void {
  json(res, 404, {
    code: 'rest_no_route',
    message: 'No route was found matching the URL and request method.',
    data: { status: 404 },
  });
}

function paginated(res: ServerResponse, url: URL, items: unknown[]): void {
  const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 10) || 10));
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
  const totalPages = Math.max(1, Math.ceil(items.length / perPage));
  json(res, 200, items.slice((page - 1) * perPage, page * perPage), {
    'X-WP-Total': String(items.length),
    'X-WP-TotalPages': String(totalPages),
  });
}
