import { Logger } from '@nestjs/common';
import type { WooCommerceConfig } from '../../config/config.js';
import { backoffDelay } from '../../jobs/backoff.js';
import { CatalogError } from '../catalog.errors.js';
import {
  CatalogPort,
  type CatalogCoupon,
  type CatalogPost,
  type CatalogProduct,
  type OrderHandOff,
  STRIPE_PAYMENT,
} from '../catalog.port.js';
import {
  normalizeCoupon,
  normalizePost,
  normalizeProduct,
  normalizeVariation,
  sortVariations,
  withParentStock,
} from './woocommerce.normalize.js';

export interface WooCommerceAdapterOptions {
  /** Per HTTP call; WooCommerce often needs hundreds of ms, sometimes seconds. */
  timeoutMs?: number;
  /** Extra attempts for GETs after a timeout, network error, 429 or 5xx. */
  retries?: number;
  /** First backoff; doubles per attempt up to `maxBackoffMs`, less jitter (jobs/backoff.ts). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Upper bound on pages followed (100 products each). */
  maxPages?: number;
  fetch?: typeof fetch;
}

/** The reference travels as order meta so a retried hand-off finds the first order. */
export const ORDER_REFERENCE_META_KEY = 'awhh_reference';
/** Marks a test-mode order in the admin's custom fields, beside its payment title. */
export const TEST_MODE_META_KEY = 'awhh_test_mode';
const PAGE_CONCURRENCY = 4;

interface WooResponse {
  data: unknown;
  headers: Headers;
}

/**
 * Catalog port over WooCommerce REST v3 and WordPress REST (docs/architecture.md, "Ports
 * and adapters"), with plain `fetch`: the old official JS client is unmaintained.
 */
export class WooCommerceCatalogAdapter extends CatalogPort {
  readonly name = 'woocommerce';
  private readonly logger = new Logger('WooCommerce');
  private readonly base: string;
  private readonly authorization: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxPages: number;
  private readonly fetchFn: typeof fetch;

  constructor(config: WooCommerceConfig, options: WooCommerceAdapterOptions = {}) {
    super();
    this.base = config.url.replace(/\/+$/, '');
    // WooCommerce accepts the consumer key and secret as HTTP basic auth over HTTPS.
    this.authorization =
      'Basic ' + Buffer.from(`${config.key}:${config.secret}`, 'utf8').toString('base64');
    this.timeoutMs = options.timeoutMs ?? 8_000;
    this.retries = options.retries ?? 2;
    this.backoffMs = options.backoffMs ?? 300;
    this.maxBackoffMs = options.maxBackoffMs ?? 5_000;
    this.maxPages = options.maxPages ?? 50;
    this.fetchFn = options.fetch ?? fetch;
  }

  /**
   * Every published product, and for each variable one its variations (rules
   * "Everything the shop sells"): one list, so the catalog cache keeps products and
   * variations of the same moment together.
   */
  async listProducts(): Promise<CatalogProduct[]> {
    const raw = await this.getAllPages('wc/v3/products', { status: 'publish', per_page: '100' });
    const products: CatalogProduct[] = [];
    const rawById = new Map<number, unknown>();
    let skipped = 0;
    for (const entry of raw) {
      const product = normalizeProduct(entry);
      if (product) {
        products.push(product);
        rawById.set(product.id, entry);
      } else skipped++;
    }
    if (skipped > 0) this.logger.warn({ msg: 'skipped malformed products', count: skipped });
    const variable = products.filter((p) => p.type === 'variable');
    for (let i = 0; i < variable.length; i += PAGE_CONCURRENCY) {
      await Promise.all(
        variable.slice(i, i + PAGE_CONCURRENCY).map(async (product) => {
          const variations = await this.listVariations(product.id);
          product.variants = withParentStock(
            product,
            sortVariations(rawById.get(product.id), variations),
          );
        }),
      );
    }
    return products;
  }

  private async listVariations(productId: number) {
    const path = `wc/v3/products/${productId}/variations`;
    const raw = await this.getAllPages(path, { per_page: '100' });
    const variations = raw.map(normalizeVariation).filter((v) => v !== null);
    if (variations.length < raw.length) {
      this.logger.warn({
        msg: 'skipped malformed variations',
        productId,
        count: raw.length - variations.length,
      });
    }
    return variations;
  }

  async findCoupon(code: string): Promise<CatalogCoupon | null> {
    const wanted = code.trim().toLowerCase();
    if (wanted === '') return null;
    const { data } = await this.get('wc/v3/coupons', { code: wanted });
    if (!Array.isArray(data)) throw this.invalid('wc/v3/coupons', 'expected an array');
    // WooCommerce matches the code parameter loosely; only an exact match counts.
    const match = data.map(normalizeCoupon).find((c) => c?.code.toLowerCase() === wanted);
    return match ?? null;
  }

  async listPosts(): Promise<CatalogPost[]> {
    // WordPress's own routes do not know WooCommerce keys; with application passwords
    // enabled, unknown basic-auth credentials would even be refused. Posts are public.
    const raw = await this.getAllPages(
      'wp/v2/posts',
      { status: 'publish', per_page: '100', _embed: 'wp:featuredmedia,author' },
      false,
    );
    return raw.map(normalizePost).filter((p): p is CatalogPost => p !== null);
  }

  async createOrder(order: OrderHandOff): Promise<{ id: string }> {
    const existing = await this.findOrderByReference(order.reference);
    if (existing) return { id: existing };
    const payment = order.payment ?? STRIPE_PAYMENT;
    const body = {
      status: 'processing',
      set_paid: true,
      currency: order.currency.toUpperCase(),
      payment_method: payment.method,
      payment_method_title: payment.title,
      transaction_id: order.paymentReference,
      billing: billingOf(order),
      line_items: order.lines.map((line) => ({
        product_id: line.productId,
        ...(line.variationId ? { variation_id: line.variationId } : {}),
        quantity: line.quantity,
      })),
      coupon_lines: order.couponCode ? [{ code: order.couponCode }] : [],
      meta_data: [
        { key: ORDER_REFERENCE_META_KEY, value: order.reference },
        { key: 'awhh_total_cents', value: String(order.total) },
        ...(payment.testMode
          ? [{ key: TEST_MODE_META_KEY, value: 'Testzahlung – es wurde kein echtes Geld bewegt' }]
          : []),
      ],
    };
    // Never retried: a timeout may have created the order; the caller retries the
    // whole hand-off later, and the reference lookup above finds the first one.
    const { data } = await this.request('POST', 'wc/v3/orders', {}, body, true);
    const id = (data as { id?: unknown } | null)?.id;
    if (typeof id !== 'number' && typeof id !== 'string') {
      throw this.invalid('wc/v3/orders', 'the created order has no id');
    }
    return { id: String(id) };
  }

  private async findOrderByReference(reference: string): Promise<string | null> {
    const after = new Date(Date.now() - 7 * 24 * 3600_000).toISOString();
    const { data } = await this.get('wc/v3/orders', {
      after,
      per_page: '100',
      orderby: 'date',
      order: 'desc',
    });
    if (!Array.isArray(data)) return null;
    for (const entry of data) {
      const meta = (entry as { meta_data?: unknown }).meta_data;
      if (
        Array.isArray(meta) &&
        meta.some((m) => m?.key === ORDER_REFERENCE_META_KEY && m?.value === reference)
      ) {
        return String((entry as { id: unknown }).id);
      }
    }
    return null;
  }

  /** Page 1, then the rest (X-WP-TotalPages) a few at a time. */
  private async getAllPages(
    path: string,
    query: Record<string, string>,
    auth = true,
  ): Promise<unknown[]> {
    const first = await this.get(path, { ...query, page: '1' }, auth);
    if (!Array.isArray(first.data)) throw this.invalid(path, 'expected an array');
    const total = Number.parseInt(first.headers.get('x-wp-totalpages') ?? '1', 10);
    const pages = Number.isFinite(total) ? Math.min(Math.max(total, 1), this.maxPages) : 1;
    if (total > this.maxPages) {
      this.logger.warn({ msg: 'too many pages; reading the first ones only', path, total });
    }
    const results: unknown[][] = [first.data];
    const remaining = Array.from({ length: pages - 1 }, (_, i) => i + 2);
    for (let i = 0; i < remaining.length; i += PAGE_CONCURRENCY) {
      const batch = remaining.slice(i, i + PAGE_CONCURRENCY);
      const got = await Promise.all(
        batch.map((page) => this.get(path, { ...query, page: String(page) }, auth)),
      );
      for (const { data } of got) {
        if (!Array.isArray(data)) throw this.invalid(path, 'expected an array');
        results.push(data);
      }
    }
    return results.flat();
  }

  private async get(
    path: string,
    query: Record<string, string>,
    auth = true,
  ): Promise<WooResponse> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.request('GET', path, query, undefined, auth);
      } catch (err) {
        if (!(err instanceof CatalogError) || !err.retryable || attempt >= this.retries) throw err;
        const delay = backoffDelay(attempt, { baseMs: this.backoffMs, maxMs: this.maxBackoffMs });
        this.logger.warn({
          msg: 'retrying',
          path,
          attempt: attempt + 1,
          delayMs: Math.round(delay),
          err: err.message,
        });
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private async request(
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, string>,
    body: unknown,
    auth: boolean,
  ): Promise<WooResponse> {
    const url = new URL(`${this.base}/wp-json/${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': 'awhh-backend',
    };
    if (auth) headers.authorization = this.authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const where = `${method} ${url.pathname}`;

    let response: Response;
    try {
      response = await this.fetchFn(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const name = (err as { name?: string })?.name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new CatalogError(
          'timeout',
          `WooCommerce: ${where} gave no answer within ${this.timeoutMs} ms`,
          null,
          { cause: err },
        );
      }
      const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
      throw new CatalogError(
        'network',
        `WooCommerce: ${where} failed: ${cause?.code ?? cause?.message ?? (err as Error)?.message ?? String(err)}`,
        null,
        { cause: err },
      );
    }

    let text: string;
    try {
      text = await response.text();
    } catch (err) {
      const name = (err as { name?: string })?.name;
      const kind = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network';
      throw new CatalogError(
        kind,
        `WooCommerce: ${where} broke off while sending its answer`,
        null,
        { cause: err },
      );
    }
    if (!response.ok) throw this.httpError(where, response.status, text);
    try {
      return { data: JSON.parse(text) as unknown, headers: response.headers };
    } catch {
      throw this.invalid(path, `answered ${response.status} with a body that is not JSON`);
    }
  }

  /** WordPress errors are `{ code, message, data: { status } }`; the code says the most. */
  private httpError(where: string, status: number, text: string): CatalogError {
    const detail = errorDetail(text);
    const suffix = detail ? ` (${detail})` : '';
    if (status === 401 || status === 403) {
      return new CatalogError(
        'auth',
        `WooCommerce refused the API keys for ${where}: ${status}${suffix}. Check WOOCOMMERCE_KEY and WOOCOMMERCE_SECRET and that the key has read/write access.`,
        status,
      );
    }
    if (status === 404) {
      return new CatalogError(
        'not_found',
        `WooCommerce: ${where} does not exist: 404${suffix}. Is WOOCOMMERCE_URL the site's root URL and the REST API reachable?`,
        status,
      );
    }
    if (status === 429) {
      return new CatalogError(
        'rate_limited',
        `WooCommerce rate-limited ${where}: 429${suffix}`,
        status,
      );
    }
    return new CatalogError(
      'upstream',
      `WooCommerce: ${where} failed with ${status}${suffix}`,
      status,
    );
  }

  private invalid(path: string, problem: string): CatalogError {
    return new CatalogError('invalid_response', `WooCommerce: ${path} ${problem}`);
  }
}

/**
 * rules "Everything the shop sells": name and e-mail from the payment page. WooCommerce
 * mails its own order confirmation to the billing address; unknown fields are left out.
 */
function billingOf(order: OrderHandOff): Record<string, string> {
  const billing: Record<string, string> = {};
  if (order.buyer?.firstName) billing.first_name = order.buyer.firstName;
  if (order.buyer?.lastName) billing.last_name = order.buyer.lastName;
  if (order.email) billing.email = order.email;
  return billing;
}

function errorDetail(text: string): string {
  try {
    const parsed = JSON.parse(text) as { code?: unknown; message?: unknown };
    return [parsed.code, parsed.message].filter((s) => typeof s === 'string').join(': ');
  } catch {
    // An HTML error page (fatal error, maintenance mode): its start is enough for the log.
    return text.slice(0, 120).replace(/\s+/g, ' ');
  }
}
