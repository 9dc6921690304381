import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  edgeCaseShop,
  SHOP_URL,
  wpDate,
  type ShopData,
  type WooCoupon,
  type WooMeta,
  type WooOrder,
  type WooProduct,
  type WooVariation,
  type WpPost,
  type WpUser,
  wordpressUsers,
} from './woocommerce-fixtures.js';

/**
 * One test double of WooCommerce REST v3 + WordPress REST on 127.0.0.1, answering as the
 * recorded WooCommerce 11 shop does (woocommerce-11/README.md): string prices, variable
 * products with their variations, pagination headers and limits, WordPress error bodies,
 * orders that change stock and coupon usage. A test can also break it on purpose: down,
 * slow, answering garbage or errors, failing the next few requests.
 */

/**
 * - `ok`: answers normally
 * - `maintenance`: 503 with WordPress's maintenance page (HTML)
 * - `down`: resets every connection, as a host that is gone
 * - `slow`: answers after `slowMs`, longer than any sane client timeout
 * - `garbage`: 200 with a PHP fatal error where JSON should be
 * - `error`: 500 with WordPress's critical-error JSON
 */
export type WooMode = 'ok' | 'maintenance' | 'down' | 'slow' | 'garbage' | 'error';

export interface FakeWooOptions extends Partial<ShopData> {
  /** WordPress accounts (`/wp-json/wp/v2/users/me`); default: `wordpressUsers()`. */
  users?: WpUser[];
  key?: string;
  secret?: string;
  /** Delay before every answer (the real shop needs 100–800 ms). */
  latencyMs?: number;
  /** The shop's clock: order dates, coupon expiry. */
  now?: () => Date;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Valid WooCommerce credentials (basic auth or consumer_key/consumer_secret). */
  authorized: boolean;
  hasAuthHeader: boolean;
  /** The JSON body as parsed, the raw text if it is not JSON, undefined without one. */
  body: unknown;
}

interface Failure {
  status: number;
  remaining: number;
  pathPrefix: string;
  html: boolean;
  method: string | undefined;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const FAKE_WOO_KEY = 'ck_0123456789abcdef0123456789abcdef01234567';
export const FAKE_WOO_SECRET = 'cs_76543210fedcba9876543210fedcba9876543210';

const WC = '/wp-json/wc/v3';
const WP = '/wp-json/wp/v2';
const API_LINK = `<${SHOP_URL}/wp-json/>; rel="https://api.w.org/"`;
const ALLOW_COLLECTION = 'GET, POST';
const ALLOW_ITEM = 'GET, POST, PUT, PATCH, DELETE';
/** Statuses in which WooCommerce has reduced stock and counted sales and coupon usage. */
const PAID_STATUSES = ['processing', 'completed', 'on-hold'];

export class FakeWooCommerce {
  products: WooProduct[];
  variations: WooVariation[];
  coupons: WooCoupon[];
  posts: WpPost[];
  /** Orders as the shop keeps them, oldest first (drafts are in `drafts`). */
  orders: WooOrder[];
  /** WordPress accounts and their application passwords. */
  users: WpUser[];
  /** `checkout-draft` orders left behind by orders refused for their coupon. */
  readonly drafts: WooOrder[] = [];
  readonly requests: RecordedRequest[] = [];
  mode: WooMode = 'ok';
  latencyMs: number;
  /** How long a `slow` answer takes. */
  slowMs = 30_000;
  readonly key: string;
  readonly secret: string;
  url = '';
  private readonly clock: () => Date;
  private readonly failures: Failure[] = [];
  private halfMadeOrders = 0;
  private readonly slowPaths = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private server: Server | null = null;

  constructor(options: FakeWooOptions = {}) {
    this.clock = options.now ?? (() => new Date());
    const defaults = edgeCaseShop(this.clock());
    this.products = options.products ?? defaults.products;
    this.variations = options.variations ?? defaults.variations;
    this.coupons = options.coupons ?? defaults.coupons;
    this.posts = options.posts ?? defaults.posts;
    this.orders = options.orders ?? defaults.orders;
    this.users = options.users ?? wordpressUsers();
    this.key = options.key ?? FAKE_WOO_KEY;
    this.secret = options.secret ?? FAKE_WOO_SECRET;
    this.latencyMs = options.latencyMs ?? 0;
  }

  /** A fake already listening on a free port. */
  static async start(options: FakeWooOptions = {}): Promise<FakeWooCommerce> {
    const fake = new FakeWooCommerce(options);
    await fake.start();
    return fake;
  }

  async start(port = 0): Promise<string> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (res.headersSent) res.destroy();
        else sendText(res, 500, 'text/plain', String(err));
      });
    });
    // Keep-alive sockets would hold stop() open.
    server.keepAliveTimeout = 1_000;
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The environment that points the site at this server. */
  get env(): Record<string, string> {
    return {
      WOOCOMMERCE_URL: this.url,
      WOOCOMMERCE_KEY: this.key,
      WOOCOMMERCE_SECRET: this.secret,
    };
  }

  /** The next `count` requests under `pathPrefix` fail with `status` (HTML body if asked). */
  failNext(count: number, status = 503, pathPrefix = '/', html = false, method?: string): void {
    this.failures.push({ status, remaining: count, pathPrefix, html, method });
  }

  /**
   * The next `count` orders posted are stored and then the shop fails, as with a plugin's
   * fatal error in the `woocommerce_new_order` hook (observed on a real shop): the order
   * row stays `pending` with total 0.00, no line items, no stock taken, no coupon counted,
   * but with the `meta_data` sent (the site's reference included); the answer is 500
   * "There has been a critical error on this website."
   */
  storeOrderThenFail(count = 1): void {
    this.halfMadeOrders += count;
  }

  /** Requests under `pathPrefix` wait `ms` more before answering. */
  slow(pathPrefix: string, ms: number): void {
    this.slowPaths.set(pathPrefix, ms);
  }

  /**
   * A call to the fake's `/wp-json/wc/v3` as the site makes it (basic auth, JSON): its
   * status and parsed body, for specs that hold the fake to the recordings.
   */
  async rest(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
    const res = await fetch(`${this.url}/wp-json/wc/v3${path}`, {
      method,
      headers: {
        authorization: 'Basic ' + Buffer.from(`${this.key}:${this.secret}`).toString('base64'),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: res.status,
      headers: res.headers,
      body: (await res.json()) as Record<string, unknown>,
    };
  }

  /** Requests so far whose path starts with `path` (a string) or matches it (a RegExp). */
  calls(path: string | RegExp = '/', method?: string): number {
    return this.requests.filter(
      (r) =>
        (typeof path === 'string' ? r.path.startsWith(path) : path.test(r.path)) &&
        (method === undefined || r.method === method),
    ).length;
  }

  resetCalls(): void {
    this.requests.length = 0;
  }

  /** The variations of a variable product as the shop renders them. */
  variationsOf(productId: number): WooVariation[] {
    const parent = this.products.find((p) => p.id === productId);
    return this.variations
      .filter((v) => v.parent_id === productId)
      .map((v) => (parent ? this.renderVariation(v, parent) : v));
  }

  private wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const text = await readBody(req);
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      authorized: this.authorized(req, url),
      hasAuthHeader: req.headers.authorization !== undefined,
      body: text === '' ? undefined : parseJson(text),
    };
    this.requests.push(record);

    if (this.mode === 'down') {
      req.socket.destroy();
      return;
    }
    let delay = this.latencyMs + (this.mode === 'slow' ? this.slowMs : 0);
    for (const [prefix, ms] of this.slowPaths) if (url.pathname.startsWith(prefix)) delay += ms;
    await this.wait(delay);
    if (res.destroyed) return;

    if (this.mode === 'maintenance') return sendText(res, 503, 'text/html', MAINTENANCE_HTML);
    if (this.mode === 'garbage') return sendText(res, 200, JSON_TYPE, GARBAGE);
    if (this.mode === 'error') {
      return sendJson(res, {
        status: 500,
        body: {
          code: 'internal_server_error',
          message: '<p>Es gab einen kritischen Fehler auf deiner Website.</p>',
          data: { status: 500 },
        },
      });
    }
    const failure = this.failures.find(
      (f) =>
        f.remaining > 0 &&
        url.pathname.startsWith(f.pathPrefix) &&
        (f.method === undefined || f.method === method),
    );
    if (failure) {
      failure.remaining--;
      if (failure.html) return sendText(res, failure.status, 'text/html', CRITICAL_ERROR_HTML);
      return sendJson(res, {
        status: failure.status,
        body: {
          code: 'internal_server_error',
          message: '<p>Es gab einen kritischen Fehler auf deiner Website.</p>',
          data: { status: failure.status },
        },
      });
    }

    // Outside the REST API WordPress answers with its theme's 404 page.
    if (!url.pathname.startsWith('/wp-json/')) {
      return sendText(res, 404, 'text/html', NOT_FOUND_HTML);
    }
    const path = url.pathname.replace(/\/+$/, '');
    if (method === 'GET' && path === `${WP}/users/me`) {
      return sendJson(res, this.currentUser(req, url));
    }
    if (path.startsWith('/wp-json/wc/')) {
      const refused = this.authError(req, url, method);
      if (refused) return sendJson(res, refused);
    }
    sendJson(res, this.write(method, path, url, record.body));
  }

  private route(method: string, path: string, url: URL, body: unknown): Answer {
    const q = url.searchParams;
    if (method === 'GET' && path === `${WC}/products`) {
      const status = q.get('status') ?? 'any';
      const listed = this.products
        .filter((p) =>
          status === 'any' ? p.status !== 'trash' : (p.status ?? 'publish') === status,
        )
        .map((p) => this.renderProduct(p));
      return this.page(path, q, listed, 'empty', ALLOW_COLLECTION);
    }
    let m = /^\/wp-json\/wc\/v3\/products\/(\d+)$/.exec(path);
    if (method === 'GET' && m) {
      const product = this.products.find((p) => p.id === Number(m![1]));
      if (!product) return invalidId('woocommerce_rest_product_invalid_id', ALLOW_ITEM);
      return { status: 200, body: this.renderProduct(product), headers: apiHeaders(ALLOW_ITEM) };
    }
    m = /^\/wp-json\/wc\/v3\/products\/(\d+)\/variations$/.exec(path);
    if (method === 'GET' && m) {
      // Variations newest first, as the shop lists them (ids descending within a date).
      const variations = this.variationsOf(Number(m[1])).sort(newestFirst);
      return this.page(path, q, variations, 'empty', ALLOW_COLLECTION);
    }
    m = /^\/wp-json\/wc\/v3\/products\/(\d+)\/variations\/(\d+)$/.exec(path);
    if (method === 'GET' && m) {
      const variation = this.variationsOf(Number(m[1])).find((v) => v.id === Number(m![2]));
      if (!variation) return invalidId('woocommerce_rest_product_variation_invalid_id', ALLOW_ITEM);
      return { status: 200, body: variation, headers: apiHeaders(ALLOW_ITEM) };
    }
    if (method === 'GET' && path === `${WC}/coupons`) {
      // WooCommerce looks the code up exactly (wc_get_coupon_id_by_code); codes are stored
      // lower-case, so any spelling finds the coupon.
      const code = q.get('code');
      const found = code
        ? this.coupons.filter((c) => c.code.toLowerCase() === formatCouponCode(code))
        : this.coupons;
      return this.page(path, q, found, 'empty', ALLOW_COLLECTION);
    }
    if (method === 'GET' && path === `${WC}/orders`) {
      const listed = this.listOrders(q);
      if (!Array.isArray(listed)) return listed;
      return this.page(path, q, listed, 'empty', ALLOW_COLLECTION);
    }
    m = /^\/wp-json\/wc\/v3\/orders\/(\d+)$/.exec(path);
    if (method === 'GET' && m) {
      const order = [...this.orders, ...this.drafts].find((o) => o.id === Number(m![1]));
      if (!order) return invalidId('woocommerce_rest_shop_order_invalid_id', ALLOW_ITEM);
      return { status: 200, body: order, headers: apiHeaders(ALLOW_ITEM) };
    }
    if (method === 'POST' && path === `${WC}/orders`) return this.createOrder(body);
    if (method === 'DELETE' && m) return this.deleteOrder(Number(m[1]), q);
    // WordPress routes POST and PATCH of an item like PUT.
    if (['PUT', 'POST', 'PATCH'].includes(method) && m && isRecord(body) && 'status' in body) {
      const changed = this.updateOrderStatus(Number(m[1]), body.status);
      if (changed.status !== 200 || !Array.isArray(body.line_items)) return changed;
    }
    if (method === 'PUT' && m) return this.updateOrderLines(Number(m[1]), body);
    m = /^\/wp-json\/wc\/v3\/orders\/(\d+)\/refunds$/.exec(path);
    if (m && (method === 'GET' || method === 'POST')) {
      const order = this.orders.find((o) => o.id === Number(m![1]));
      if (!order) return invalidId('woocommerce_rest_shop_order_invalid_id', ALLOW_COLLECTION);
      if (method === 'GET') {
        return this.page(
          path,
          q,
          [...this.refundsOf(order.id)].reverse(),
          'empty',
          ALLOW_COLLECTION,
        );
      }
      return this.createRefund(order, body);
    }
    if (method === 'GET' && path === `${WP}/posts`) {
      const status = q.get('status') ?? 'publish';
      const posts = this.posts
        .filter((p) => (p.status ?? 'publish') === status)
        .map((p) => embedded(p, q.get('_embed')));
      return this.page(path, q, posts, 'error', 'GET');
    }
    return {
      status: 404,
      body: {
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      },
      headers: { Link: API_LINK },
    };
  }

  // ------------------------------------------------------------ order changes and webhooks

  /** Webhooks as the organizer sets them up (WooCommerce → Einstellungen → Erweitert → Webhooks). */
  readonly webhooks: FakeWebhook[] = [];
  /** Every delivery attempted (the ping included), oldest first. */
  readonly deliveries: FakeDelivery[] = [];
  /** WooCommerce sends a delivery this long after the change (the real one: about 45 s, on WP-Cron). */
  webhookDelayMs = 20;
  private lostDeliveries = 0;
  /** One pending delivery per webhook and order, its body built when it is sent. */
  private readonly pendingDeliveries = new Set<string>();
  private readonly sending = new Set<Promise<void>>();

  /**
   * A webhook for `topic` (`order.created`, `order.updated`, `order.deleted`,
   * `order.restored`) to `deliveryUrl`, signed with `secret`; WooCommerce pings the URL
   * when the webhook is saved (form-encoded `webhook_id=N`, no signature).
   */
  async addWebhook(hook: {
    topic: string;
    deliveryUrl: string;
    secret: string;
  }): Promise<FakeWebhook> {
    const webhook: FakeWebhook = {
      id: this.webhooks.length + 1,
      ...hook,
      status: 'active',
      failures: 0,
    };
    this.webhooks.push(webhook);
    await this.post(webhook, 'ping', `webhook_id=${webhook.id}`, {
      'User-Agent': USER_AGENT,
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    return webhook;
  }

  /** The next `count` deliveries never arrive (WP-Cron did not run, the site was unreachable). */
  loseDeliveries(count: number): void {
    this.lostDeliveries += count;
  }

  /** Waits until every delivery due has been sent and answered. */
  async settleWebhooks(timeoutMs = 10_000): Promise<void> {
    const start = Date.now();
    while (this.pendingDeliveries.size > 0 || this.sending.size > 0) {
      if (Date.now() - start > timeoutMs) throw new Error('webhook deliveries did not settle');
      await Promise.all([...this.sending]);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /**
   * An order made in the shop itself, as the organizer enters a phone sale or a guest list
   * in the admin (`created_via: admin`): `POST /orders` with the same body, and its
   * webhooks. Throws what the shop refuses.
   */
  placeOrder(body: Record<string, unknown>): WooOrder {
    const path = `${WC}/orders`;
    const answer = this.write('POST', path, new URL(path, 'http://fake'), body);
    if (answer.status !== 201)
      throw new Error(`the shop refused the order: ${JSON.stringify(answer.body)}`);
    const order = answer.body as WooOrder;
    order.created_via = 'admin';
    return order;
  }

  /** The organizer sets an order's status in the admin (`PUT /orders/{id}` `{status}`). */
  setOrderStatus(id: number, status: string): WooOrder {
    const path = `${WC}/orders/${id}`;
    const answer = this.write('PUT', path, new URL(path, 'http://fake'), { status });
    if (answer.status !== 200)
      throw new Error(`the shop refused the status: ${JSON.stringify(answer.body)}`);
    return answer.body as WooOrder;
  }

  /**
   * The organizer refunds lines in the admin ("Erstatten", restock ticked or not), as
   * recorded in `orders.third.line-refund.*`: `POST /orders/{id}/refunds` with the lines,
   * and the `order.updated` delivery it triggers.
   */
  refundLines(
    id: number,
    lines: { id: number; quantity: number; refundTotal: number }[],
    options: { restock?: boolean; reason?: string } = {},
  ): Record<string, unknown> {
    const path = `${WC}/orders/${id}/refunds`;
    const amount = lines.reduce((sum, l) => sum + l.refundTotal, 0);
    const answer = this.write('POST', path, new URL(path, 'http://fake'), {
      amount: amount.toFixed(2),
      reason: options.reason ?? 'Erstattung im Shop',
      api_refund: false,
      restock_items: options.restock ?? true,
      line_items: lines.map((l) => ({
        id: l.id,
        quantity: l.quantity,
        refund_total: l.refundTotal,
      })),
    });
    if (answer.status !== 201)
      throw new Error(`the shop refused the refund: ${JSON.stringify(answer.body)}`);
    return answer.body as Record<string, unknown>;
  }

  /** The organizer trashes an order (or deletes it for good with `force`). */
  trashOrder(id: number, force = false): void {
    const path = `${WC}/orders/${id}`;
    const url = new URL(`${path}${force ? '?force=true' : ''}`, 'http://fake');
    const answer = this.write('DELETE', path, url, undefined);
    if (answer.status !== 200) throw new Error(`no order ${id}`);
  }

  /** A request that may change an order, then the webhooks it triggers. */
  private write(method: string, path: string, url: URL, body: unknown): Answer {
    const answer = this.route(method, path, url, body);
    this.announce(method, path, answer);
    return answer;
  }

  /**
   * Which webhooks a change fires, as WooCommerce 11 does (recorded): a new order (also the
   * draft a refused coupon leaves) `order.created` and `order.updated`; a change or a
   * refund `order.updated`; trash or deletion `order.deleted`.
   */
  private announce(method: string, path: string, answer: Answer): void {
    const body = isRecord(answer.body) ? answer.body : {};
    if (method === 'POST' && path === `${WC}/orders`) {
      const draft = isRecord(body.data) ? Number(body.data.new_draft_order_id) : NaN;
      const id = answer.status === 201 ? Number(body.id) : draft;
      if (Number.isInteger(id) && id > 0) {
        this.queueDelivery('order.created', id);
        this.queueDelivery('order.updated', id);
      }
      return;
    }
    if (answer.status >= 300) return;
    let m = /^\/wp-json\/wc\/v3\/orders\/(\d+)$/.exec(path);
    if (m && method === 'DELETE') return this.queueDelivery('order.deleted', Number(m[1]));
    if (m && method !== 'GET') return this.queueDelivery('order.updated', Number(m[1]));
    m = /^\/wp-json\/wc\/v3\/orders\/(\d+)\/refunds$/.exec(path);
    if (m && method === 'POST') this.queueDelivery('order.updated', Number(m[1]));
  }

  private queueDelivery(topic: string, orderId: number): void {
    for (const hook of this.webhooks) {
      if (hook.topic !== topic || hook.status !== 'active') continue;
      const key = `${hook.id}:${orderId}`;
      if (this.pendingDeliveries.has(key)) continue;
      this.pendingDeliveries.add(key);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.pendingDeliveries.delete(key);
        const sent = this.deliver(hook, orderId).finally(() => this.sending.delete(sent));
        this.sending.add(sent);
      }, this.webhookDelayMs);
      this.timers.add(timer);
    }
  }

  /**
   * The body is the order (or the product or variation) as it is now (`{"id": N}` once
   * deleted), as PHP's json_encode writes it.
   */
  private async deliver(hook: FakeWebhook, orderId: number): Promise<void> {
    const [resource, event] = hook.topic.split('.') as [string, string];
    const found =
      resource === 'product'
        ? (this.variations.find((v) => v.id === orderId) ??
          this.products.find((p) => p.id === orderId))
        : [...this.orders, ...this.drafts].find((o) => o.id === orderId);
    const body = event === 'deleted' ? { id: orderId } : found;
    if (!body) return;
    const rawBody = phpJson(body);
    if (this.lostDeliveries > 0) {
      this.lostDeliveries -= 1;
      this.deliveries.push({ webhookId: hook.id, topic: hook.topic, rawBody, status: 'lost' });
      return;
    }
    const seconds = Math.floor(this.clock().getTime() / 1000);
    await this.post(hook, hook.topic, rawBody, {
      'User-Agent': USER_AGENT,
      'Content-Type': 'application/json',
      'X-WC-Webhook-Source': `${SHOP_URL}/`,
      'X-WC-Webhook-Topic': hook.topic,
      'X-WC-Webhook-Resource': resource,
      'X-WC-Webhook-Event': event,
      'X-WC-Webhook-Signature': createHmac('sha256', hook.secret)
        .update(Buffer.from(rawBody, 'utf8'))
        .digest('base64'),
      'X-WC-Webhook-ID': String(hook.id),
      // wp_hash of the webhook's id and the second it is sent: two deliveries may share it.
      'X-WC-Webhook-Delivery-ID': createHash('md5').update(`${hook.id}${seconds}`).digest('hex'),
    });
  }

  /** After five failed deliveries in a row WooCommerce disables the webhook. */
  private async post(
    hook: FakeWebhook,
    topic: string,
    rawBody: string,
    headers: Record<string, string>,
  ): Promise<void> {
    const delivery: FakeDelivery = { webhookId: hook.id, topic, rawBody, status: null, headers };
    this.deliveries.push(delivery);
    try {
      const res = await fetch(hook.deliveryUrl, {
        method: 'POST',
        headers,
        body: rawBody,
        redirect: 'manual',
        signal: AbortSignal.timeout(5_000),
      });
      delivery.status = res.status;
      await res.text();
    } catch {
      delivery.status = null;
    }
    const ok =
      typeof delivery.status === 'number' && delivery.status >= 200 && delivery.status < 300;
    hook.failures = ok ? 0 : hook.failures + 1;
    if (hook.failures > 5) hook.status = 'disabled';
  }

  /**
   * `PUT /orders/{id}` with a `status`, and what WooCommerce does with it (recorded:
   * `orders.34.put-cancelled`, `orders.35.put-refunded`, `coupons.code-EINMALIG.after-cancel`):
   * into a paid status the stock is reduced (`_reduced_stock` on each line) and the
   * coupons' use counted; cancelled (or back to pending) the reduced stock comes back and
   * the use is given back; refunded, a refund of what is left ("Order fully refunded.",
   * no restock); completed, `date_completed`.
   */
  private updateOrderStatus(id: number, requested: unknown): Answer {
    const order = this.orders.find((o) => o.id === id);
    if (!order) return invalidId('woocommerce_rest_shop_order_invalid_id', ALLOW_ITEM);
    if (typeof requested !== 'string' || !ORDER_STATUSES.includes(requested)) {
      const message = `status is not one of ${ORDER_STATUSES.slice(0, -1).join(', ')}, and ${ORDER_STATUSES.at(-1)}.`;
      return {
        status: 400,
        body: {
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): status',
          data: {
            status: 400,
            params: { status: message },
            details: { status: { code: 'rest_not_in_enum', message, data: null } },
          },
        },
        headers: apiHeaders(ALLOW_ITEM),
      };
    }
    const now = this.clock();
    const from = order.status;
    if (requested !== from) {
      const wasPaid = PAID_STATUSES.includes(from);
      order.status = requested;
      if (PAID_STATUSES.includes(requested) && !wasPaid) {
        for (const item of order.line_items) this.reduceItemStock(item, now);
        for (const used of order.coupon_lines) this.countCouponUse(order, String(used.code), 1);
        if (!order.date_paid)
          Object.assign(order, { date_paid: wpDate(now).local, date_paid_gmt: wpDate(now).gmt });
      }
      if (requested === 'cancelled' || requested === 'pending') {
        for (const item of order.line_items) this.restockItem(item, now);
        if (wasPaid)
          for (const used of order.coupon_lines) this.countCouponUse(order, String(used.code), -1);
      }
      if (requested === 'refunded') {
        const refunded = this.refundsOf(id).reduce((sum, r) => sum + cents(r.amount), 0);
        const left = cents(order.total) - refunded;
        if (left > 0) {
          this.createRefund(order, {
            amount: money(left),
            reason: 'Order fully refunded.',
            api_refund: false,
          });
        }
        order.status = 'refunded';
      }
      if (requested === 'completed') {
        Object.assign(order, {
          date_completed: wpDate(now).local,
          date_completed_gmt: wpDate(now).gmt,
        });
      }
      const paid =
        PAID_STATUSES.includes(order.status) || ['completed', 'refunded'].includes(order.status);
      order.is_editable = ['pending', 'on-hold', 'auto-draft', 'checkout-draft'].includes(
        order.status,
      );
      order.needs_payment =
        !paid && cents(order.total) > 0 && ['pending', 'failed'].includes(order.status);
      touch(order, now);
    }
    return { status: 200, body: order, headers: apiHeaders(ALLOW_ITEM) };
  }

  /** wc_reduce_stock_levels for one line, once (its `_reduced_stock` meta says it was). */
  private reduceItemStock(item: Record<string, unknown>, now: Date): void {
    const meta = Array.isArray(item.meta_data) ? (item.meta_data as { key?: unknown }[]) : [];
    if (meta.some((m) => m.key === '_reduced_stock')) return;
    const quantity = Number(item.quantity) || 0;
    const productId = Number(item.product_id) || 0;
    const variationId = Number(item.variation_id) || 0;
    this.restock(productId, variationId, -quantity, now);
    const product = this.products.find((p) => p.id === productId);
    if (product) product.total_sales = (Number(product.total_sales) || 0) + quantity;
    const q = String(quantity);
    item.meta_data = [
      ...meta,
      itemMeta(this.nextMetaId(), '_reduced_stock', q, '_reduced_stock', q),
    ];
  }

  /** wc_increase_stock_levels for one line whose stock was reduced; the meta goes. */
  private restockItem(item: Record<string, unknown>, now: Date): void {
    const meta = Array.isArray(item.meta_data)
      ? (item.meta_data as { key?: unknown; value?: unknown }[])
      : [];
    const reduced = meta.find((m) => m.key === '_reduced_stock');
    if (!reduced) return;
    this.restock(
      Number(item.product_id) || 0,
      Number(item.variation_id) || 0,
      Number(reduced.value) || 0,
      now,
    );
    item.meta_data = meta.filter((m) => m !== reduced);
  }

  private countCouponUse(order: WooOrder, code: string, delta: 1 | -1): void {
    const coupon = this.coupons.find((c) => c.code.toLowerCase() === formatCouponCode(code));
    if (!coupon) return;
    const billing = isRecord(order.billing) ? order.billing : {};
    const email = typeof billing.email === 'string' ? billing.email : '';
    coupon.usage_count = Math.max(0, coupon.usage_count + delta);
    if (!email) return;
    if (delta > 0) coupon.used_by = [...coupon.used_by, email];
    else {
      const at = coupon.used_by.lastIndexOf(email);
      if (at >= 0) coupon.used_by = coupon.used_by.filter((_, i) => i !== at);
    }
  }

  // ------------------------------------------------------------ auth

  private authorized(req: IncomingMessage, url: URL): boolean {
    const [key, secret] = credentials(req, url);
    return key === this.key && secret === this.secret;
  }

  /** WooCommerce's 401s: wrong key, wrong secret, or no credentials at all. */
  private authError(req: IncomingMessage, url: URL, method: string): Answer | null {
    const [key, secret] = credentials(req, url);
    if (key === this.key && secret === this.secret) return null;
    let code: string;
    let message: string;
    if (key === undefined) {
      // Not recorded (the shop was asked with keys only): WooCommerce's permission check
      // for a visitor without credentials.
      code = method === 'POST' ? 'woocommerce_rest_cannot_create' : 'woocommerce_rest_cannot_view';
      message =
        method === 'POST'
          ? 'Sorry, you are not allowed to create resources.'
          : 'Sorry, you cannot list resources.';
    } else {
      code = 'woocommerce_rest_authentication_error';
      message = key === this.key ? 'Consumer secret is invalid.' : 'Consumer key is invalid.';
    }
    return {
      status: 401,
      body: { code, message, data: { status: 401 } },
      headers: { Link: API_LINK },
    };
  }

  /**
   * `GET /wp-json/wp/v2/users/me` with HTTP Basic auth of a user name (or e-mail address)
   * and an application password, as WordPress answers it (wp_authenticate_application_password,
   * rest_application_password_check_errors): unknown name or address and a wrong password
   * each with their 401 code, no credentials `rest_not_logged_in`; spaces in the password do
   * not count. `context=edit` adds the roles, capabilities and e-mail address.
   */
  private currentUser(req: IncomingMessage, url: URL): Answer {
    const header = req.headers.authorization ?? '';
    const fail = (code: string, message: string): Answer => ({
      status: 401,
      body: { code, message, data: { status: 401 } },
      headers: { Link: API_LINK },
    });
    if (!header.startsWith('Basic ')) {
      return fail('rest_not_logged_in', 'You are not currently logged in.');
    }
    const [login = '', password = ''] = credentials(req, url);
    const byEmail = login.includes('@');
    const user = this.users.find((u) => u.username === login || (byEmail && u.email === login));
    if (!user) {
      return byEmail
        ? fail(
            'invalid_email',
            '<strong>Error</strong>: Unknown email address. Check again or try your username.',
          )
        : fail(
            'invalid_username',
            '<strong>Error</strong>: Unknown username. Check again or try your email address.',
          );
    }
    const typed = password.replace(/[^a-z\d]/gi, '');
    if (!user.applicationPasswords.some((p) => p.replace(/[^a-z\d]/gi, '') === typed)) {
      return fail(
        'incorrect_password',
        'The provided password is an invalid application password.',
      );
    }
    const view = {
      id: user.id,
      name: user.name,
      url: '',
      description: '',
      link: `${SHOP_URL}/author/${user.username.replace(/\W+/g, '-')}/`,
      slug: user.username.replace(/\W+/g, '-'),
      avatar_urls: {
        '24': `https://secure.gravatar.com/avatar/${user.id}?s=24&d=mm&r=g`,
        '48': `https://secure.gravatar.com/avatar/${user.id}?s=48&d=mm&r=g`,
        '96': `https://secure.gravatar.com/avatar/${user.id}?s=96&d=mm&r=g`,
      },
      meta: { persisted_preferences: [] },
    };
    const edit =
      url.searchParams.get('context') === 'edit'
        ? {
            username: user.username,
            first_name: user.first_name,
            last_name: user.last_name,
            email: user.email,
            locale: 'de_DE',
            nickname: user.username,
            roles: user.roles,
            registered_date: user.registered_date,
            capabilities: user.capabilities,
            extra_capabilities: Object.fromEntries(user.roles.map((r) => [r, true])),
          }
        : {};
    return {
      status: 200,
      body: {
        ...view,
        ...edit,
        _links: {
          self: [{ href: `${SHOP_URL}/wp-json/wp/v2/users/${user.id}` }],
          collection: [{ href: `${SHOP_URL}/wp-json/wp/v2/users` }],
        },
      },
      headers: apiHeaders('GET, POST, PUT, PATCH, DELETE'),
    };
  }

  // ------------------------------------------------------------ pagination

  /**
   * WordPress pagination as recorded: `per_page` 1–100 (else 400), `X-WP-Total`,
   * `X-WP-TotalPages`, `Link` with rel="prev"/"next" on the canonical host. Past the end
   * WooCommerce answers `[]`, WordPress's posts route 400.
   */
  private page(
    path: string,
    q: URLSearchParams,
    items: unknown[],
    pastEnd: 'empty' | 'error',
    allow: string,
  ): Answer {
    const perPage = integerParam(q, 'per_page', 10);
    const page = integerParam(q, 'page', 1);
    if (perPage === null || perPage < 1 || perPage > 100) {
      return invalidParam('per_page', 'per_page must be between 1 (inclusive) and 100 (inclusive)');
    }
    if (page === null || page < 1) {
      return invalidParam('page', 'page must be greater than or equal to 1');
    }
    const total = items.length;
    const totalPages = Math.ceil(total / perPage);
    if (pastEnd === 'error' && page > totalPages && total > 0) {
      return {
        status: 400,
        body: {
          code: 'rest_post_invalid_page_number',
          message: 'The page number requested is larger than the number of pages available.',
          data: { status: 400 },
        },
        headers: { Link: API_LINK, Allow: allow },
      };
    }
    const link = (n: number) => {
      const query = new URLSearchParams(q);
      query.set('page', String(n));
      return `${SHOP_URL}${path}?${query.toString()}`;
    };
    const links: string[] = [];
    if (page > 1) links.push(`<${link(Math.min(page - 1, totalPages))}>; rel="prev"`);
    if (totalPages > page) links.push(`<${link(page + 1)}>; rel="next"`);
    return {
      status: 200,
      body: items.slice((page - 1) * perPage, page * perPage),
      headers: {
        'X-WP-Total': String(total),
        'X-WP-TotalPages': String(totalPages),
        // As recorded: the pagination links replace the API discovery link.
        Link: links.length > 0 ? links.join(', ') : API_LINK,
        Allow: allow,
      },
    };
  }

  // ------------------------------------------------------------ rendering

  /**
   * A variable parent as WooCommerce's product sync keeps it: price = the lowest
   * variation price, on sale when a variation is, in stock when a variation is.
   */
  private renderProduct(product: WooProduct): WooProduct {
    if (product.type !== 'variable') return product;
    const children = this.variations
      .filter((v) => v.parent_id === product.id)
      .map((v) => this.renderVariation(v, product));
    const visible = children.filter((v) => v.status === 'publish');
    const prices = visible.map((v) => v.price).filter((p) => p !== '');
    const lowest = prices.sort((a, b) => Number(a) - Number(b))[0] ?? '';
    const stockStatus = product.manage_stock
      ? product.stock_status
      : visible.some((v) => v.stock_status === 'instock')
        ? 'instock'
        : visible.some((v) => v.stock_status === 'onbackorder')
          ? 'onbackorder'
          : 'outofstock';
    return {
      ...product,
      price: lowest,
      on_sale: visible.some((v) => v.on_sale),
      variations: [...children]
        .sort((a, b) => Number(a.menu_order ?? 0) - Number(b.menu_order ?? 0) || a.id - b.id)
        .map((v) => v.id),
      stock_status: stockStatus,
    };
  }

  /** A variation with `manage_stock: "parent"` shows the parent's stock. */
  private renderVariation(variation: WooVariation, parent: WooProduct): WooVariation {
    if (variation.manage_stock !== 'parent') return variation;
    return {
      ...variation,
      stock_quantity: parent.stock_quantity,
      stock_status: parent.stock_status,
    };
  }

  /**
   * `GET /orders`: `status` (default `any`, which leaves out the trash; a list separated
   * by commas), `after`/`before` on the creation date, `modified_after`/`modified_before`
   * on the last change as WordPress compares them (WP_Date_Query: a value is converted to
   * the site's time unless it is one already, then compared, exclusively, with the local
   * column, or the `_gmt` one with `dates_are_gmt=true`), `orderby` `date`, `id` or
   * `modified`, `order` (default `desc`). A malformed date is WordPress's 400.
   */
  private listOrders(q: URLSearchParams): WooOrder[] | Answer {
    const after = q.get('after') ? Date.parse(q.get('after')!) : null;
    const before = q.get('before') ? Date.parse(q.get('before')!) : null;
    const modified: Record<string, string | null> = {};
    for (const name of ['modified_after', 'modified_before']) {
      const value = q.get(name);
      if (value === null) continue;
      const local = siteLocal(value);
      if (local === null) return invalidDate(name);
      modified[name] = local;
    }
    const gmt = q.get('dates_are_gmt') === 'true' || q.get('dates_are_gmt') === '1';
    const changedAt = (o: WooOrder) =>
      String((gmt ? o.date_modified_gmt : o.date_modified) ?? '').replace(' ', 'T');
    const status = q.get('status') ?? 'any';
    const wanted = status.split(',').map((s) => s.trim());
    const at = (o: WooOrder) => Date.parse(`${o.date_created_gmt}Z`);
    const list = this.orders.filter(
      (o) =>
        (after === null || Number.isNaN(after) || at(o) > after) &&
        (before === null || Number.isNaN(before) || at(o) < before) &&
        (!modified.modified_after || changedAt(o) > modified.modified_after) &&
        (!modified.modified_before || changedAt(o) < modified.modified_before) &&
        (wanted.includes('any') ? o.status !== 'trash' : wanted.includes(o.status)),
    );
    const direction = q.get('order') === 'asc' ? 1 : -1;
    const orderby = q.get('orderby') ?? 'date';
    const key = (o: WooOrder): string | number =>
      orderby === 'modified'
        ? String(o.date_modified_gmt ?? '')
        : orderby === 'id'
          ? o.id
          : String(o.date_created_gmt ?? '');
    return list.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return (x < y ? -1 : x > y ? 1 : a.id - b.id) * direction;
    });
  }

  // ------------------------------------------------------------ orders

  /**
   * `POST /wc/v3/orders` as recorded: line names "Parent - Option" for variations, the
   * coupon spread over the lines, stock (product or variation) and `total_sales` reduced,
   * coupon usage counted; stock is not enforced (it may go negative). A coupon that is
   * unknown, expired, used up or below its minimum gives 400 and leaves a draft order.
   */
  private createOrder(body: unknown): Answer {
    if (!isRecord(body)) {
      return {
        status: 400,
        body: {
          code: 'rest_invalid_json',
          message: 'Invalid JSON body passed.',
          data: { status: 400 },
        },
        headers: { Link: API_LINK },
      };
    }
    const now = this.clock();
    const id = this.nextPostId();
    if (this.halfMadeOrders > 0) {
      this.halfMadeOrders -= 1;
      const shell = this.orderRecord(id, { ...body, line_items: [] }, [], [], 'pending', now);
      this.orders.push(shell);
      return {
        status: 500,
        body: {
          code: 'internal_server_error',
          message:
            '<p>There has been a critical error on this website.</p><p><a href="https://wordpress.org/documentation/article/faq-troubleshooting/">Learn more about troubleshooting WordPress.</a></p>',
          data: { status: 500 },
          additional_errors: [],
        },
        headers: { Link: API_LINK },
      };
    }
    const lines = (Array.isArray(body.line_items) ? body.line_items : [])
      .filter(isRecord)
      .map((posted) => this.orderLine(posted));
    const billing = isRecord(body.billing) ? body.billing : {};
    const email = typeof billing.email === 'string' ? billing.email : '';

    const coupons: WooCoupon[] = [];
    for (const posted of Array.isArray(body.coupon_lines) ? body.coupon_lines : []) {
      if (!isRecord(posted) || typeof posted.code !== 'string' || posted.code === '') continue;
      const code = formatCouponCode(posted.code);
      const coupon = this.coupons.find((c) => c.code.toLowerCase() === code);
      const problem = couponProblem(coupon, code, lines, email, now);
      if (problem || !coupon) {
        this.drafts.push(this.orderRecord(id, body, lines, [], 'checkout-draft', now));
        return {
          status: 400,
          body: {
            code: 'woocommerce_rest_invalid_coupon',
            message: problem,
            data: { status: 400, new_draft_order_id: id },
          },
          headers: apiHeaders(ALLOW_COLLECTION),
        };
      }
      coupons.push(coupon);
    }
    // WC_Abstract_Order::recalculate_coupons: with coupons, every line's total starts again
    // from its subtotal (a posted total is overwritten) and each coupon is applied in turn;
    // without, the lines keep the totals posted.
    if (coupons.length > 0) for (const line of lines) line.total = line.subtotal;
    const couponLines = coupons.map((coupon) => ({ coupon, discount: applyCoupon(coupon, lines) }));

    const requested = typeof body.status === 'string' ? body.status : 'pending';
    const status =
      body.set_paid === true && ['pending', 'on-hold', 'failed', 'cancelled'].includes(requested)
        ? 'processing'
        : requested;
    const paid = PAID_STATUSES.includes(status);
    if (paid) {
      for (const line of lines) this.reduceStock(line, now);
      for (const coupon of coupons) {
        coupon.usage_count += 1;
        if (email) coupon.used_by = [...coupon.used_by, email];
      }
    }
    const order = this.orderRecord(id, body, lines, couponLines, status, now);
    this.orders.push(order);
    return {
      status: 201,
      body: order,
      headers: {
        Link: API_LINK,
        Location: `${SHOP_URL}${WC}/orders/${id}`,
        Allow: ALLOW_COLLECTION,
      },
    };
  }

  /**
   * `PUT /orders/{id}` with `line_items: [{id, subtotal?, total?}]` (the fields of an order
   * this fake changes): the lines take the amounts given and the order's totals follow
   * (WC_Abstract_Order::calculate_totals); the coupons are not applied again, as the REST
   * API does not without `coupon_lines`.
   */
  private updateOrderLines(id: number, body: unknown): Answer {
    const order = this.orders.find((o) => o.id === id);
    if (!order) return invalidId('woocommerce_rest_shop_order_invalid_id', ALLOW_ITEM);
    const posted = isRecord(body) && Array.isArray(body.line_items) ? body.line_items : [];
    for (const item of posted.filter(isRecord)) {
      const line = order.line_items.find((l) => l.id === Number(item.id));
      if (!line) continue;
      for (const field of ['subtotal', 'total'] as const) {
        const value = item[field];
        if (typeof value === 'string' && Number.isFinite(Number(value))) {
          line[field] = money(cents(value));
        }
      }
      const quantity = Number(line.quantity) || 0;
      line.price = quantity ? cents(line.total) / 100 / quantity : 0;
    }
    const total = order.line_items.reduce((sum, l) => sum + cents(l.total), 0);
    const subtotal = order.line_items.reduce((sum, l) => sum + cents(l.subtotal), 0);
    order.total = money(total);
    order.discount_total = money(subtotal - total);
    touch(order, this.clock());
    return { status: 200, body: order, headers: apiHeaders(ALLOW_ITEM) };
  }

  /** Refunds created through `POST /orders/{id}/refunds`, by order id, oldest first. */
  readonly refunds = new Map<number, Record<string, unknown>[]>();

  refundsOf(orderId: number): Record<string, unknown>[] {
    return this.refunds.get(orderId) ?? [];
  }

  /**
   * `DELETE /orders/{id}`: with `force=true` the order (or draft) is gone; without, it goes
   * to the trash (status `trash`, stock not restored: `orders.third.trash`). Either way the
   * answer is the order as it was before (recorded: the trashed order still `processing`).
   */
  private deleteOrder(id: number, q: URLSearchParams): Answer {
    const list = this.orders.some((o) => o.id === id) ? this.orders : this.drafts;
    const index = list.findIndex((o) => o.id === id);
    if (index < 0) return invalidId('woocommerce_rest_shop_order_invalid_id', ALLOW_ITEM);
    const order = list[index]!;
    const before = structuredClone(order);
    if (q.get('force') === 'true') list.splice(index, 1);
    else {
      order.status = 'trash';
      touch(order, this.clock());
    }
    return { status: 200, body: before, headers: apiHeaders(ALLOW_ITEM) };
  }

  /**
   * `POST /orders/{id}/refunds` as recorded (`orders.32.refunds.create`): 201 with the
   * refund (`refunded_payment: false` for `api_refund: false`); refunded in full, the
   * order becomes `refunded`. Stock comes back only for `line_items` with a quantity and
   * `restock_items: true`; without line items it does not (recorded).
   */
  private createRefund(order: WooOrder, body: unknown): Answer {
    const posted = isRecord(body) ? body : {};
    const now = this.clock();
    const date = wpDate(now);
    const amount = Number.parseFloat(String(posted.amount ?? '0'));
    // WC_REST_Order_Refunds_Controller and wc_create_refund: a negative amount is the REST
    // API's 400; more than is left to refund, wc_create_refund's exception as a 500.
    if (!(amount >= 0)) {
      return {
        status: 400,
        body: {
          code: 'woocommerce_rest_invalid_order_refund',
          message: 'Refund amount must be greater than zero.',
          data: { status: 400 },
        },
        headers: apiHeaders(ALLOW_COLLECTION),
      };
    }
    const refundedBefore = this.refundsOf(order.id).reduce((sum, r) => sum + cents(r.amount), 0);
    if (Math.round(amount * 100) > cents(order.total) - refundedBefore) {
      return {
        status: 500,
        body: {
          code: 'woocommerce_rest_cannot_create_order_refund',
          message: 'Invalid refund amount.',
          data: { status: 500 },
        },
        headers: apiHeaders(ALLOW_COLLECTION),
      };
    }
    const id = this.nextPostId();
    const lineItems: Record<string, unknown>[] = [];
    for (const item of Array.isArray(posted.line_items) ? posted.line_items : []) {
      if (!isRecord(item)) continue;
      const line = order.line_items.find((l) => l.id === Number(item.id));
      if (!line) continue;
      const quantity = Number(item.quantity) || 0;
      const total = Number.parseFloat(String(item.refund_total ?? '0')) || 0;
      lineItems.push({
        id: this.nextItemId(),
        name: line.name,
        product_id: line.product_id,
        variation_id: line.variation_id,
        quantity: -quantity,
        subtotal: money(-Math.round(total * 100)),
        total: money(-Math.round(total * 100)),
        meta_data: [{ id: this.nextItemId(), key: '_refunded_item_id', value: String(line.id) }],
      });
      if (posted.restock_items === true && quantity > 0) this.restockRefunded(line, quantity, now);
    }
    const before = this.refundsOf(order.id).reduce((sum, r) => sum + Number(r.amount), 0);
    const full = Math.round((before + amount) * 100) >= Math.round(Number(order.total) * 100);
    const meta = (Array.isArray(posted.meta_data) ? posted.meta_data : [])
      .filter(isRecord)
      .map((m) => ({ id: this.nextItemId(), key: String(m.key), value: m.value }));
    const refund: Record<string, unknown> = {
      id,
      date_created: date.local,
      date_created_gmt: date.gmt,
      amount: amount.toFixed(2),
      reason: typeof posted.reason === 'string' ? posted.reason : '',
      refunded_by: 1,
      refunded_payment: false,
      meta_data: [
        ...meta,
        { id: this.nextItemId(), key: '_refund_type', value: full ? 'full' : 'partial' },
      ],
      line_items: lineItems,
      shipping_lines: [],
      tax_lines: [],
      fee_lines: [],
      _links: {
        self: [{ href: `${SHOP_URL}${WC}/orders/${order.id}/refunds/${id}` }],
        collection: [{ href: `${SHOP_URL}${WC}/orders/${order.id}/refunds` }],
        up: [{ href: `${SHOP_URL}${WC}/orders/${order.id}` }],
      },
    };
    this.refunds.set(order.id, [...this.refundsOf(order.id), refund]);
    order.refunds = [
      { id, reason: refund.reason, total: `-${amount.toFixed(2)}` },
      ...(Array.isArray(order.refunds) ? order.refunds : []),
    ];
    if (full) order.status = 'refunded';
    touch(order, now);
    return {
      status: 201,
      body: refund,
      headers: {
        Link: API_LINK,
        // Literally so (recorded): WooCommerce fills in no id.
        Location: `${SHOP_URL}${WC}/orders/(?P<order_id>[\\d]+)/refunds/${id}`,
        Allow: ALLOW_COLLECTION,
      },
    };
  }

  /**
   * wc_restock_refunded_items for one line (recorded: `orders.third.line-refund.*`): only a
   * line whose stock was reduced (`_reduced_stock` not 0) goes back, by the refunded
   * quantity; `_reduced_stock` goes down by it and `_restock_refunded_items` up. An order
   * set to `refunded` keeps its `_reduced_stock`, so a later line refund with restock still
   * puts its places back; a cancelled one has none left.
   */
  private restockRefunded(line: Record<string, unknown>, quantity: number, now: Date): void {
    const meta = Array.isArray(line.meta_data)
      ? (line.meta_data as { id?: unknown; key?: unknown; value?: unknown }[])
      : [];
    const reduced = meta.find((m) => m.key === '_reduced_stock');
    if (!reduced || !(Number(reduced.value) > 0)) return;
    this.restock(Number(line.product_id) || 0, Number(line.variation_id) || 0, quantity, now);
    const left = String(Number(reduced.value) - quantity);
    Object.assign(reduced, { value: left, display_value: left });
    const tally = meta.find((m) => m.key === '_restock_refunded_items');
    if (tally) {
      const sum = String((Number(tally.value) || 0) + quantity);
      Object.assign(tally, { value: sum, display_value: sum });
    } else {
      const q = String(quantity);
      line.meta_data = [
        ...meta,
        itemMeta(this.nextMetaId(), '_restock_refunded_items', q, '_restock_refunded_items', q),
      ];
    }
  }

  private restock(productId: number, variationId: number, quantity: number, now: Date): void {
    const product = this.products.find((p) => p.id === productId);
    const variation = variationId ? this.variations.find((v) => v.id === variationId) : undefined;
    const holder =
      variation && variation.manage_stock === true
        ? variation
        : (!variation || variation.manage_stock === 'parent') && product?.manage_stock === true
          ? product
          : undefined;
    if (!holder || holder.stock_quantity === null) return;
    holder.stock_quantity += quantity;
    holder.stock_status = holder.stock_quantity > 0 ? 'instock' : 'outofstock';
    touch(holder, now);
    // Observed: a stock change is delivered as `product.updated` of the product or variation.
    this.queueDelivery('product.updated', holder.id);
  }

  /** WordPress hands out one id sequence for products, coupons, posts and orders. */
  private nextPostId(): number {
    const ids = [
      ...this.products,
      ...this.variations,
      ...this.coupons,
      ...this.posts,
      ...this.orders,
      ...this.drafts,
    ].map((x) => (typeof x.id === 'number' ? x.id : 0));
    return Math.max(0, ...ids) + 1;
  }

  private orderLine(posted: Record<string, unknown>): OrderLine {
    const productId = Number(posted.product_id) || 0;
    const variationId = Number(posted.variation_id) || 0;
    const asked = Number(posted.quantity);
    const quantity = Number.isInteger(asked) && asked > 0 ? asked : 1;
    const variation = variationId ? this.variations.find((v) => v.id === variationId) : undefined;
    const parentId = variation ? variation.parent_id : productId;
    const product = this.products.find((p) => p.id === parentId);
    // Not recorded: an unknown product gives a line without name or price, as WooCommerce
    // creates a line item even when it cannot find the product.
    const rendered = product ? this.renderProduct(product) : undefined;
    const unit = cents((variation ?? rendered)?.price);
    // WC_REST_Orders_V2_Controller::prepare_line_items: the product's price × quantity,
    // unless the request names the line's `subtotal` or `total` (strings, as WooCommerce
    // renders them).
    const given = (value: unknown) =>
      typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
        ? cents(value)
        : null;
    return {
      product,
      variation,
      productId: product ? product.id : productId,
      variationId: variation ? variation.id : 0,
      quantity,
      subtotal: given(posted.subtotal) ?? unit * quantity,
      total: given(posted.total) ?? unit * quantity,
    };
  }

  private reduceStock(line: OrderLine, now: Date): void {
    const { product, variation } = line;
    if (product) {
      product.total_sales = (Number(product.total_sales) || 0) + line.quantity;
      touch(product, now);
    }
    const holder =
      variation && variation.manage_stock === true
        ? variation
        : (!variation || variation.manage_stock === 'parent') && product?.manage_stock === true
          ? product
          : undefined;
    if (!holder || holder.stock_quantity === null) return;
    // WooCommerce does not refuse a paid order for missing stock: the count goes negative.
    holder.stock_quantity -= line.quantity;
    holder.stock_status = holder.stock_quantity > 0 ? 'instock' : 'outofstock';
    this.queueDelivery('product.updated', holder.id);
    line.reducedStock = true;
    touch(holder, now);
  }

  private orderRecord(
    id: number,
    body: Record<string, unknown>,
    lines: OrderLine[],
    couponLines: { coupon: WooCoupon; discount: number }[],
    status: string,
    now: Date,
  ): WooOrder {
    const date = wpDate(now);
    // A draft left behind by a refused coupon is not paid, whatever the request said.
    const paid = body.set_paid === true && PAID_STATUSES.includes(status);
    const orderKey = `wc_order_${randomBytes(16).toString('base64url').replace(/[-_]/g, '').slice(0, 13)}`;
    let itemId = this.nextItemId();
    let metaId = this.nextMetaId();
    // WC_Abstract_Order::calculate_totals: the order's total is its lines' totals, its
    // discount what they lost against their subtotals.
    const total = lines.reduce((sum, l) => sum + l.total, 0);
    const discount = lines.reduce((sum, l) => sum + l.subtotal - l.total, 0);
    const str = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : '');
    const lineItems = lines.map((line) => {
      const { product, variation } = line;
      const meta: Record<string, unknown>[] = [];
      if (variation) {
        for (const a of variation.attributes) {
          meta.push(itemMeta(metaId++, a.slug, a.option, a.name, a.option));
        }
      }
      if (line.reducedStock) {
        const q = String(line.quantity);
        meta.push(itemMeta(metaId++, '_reduced_stock', q, '_reduced_stock', q));
      }
      const image = (variation?.image ?? product?.images?.[0]) as {
        id?: number;
        src?: string;
      } | null;
      const lineTotal = line.total;
      return {
        id: itemId++,
        name: variation
          ? `${product?.name ?? ''} - ${variation.attributes.map((a) => a.option).join(', ')}`
          : (product?.name ?? ''),
        product_id: line.productId,
        variation_id: line.variationId,
        quantity: line.quantity,
        tax_class: '',
        subtotal: money(line.subtotal),
        subtotal_tax: '0.00',
        total: money(lineTotal),
        total_tax: '0.00',
        taxes: [],
        meta_data: meta,
        sku: String((variation ?? product)?.sku ?? ''),
        global_unique_id: '',
        price: line.quantity ? lineTotal / 100 / line.quantity : 0,
        // As recorded: the image id is a string when there is an image, 0 otherwise.
        image: image?.src ? { id: String(image.id), src: image.src } : { id: 0, src: '' },
        parent_name: variation ? (product?.name ?? null) : null,
      };
    });
    const coupons = couponLines.map(({ coupon, discount: amount }) => {
      const nominal = Number(coupon.amount) || 0;
      const info = JSON.stringify([
        coupon.id,
        coupon.code,
        coupon.discount_type === 'fixed_cart' ? null : coupon.discount_type,
        nominal,
      ]);
      return {
        id: itemId++,
        code: coupon.code,
        discount: String(amount / 100),
        discount_tax: '0',
        meta_data: [itemMeta(metaId++, 'coupon_info', info, 'coupon_info', info)],
        discount_type: coupon.discount_type,
        nominal_amount: nominal,
        free_shipping: coupon.free_shipping === true,
      };
    });
    const address = {
      first_name: '',
      last_name: '',
      company: '',
      address_1: '',
      address_2: '',
      city: '',
      state: '',
      postcode: '',
      country: '',
    };
    const orderMeta = (Array.isArray(body.meta_data) ? body.meta_data : [])
      .filter(isRecord)
      .map((m): WooMeta => ({ id: metaId++, key: String(m.key), value: m.value }));
    const editable = ['pending', 'on-hold', 'auto-draft', 'checkout-draft'].includes(status);
    return {
      id,
      parent_id: 0,
      status,
      currency: str('currency') || 'EUR',
      version: '11.0.1',
      prices_include_tax: false,
      date_created: date.local,
      date_modified: date.local,
      discount_total: money(discount),
      discount_tax: '0.00',
      shipping_total: '0.00',
      shipping_tax: '0.00',
      cart_tax: '0.00',
      total: money(total),
      total_tax: '0.00',
      customer_id: Number(body.customer_id) || 0,
      order_key: orderKey,
      billing: {
        ...address,
        email: '',
        phone: '',
        ...(isRecord(body.billing) ? body.billing : {}),
      },
      shipping: { ...address, phone: '', ...(isRecord(body.shipping) ? body.shipping : {}) },
      payment_method: str('payment_method'),
      payment_method_title: str('payment_method_title'),
      transaction_id: str('transaction_id'),
      customer_ip_address: '',
      customer_user_agent: '',
      created_via: 'rest-api',
      customer_note: str('customer_note'),
      date_completed: null,
      date_paid: paid ? date.local : null,
      cart_hash: '',
      number: String(id),
      meta_data: orderMeta,
      line_items: lineItems,
      tax_lines: [],
      shipping_lines: [],
      fee_lines: [],
      coupon_lines: coupons,
      refunds: [],
      payment_url: `${SHOP_URL}/checkout/order-pay/${id}/?pay_for_order=true&key=${orderKey}`,
      is_editable: editable,
      needs_payment: !paid && total > 0,
      needs_processing: true,
      date_created_gmt: date.gmt,
      date_modified_gmt: date.gmt,
      date_completed_gmt: null,
      date_paid_gmt: paid ? date.gmt : null,
      currency_symbol: '€',
      _links: {
        self: [
          { href: `${SHOP_URL}${WC}/orders/${id}`, targetHints: { allow: ALLOW_ITEM.split(', ') } },
        ],
        collection: [{ href: `${SHOP_URL}${WC}/orders` }],
        email_templates: [
          { embeddable: true, href: `${SHOP_URL}${WC}/orders/${id}/actions/email_templates` },
        ],
      },
    };
  }

  /** Order items (lines, coupons) share one id sequence across orders. */
  private nextItemId(): number {
    const ids = [...this.orders, ...this.drafts].flatMap((o) =>
      [...o.line_items, ...o.coupon_lines].map((i) => Number(i.id) || 0),
    );
    return Math.max(0, ...ids) + 1;
  }

  private nextMetaId(): number {
    const ids = [...this.orders, ...this.drafts].flatMap((o) => [
      ...o.meta_data.map((m) => m.id),
      ...[...o.line_items, ...o.coupon_lines].flatMap((i) =>
        Array.isArray(i.meta_data)
          ? i.meta_data.map((m: { id?: unknown }) => Number(m.id) || 0)
          : [],
      ),
    ]);
    return Math.max(0, ...ids) + 1;
  }
}

interface OrderLine {
  product: WooProduct | undefined;
  variation: WooVariation | undefined;
  productId: number;
  variationId: number;
  quantity: number;
  /** Integer cents, before the coupons. */
  subtotal: number;
  /** Integer cents, after the coupons. */
  total: number;
  reducedStock?: boolean;
}

// ---------------------------------------------------------------- coupons

/** wc_format_coupon_code: trimmed, lower case. */
function formatCouponCode(code: string): string {
  return code.trim().toLowerCase();
}

/** WooCommerce's product coupon types (wc_get_product_coupon_types); the rest are cart types. */
const PRODUCT_COUPON_TYPES = ['percent', 'fixed_product'];

const ids = (value: unknown): number[] =>
  Array.isArray(value) ? value.map(Number).filter((n) => Number.isInteger(n) && n > 0) : [];

/** The line's product and its parent, as WooCommerce compares them with a coupon's ids. */
function productIdsOf(line: OrderLine): number[] {
  return line.variationId ? [line.variationId, line.productId] : [line.productId];
}

/** A variation counts in its parent's categories. */
function categoriesOf(line: OrderLine): number[] {
  return (line.product?.categories ?? []).map((c) => c.id);
}

function onSale(line: OrderLine): boolean {
  return (line.variation ?? line.product)?.on_sale === true;
}

const meets = (a: readonly number[], b: readonly number[]) => a.some((x) => b.includes(x));

/** WC_Coupon::is_valid_for_product: which lines a product coupon discounts. */
function validForProduct(coupon: WooCoupon, line: OrderLine): boolean {
  if (!PRODUCT_COUPON_TYPES.includes(coupon.discount_type)) return false;
  const productIds = ids(coupon.product_ids);
  const categories = ids(coupon.product_categories);
  let valid =
    (productIds.length > 0 && meets(productIdsOf(line), productIds)) ||
    (categories.length > 0 && meets(categoriesOf(line), categories)) ||
    (productIds.length === 0 && categories.length === 0);
  if (meets(productIdsOf(line), ids(coupon.excluded_product_ids))) valid = false;
  if (meets(categoriesOf(line), ids(coupon.excluded_product_categories))) valid = false;
  if (coupon.exclude_sale_items === true && onSale(line)) valid = false;
  return valid;
}

/** WC_Cart::is_coupon_emails_allowed: exact, or with `*` standing for anything. */
function emailAllowed(email: string, restrictions: readonly string[]): boolean {
  const address = email.trim().toLowerCase();
  return restrictions.some((raw) => {
    const pattern = raw
      .trim()
      .toLowerCase()
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${pattern}$`).test(address);
  });
}

/**
 * WooCommerce's checks when an order applies a coupon (WC_Discounts::is_coupon_valid, then
 * the address rules), in its order, with WooCommerce 11's messages as recorded: escaped by
 * esc_html__, so quotes arrive as `&quot;`. The spend limits read the lines' subtotals.
 */
function couponProblem(
  coupon: WooCoupon | undefined,
  code: string,
  lines: readonly OrderLine[],
  email: string,
  now: Date,
): string | null {
  const quoted = `&quot;${escapeHtml(code)}&quot;`;
  if (!coupon) return `Coupon ${quoted} cannot be applied because it does not exist.`;
  if (
    coupon.usage_limit !== null &&
    coupon.usage_limit > 0 &&
    coupon.usage_count >= coupon.usage_limit
  ) {
    return `Usage limit for coupon ${quoted} has been reached.`;
  }
  const expires = coupon.date_expires_gmt ?? coupon.date_expires;
  if (expires && Date.parse(`${expires}Z`) < now.getTime()) {
    return `Coupon ${quoted} has expired.`;
  }
  const subtotal = lines.reduce((sum, l) => sum + l.subtotal, 0);
  const minimum = cents(coupon.minimum_amount);
  if (minimum > 0 && subtotal < minimum) {
    return `The minimum spend for coupon ${quoted} is ${wcPrice(minimum)}.`;
  }
  const maximum = cents(coupon.maximum_amount);
  if (maximum > 0 && subtotal > maximum) {
    return `The maximum spend for coupon ${quoted} is ${wcPrice(maximum)}.`;
  }
  const notApplicable = `Sorry, coupon ${quoted} is not applicable to selected products.`;
  const productIds = ids(coupon.product_ids);
  if (productIds.length > 0 && !lines.some((l) => meets(productIdsOf(l), productIds))) {
    return notApplicable;
  }
  const categories = ids(coupon.product_categories);
  if (
    categories.length > 0 &&
    !lines.some(
      (l) =>
        !(coupon.exclude_sale_items === true && onSale(l)) && meets(categoriesOf(l), categories),
    )
  ) {
    return notApplicable;
  }
  if (PRODUCT_COUPON_TYPES.includes(coupon.discount_type)) {
    if (lines.length > 0 && !lines.some((l) => validForProduct(coupon, l))) return notApplicable;
  } else {
    // A cart coupon: one line it may not discount refuses the whole coupon.
    if (coupon.exclude_sale_items === true && lines.some(onSale)) {
      return `Sorry, coupon ${quoted} is not valid for sale items.`;
    }
    const excluded = lines.filter(
      (l) =>
        meets(productIdsOf(l), ids(coupon.excluded_product_ids)) ||
        meets(categoriesOf(l), ids(coupon.excluded_product_categories)),
    );
    if (excluded.length > 0) {
      const names = excluded.map((l) => escapeHtml(l.product?.name ?? ''));
      return `Sorry, coupon ${quoted} is not applicable to the products: ${names.join(', ')}.`;
    }
  }
  const restrictions = Array.isArray(coupon.email_restrictions)
    ? coupon.email_restrictions.map(String)
    : [];
  if (restrictions.length > 0 && !emailAllowed(email, restrictions)) {
    return `Please enter a valid email at checkout to use coupon code ${quoted}.`;
  }
  const perUser = Number(coupon.usage_limit_per_user) || 0;
  if (perUser > 0 && email) {
    const address = email.trim().toLowerCase();
    const used = coupon.used_by.filter((u) => u.trim().toLowerCase() === address).length;
    if (used >= perUser) return `Usage limit for coupon ${quoted} has been reached.`;
  }
  return null;
}

/** One line as WC_Discounts works on it: cents, and what it has left after the coupons so far. */
interface DiscountItem {
  line: OrderLine;
  /** The line's subtotal (WooCommerce's `$item->price`: the line, not the unit). */
  price: number;
  quantity: number;
}

/**
 * WC_Discounts::apply_coupon for one coupon on an order's lines (discounts not sequential,
 * WooCommerce's default): the lines it may discount, sorted by subtotal × quantity, highest
 * first (PHP's stable uasort); percent floored per line with the missing cents one unit at
 * a time, `fixed_product` per unit, `fixed_cart` evenly per unit and what is left again;
 * `limit_usage_to_x_items` units at most; never more than a line has left. Written from
 * WooCommerce's code apart from the site's own port (`couponLineDiscounts` in machines),
 * so that a hand-off whose lines or totals disagree with the shop shows here. Lowers each
 * line's `total`; returns the cents the coupon took.
 */
function applyCoupon(coupon: WooCoupon, lines: OrderLine[]): number {
  const left = (item: DiscountItem) => Math.max(0, item.line.total);
  const items: DiscountItem[] = lines
    .map((line) => ({ line, price: line.subtotal, quantity: line.quantity }))
    .sort((a, b) => b.price * b.quantity - a.price * a.quantity)
    .filter(
      (item) =>
        left(item) > 0 &&
        item.quantity > 0 &&
        (validForProduct(coupon, item.line) ||
          !PRODUCT_COUPON_TYPES.includes(coupon.discount_type)),
    );
  const limit = Number(coupon.limit_usage_to_x_items) || 0;
  const amount = Number(coupon.amount) || 0;
  const give = (item: DiscountItem, cents: number) => {
    item.line.total -= cents;
    return cents;
  };
  const remainder = (targets: DiscountItem[], cents: number): number => {
    let given = 0;
    for (const item of targets) {
      for (let i = 0; i < item.quantity; i++) {
        given += give(item, Math.min(left(item), 1));
        if (given >= cents) return given;
      }
    }
    return given;
  };
  const fixedProduct = (targets: DiscountItem[], each: number): number => {
    let given = 0;
    let applied = 0;
    for (const item of targets) {
      let discount: number;
      let quantity: number;
      if (limit) {
        quantity = Math.max(0, limit - applied < item.quantity ? limit - applied : item.quantity);
        discount = Math.min(each, item.price / item.quantity) * quantity;
      } else {
        quantity = item.quantity;
        discount = each * quantity;
      }
      given += give(item, Math.min(left(item), discount));
      applied += quantity;
    }
    return given;
  };
  const fixedCart = (cents: number): number => {
    const targets = items.filter((item) => left(item) > 0);
    const count = targets.reduce((sum, item) => sum + item.quantity, 0);
    if (count === 0 || cents <= 0) return 0;
    const each = Math.floor(cents / count);
    if (each === 0) return remainder(targets, cents);
    const given = fixedProduct(targets, each);
    return given > 0 && given < cents ? given + fixedCart(cents - given) : given;
  };
  if (coupon.discount_type === 'percent') {
    let given = 0;
    let base = 0;
    let applied = 0;
    for (const item of items) {
      const quantity = Math.max(
        0,
        limit && limit - applied < item.quantity ? limit - applied : item.quantity,
      );
      const price = (Math.round(item.price) / item.quantity) * quantity;
      given += give(item, Math.round(Math.min(left(item), Math.floor(price * (amount / 100)))));
      base += price;
      applied += quantity;
    }
    const whole = Math.round(base * (amount / 100));
    return given < whole ? given + remainder(items, whole - given) : given;
  }
  if (coupon.discount_type === 'fixed_product')
    return fixedProduct(items, Math.round(amount * 100));
  return fixedCart(Math.round(amount * 100));
}

/** wc_price in the recorded shop's format (€ before the amount, German decimal comma). */
function wcPrice(centsValue: number): string {
  const amount = (centsValue / 100).toFixed(2).replace('.', ',');
  return `<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">&euro;</span>${amount}</bdi></span>`;
}

// ---------------------------------------------------------------- helpers

const JSON_TYPE = 'application/json; charset=UTF-8';
const MAINTENANCE_HTML =
  '<!DOCTYPE html><html><head><title>Wartungsmodus</title></head><body><p>Briefly unavailable for scheduled maintenance. Check back in a minute.</p></body></html>';
const CRITICAL_ERROR_HTML =
  '<!DOCTYPE html><html><body><p>There has been a critical error on this website.</p></body></html>';
const NOT_FOUND_HTML =
  '<!DOCTYPE html><html><head><title>Seite nicht gefunden</title></head><body><h1>Oops! Die Seite wurde nicht gefunden.</h1></body></html>';
const GARBAGE = '<!DOCTYPE html><html><body>Fatal error: Allowed memory size exhausted{"id":';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function cents(price: unknown): number {
  const n = typeof price === 'string' || typeof price === 'number' ? Number(price) : NaN;
  return Number.isFinite(n) && price !== '' ? Math.round(n * 100) : 0;
}

const money = (centsValue: number) => (centsValue / 100).toFixed(2);

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}

function itemMeta(
  id: number,
  key: string,
  value: string,
  displayKey: string,
  displayValue: string,
) {
  return { id, key, value, display_key: displayKey, display_value: displayValue };
}

function touch(item: { [field: string]: unknown }, now: Date): void {
  const date = wpDate(now);
  item.date_modified = date.local;
  item.date_modified_gmt = date.gmt;
}

const newestFirst = (a: WooVariation, b: WooVariation) =>
  String(b.date_created ?? '').localeCompare(String(a.date_created ?? '')) || b.id - a.id;

/** `_embed` keeps the embedded resources asked for (all for `_embed=1`); none without it. */
function embedded(post: WpPost, embed: string | null): WpPost {
  const { _embedded, ...rest } = post;
  if (embed === null || !_embedded) return rest;
  if (['', '1', 'true'].includes(embed)) return { ...rest, _embedded };
  const wanted = embed.split(',').map((s) => s.trim());
  return {
    ...rest,
    _embedded: Object.fromEntries(
      Object.entries(_embedded).filter(([rel]) => wanted.includes(rel)),
    ),
  };
}

function credentials(req: IncomingMessage, url: URL): [string | undefined, string | undefined] {
  const header = req.headers.authorization ?? '';
  if (header.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon < 0 ? [decoded, ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
  }
  const key = url.searchParams.get('consumer_key');
  return key === null
    ? [undefined, undefined]
    : [key, url.searchParams.get('consumer_secret') ?? ''];
}

function integerParam(q: URLSearchParams, name: string, fallback: number): number | null {
  const raw = q.get(name);
  if (raw === null) return fallback;
  return /^\d+$/.test(raw.trim()) ? Number(raw) : null;
}

function apiHeaders(allow: string): Record<string, string> {
  return { Link: API_LINK, Allow: allow };
}

function invalidId(code: string, allow: string): Answer {
  return {
    status: 404,
    body: { code, message: 'Invalid ID.', data: { status: 404 } },
    headers: apiHeaders(allow),
  };
}

/** WordPress's argument validation (recorded for per_page=101). */
function invalidParam(name: string, message: string): Answer {
  return {
    status: 400,
    body: {
      code: 'rest_invalid_param',
      message: `Invalid parameter(s): ${name}`,
      data: {
        status: 400,
        params: { [name]: message },
        details: { [name]: { code: 'rest_out_of_bounds', message, data: null } },
      },
    },
    headers: apiHeaders(ALLOW_COLLECTION),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function sendJson(res: ServerResponse, answer: Answer): void {
  if (res.destroyed) return;
  res.writeHead(answer.status, { 'Content-Type': JSON_TYPE, ...answer.headers });
  res.end(JSON.stringify(answer.body));
}

function sendText(res: ServerResponse, status: number, type: string, text: string): void {
  if (res.destroyed) return;
  res.writeHead(status, {
    'Content-Type': type.includes('charset') ? type : `${type}; charset=UTF-8`,
  });
  res.end(text);
}

// ---------------------------------------------------------------- webhooks

/** A webhook of the fake shop (WooCommerce's `wc_webhooks` row, the fields that matter here). */
export interface FakeWebhook {
  id: number;
  topic: string;
  deliveryUrl: string;
  secret: string;
  status: 'active' | 'disabled';
  /** Failed deliveries in a row. */
  failures: number;
}

export interface FakeDelivery {
  webhookId: number;
  /** `ping` for the ping. */
  topic: string;
  rawBody: string;
  headers?: Record<string, string>;
  /** The site's HTTP status; null: no answer; `lost`: never sent (loseDeliveries). */
  status: number | null | 'lost';
}

const USER_AGENT = 'WooCommerce/11.0.1 Hookshot (WordPress/7.1)';

/** The statuses `PUT /orders/{id}` accepts (WooCommerce 11's enum). */
const ORDER_STATUSES = [
  'pending',
  'processing',
  'on-hold',
  'completed',
  'cancelled',
  'refunded',
  'failed',
  'checkout-draft',
];

/** PHP's json_encode as WooCommerce signs it: slashes and every non-ASCII character escaped. */
export function phpJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** rest_parse_date's form of an RFC 3339 date-time. */
const REST_DATE =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * A `date-time` parameter as the site's local wall clock, "YYYY-MM-DDTHH:MM:SS" (what
 * WP_Date_Query compares); null when WordPress refuses the value.
 */
function siteLocal(value: string): string | null {
  const m = REST_DATE.exec(value.trim());
  if (!m) return null;
  if (!m[8]) return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
  const at = new Date(value.trim().replace(' ', 'T'));
  return Number.isNaN(at.getTime()) ? null : wpDate(at).local;
}

function invalidDate(name: string): Answer {
  return {
    status: 400,
    body: {
      code: 'rest_invalid_param',
      message: `Invalid parameter(s): ${name}`,
      data: {
        status: 400,
        params: { [name]: 'Invalid date.' },
        details: { [name]: { code: 'rest_invalid_date', message: 'Invalid date.', data: null } },
      },
    },
    headers: apiHeaders(ALLOW_COLLECTION),
  };
}
