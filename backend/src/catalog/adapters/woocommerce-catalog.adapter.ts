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
  type OrderRefund,
  type RefundResult,
  type RestockResult,
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
import {
  germanRefusal,
  handOffDifferences,
  isEmptyShell,
  isUnpaidButWhole,
  shopOrderRecord,
} from './woocommerce-handoff.js';

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
/** The provider's refund id on the shop's refund: what makes a refund recorded once. */
export const REFUND_REFERENCE_META_KEY = 'awhh_refund_reference';
/** Marks the site's refund of 0.00 that only puts an order's places back into stock. */
export const RESTOCK_META_KEY = 'awhh_restock';
/** Marks a test-mode order in the admin's custom fields, beside its payment title. */
export const TEST_MODE_META_KEY = 'awhh_test_mode';
const PAGE_CONCURRENCY = 4;
/** Node's codes for a certificate it does not trust (a private CA, expired, wrong host). */
const TLS_ERRORS = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

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

  /**
   * docs/ledger.md "A hand-off is done only when the shop holds what was charged": an order
   * the shop already keeps under the reference (an earlier attempt's) is taken only when it
   * is paid with every line and the total charged. A half-made one (stored, then the shop
   * failed: unpaid, no lines) is removed and the order made anew; one stored whole but
   * unpaid is set paid; one whose total differs gets the lines' totals. Anything else is
   * refused, with the difference in German, and nothing new is made beside it.
   */
  async createOrder(order: OrderHandOff): Promise<{ id: string }> {
    for (const raw of await this.ordersByReference(order.reference)) {
      const found = shopOrderRecord(raw);
      if (!found) continue;
      if (isEmptyShell(found)) {
        await this.removeShell(found.id, order.reference);
        continue;
      }
      if (isUnpaidButWhole(found, order)) {
        const { data } = await this.request(
          'PUT',
          `wc/v3/orders/${found.id}`,
          {},
          { status: 'processing', set_paid: true, transaction_id: order.paymentReference },
          true,
        );
        return this.verified(String(found.id), data, order);
      }
      return this.verified(String(found.id), raw, order);
    }
    const payment = order.payment ?? STRIPE_PAYMENT;
    const body = {
      status: 'processing',
      set_paid: true,
      currency: order.currency.toUpperCase(),
      payment_method: payment.method,
      payment_method_title: payment.title,
      transaction_id: order.paymentReference,
      billing: billingOf(order),
      // rules "Coupons": the lines at the prices charged. WooCommerce applies the coupon
      // again from each line's subtotal (its own spread, which the checkout's mirrors), so
      // a price changed in the shop since the checkout does not change the order's total;
      // `total` is the line after its discount, as the checkout priced it.
      line_items: order.lines.map((line) => ({
        product_id: line.productId,
        ...(line.variationId ? { variation_id: line.variationId } : {}),
        quantity: line.quantity,
        subtotal: euros(line.unitAmount * line.quantity),
        total: euros(Math.max(0, line.unitAmount * line.quantity - (line.discount ?? 0))),
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
    const { data } = await this.request('POST', 'wc/v3/orders', {}, body, true).catch(
      (err: unknown) => this.refusedOrder(err),
    );
    const id = (data as { id?: unknown } | null)?.id;
    if (typeof id !== 'number' && typeof id !== 'string') {
      throw this.invalid('wc/v3/orders', 'the created order has no id');
    }
    return this.verified(String(id), data, order);
  }

  /**
   * The shop's order `id` (as `answer` shows it) must hold the sale: its totals are set to
   * what was charged when they differ (`matchTotal`), then it is read again and compared.
   * What still differs is a refusal with the differences in German.
   */
  private async verified(
    id: string,
    answer: unknown,
    order: OrderHandOff,
  ): Promise<{ id: string }> {
    let record = shopOrderRecord(answer);
    if (record && record.total !== order.total) {
      await this.matchTotal(id, answer, order);
      record = shopOrderRecord((await this.get(`wc/v3/orders/${id}`, {})).data);
    }
    if (!record) throw this.invalid(`wc/v3/orders/${id}`, 'is not an order');
    const differences = handOffDifferences(record, order);
    if (differences.length === 0) return { id };
    this.logger.warn({
      msg: "the shop's order does not hold what was charged",
      reference: order.reference,
      id,
      differences: differences.map((d) => d.kind),
    });
    throw new CatalogError(
      'refused',
      `${differences.map((d) => d.message).join(' ')} Bitte die Bestellung im Shop prüfen und dann erneut übergeben.`,
      null,
    );
  }

  /** A half-made order (see `createOrder`) goes for good, so it is never taken for the sale. */
  private async removeShell(id: number, reference: string): Promise<void> {
    await this.request('DELETE', `wc/v3/orders/${id}`, { force: 'true' }, undefined, true);
    this.logger.warn({
      msg: 'removed a half-made order the shop kept from an earlier hand-off',
      reference,
      id,
    });
  }

  /**
   * rules "Coupons": the shop's order must show what was charged. WooCommerce spreads the
   * coupon itself, from the coupon as it is now; should the organizer have changed the
   * coupon since the checkout, its total differs, and the lines are set to the totals the
   * checkout charged (without `coupon_lines`, so WooCommerce keeps the coupon and its use
   * and does not spread it again). Best effort: the order exists either way.
   */
  private async matchTotal(id: string, created: unknown, order: OrderHandOff): Promise<void> {
    const record = (created ?? {}) as { total?: unknown; line_items?: unknown };
    const total = cents(record.total);
    if (total === order.total) return;
    const items = (Array.isArray(record.line_items) ? record.line_items : []) as WooLine[];
    this.logger.warn({
      msg: "the shop's total differs from the amount charged; setting the lines' totals",
      reference: order.reference,
      shopTotal: total,
      charged: order.total,
    });
    if (items.length !== order.lines.length) return;
    try {
      await this.request(
        'PUT',
        `wc/v3/orders/${id}`,
        {},
        {
          line_items: order.lines.map((line, i) => ({
            id: items[i]!.id,
            subtotal: euros(line.unitAmount * line.quantity),
            total: euros(Math.max(0, line.unitAmount * line.quantity - (line.discount ?? 0))),
          })),
        },
        true,
      );
    } catch (err) {
      this.logger.warn({
        msg: "could not set the shop order's totals",
        reference: order.reference,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }

  /**
   * rules "Hand-off refused": a 4xx (but 408 and 429, which a later try may pass) is the
   * shop refusing this order as it is, e.g. for its coupon; sending it again never
   * succeeds and would only leave another draft. The draft WooCommerce left behind
   * (`data.new_draft_order_id`, recorded) is deleted, and the refusal travels as
   * `refused` with WooCommerce's own message. Anything else is thrown as it is.
   */
  private async refusedOrder(err: unknown): Promise<never> {
    const status = err instanceof CatalogError ? err.status : null;
    if (!(err instanceof CatalogError) || status === null || status < 400 || status >= 500) {
      throw err;
    }
    if (status === 408 || status === 429) throw err;
    const { message, draftId } = refusalOf(err.body ?? '');
    if (draftId !== null) await this.deleteDraft(draftId);
    throw new CatalogError(
      'refused',
      germanRefusal(message ?? `WooCommerce refused the order with ${status}`),
      status,
      { cause: err },
    );
  }

  /** Best effort: a draft left over harms nobody but the order list, so a failure is logged. */
  private async deleteDraft(id: number): Promise<void> {
    try {
      await this.request('DELETE', `wc/v3/orders/${id}`, { force: 'true' }, undefined, true);
      this.logger.log({ msg: 'removed the draft of a refused order', draftId: id });
    } catch (err) {
      this.logger.warn({
        msg: 'could not remove the draft of a refused order',
        draftId: id,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }

  async refundOrder(refund: OrderRefund): Promise<RefundResult> {
    const id = refund.catalogOrderId ?? (await this.findOrderByReference(refund.reference));
    if (!id) return { found: false, refundId: null };
    const { data: order } = await this.get(`wc/v3/orders/${id}`, {});
    const { data: refunds } = await this.get(`wc/v3/orders/${id}/refunds`, { per_page: '100' });
    const plan = refundPlan(order, refunds, refund);
    if (!plan) return { found: true, refundId: null };
    // Not retried here: WooCommerce refunds are not idempotent. The job runs again, and the
    // refunds read above then already count this one.
    const { data } = await this.request(
      'POST',
      `wc/v3/orders/${id}/refunds`,
      {},
      {
        amount: plan.amount,
        reason: refund.testMode
          ? `Erstattung (Testmodus) ${refund.refundReference}`
          : `Erstattung ${refund.refundReference}`,
        api_refund: false,
        restock_items: true,
        line_items: plan.lines,
        meta_data: [{ key: REFUND_REFERENCE_META_KEY, value: refund.refundReference }],
      },
      true,
    );
    // The Location header of a created refund is broken (recorded): the body's id counts.
    const refundId = (data as { id?: unknown } | null)?.id;
    const restocked = plan.lines.reduce((sum, l) => sum + (Number(l.quantity) || 0), 0);
    return {
      found: true,
      refundId: refundId === undefined ? null : String(refundId),
      restocked,
    };
  }

  /**
   * rules "Orders made in the shop": `modified_after` (whole seconds, with its offset, so
   * WordPress converts it to the site's time itself), oldest change first; trashed orders
   * are not in the default list and are asked for apart.
   */
  async ordersChangedSince(since: Date): Promise<unknown[]> {
    const query = {
      modified_after: since.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      per_page: '100',
      orderby: 'modified',
      order: 'asc',
    };
    const [changed, trashed] = await Promise.all([
      this.getAllPages('wc/v3/orders', query),
      this.getAllPages('wc/v3/orders', { ...query, status: 'trash' }),
    ]);
    return [...changed, ...trashed];
  }

  async findOrder(id: string): Promise<unknown> {
    try {
      return (await this.get(`wc/v3/orders/${encodeURIComponent(id)}`, {})).data;
    } catch (err) {
      // Only WooCommerce's own "no such order" means gone: a 404 of a missing route (a
      // wrong WOOCOMMERCE_URL) must never read as a deleted order.
      if (
        err instanceof CatalogError &&
        err.status === 404 &&
        err.message.includes('woocommerce_rest_shop_order_invalid_id')
      ) {
        return null;
      }
      throw err;
    }
  }

  async orderRefunds(id: string): Promise<unknown[]> {
    const { data } = await this.get(`wc/v3/orders/${encodeURIComponent(id)}/refunds`, {
      per_page: '100',
    });
    if (!Array.isArray(data)) throw this.invalid(`wc/v3/orders/${id}/refunds`, 'expected an array');
    // Newest first on the wire.
    return [...data].reverse();
  }

  /**
   * A refund of 0.00 naming every line the shop still keeps out of stock (`_reduced_stock`)
   * with that quantity and `restock_items`: WooCommerce's own restock of refunded lines,
   * which adds to the stock atomically, lowers `_reduced_stock` and shows in the order's
   * history with `reason`. Nothing when no line keeps stock out (cancelled orders had
   * theirs restocked by WooCommerce).
   */
  async restockOrder(id: string, reason: string): Promise<RestockResult> {
    const order = await this.findOrder(id);
    if (order === null) return { found: false, restocked: [] };
    const items = ((order as { line_items?: unknown }).line_items ?? []) as {
      id?: unknown;
      product_id?: unknown;
      variation_id?: unknown;
      meta_data?: { key?: unknown; value?: unknown }[];
    }[];
    const lines = items.flatMap((item) => {
      const reduced = Number(
        (Array.isArray(item.meta_data) ? item.meta_data : []).find(
          (m) => m?.key === '_reduced_stock',
        )?.value,
      );
      return Number.isSafeInteger(reduced) && reduced > 0
        ? [
            {
              id: Number(item.id),
              productId: Number(item.product_id) || 0,
              variationId: Number(item.variation_id) || null,
              quantity: reduced,
            },
          ]
        : [];
    });
    if (lines.length === 0) return { found: true, restocked: [] };
    await this.request(
      'POST',
      `wc/v3/orders/${encodeURIComponent(id)}/refunds`,
      {},
      {
        amount: '0.00',
        reason,
        api_refund: false,
        restock_items: true,
        line_items: lines.map((l) => ({ id: l.id, quantity: l.quantity, refund_total: 0 })),
        meta_data: [{ key: RESTOCK_META_KEY, value: 'yes' }],
      },
      true,
    );
    return {
      found: true,
      restocked: lines.map(({ productId, variationId, quantity }) => ({
        productId,
        variationId,
        quantity,
      })),
    };
  }

  private async findOrderByReference(reference: string): Promise<string | null> {
    const [first] = await this.ordersByReference(reference);
    return first ? String((first as { id: unknown }).id) : null;
  }

  /** The shop's orders of the last week that carry this reference, newest first. */
  private async ordersByReference(reference: string): Promise<unknown[]> {
    const after = new Date(Date.now() - 7 * 24 * 3600_000).toISOString();
    const { data } = await this.get('wc/v3/orders', {
      after,
      per_page: '100',
      orderby: 'date',
      order: 'desc',
    });
    if (!Array.isArray(data)) return [];
    return data.filter((entry) => {
      const meta = (entry as { meta_data?: unknown }).meta_data;
      return (
        Array.isArray(meta) &&
        meta.some((m) => m?.key === ORDER_REFERENCE_META_KEY && m?.value === reference)
      );
    });
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
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
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
      if (cause?.code && TLS_ERRORS.has(cause.code)) {
        throw new CatalogError(
          'network',
          `WooCommerce: ${where}: the shop's TLS certificate was refused (${cause.code}: ${cause.message ?? ''}). A shop whose certificate comes from its own CA needs NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment; an expired certificate or one for another host name must be fixed at the shop.`,
          null,
          { cause: err },
        );
      }
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
    if (!response.ok) throw this.httpError(where, response.status, text, method);
    try {
      return { data: JSON.parse(text) as unknown, headers: response.headers };
    } catch {
      throw this.invalid(path, `answered ${response.status} with a body that is not JSON`);
    }
  }

  /** WordPress errors are `{ code, message, data: { status } }`; the code says the most. */
  private httpError(where: string, status: number, text: string, method: string): CatalogError {
    const error = this.httpErrorOf(where, status, text);
    // A refused write keeps the shop's answer, for its message and the draft it left.
    if (method !== 'GET') error.body = text.slice(0, 4_000);
    return error;
  }

  private httpErrorOf(where: string, status: number, text: string): CatalogError {
    const detail = errorDetail(text);
    const suffix = detail ? ` (${detail})` : '';
    if (status === 401 || status === 403) {
      // Only WooCommerce's own authentication error says the keys are wrong; without it the
      // keys were not even read (plain HTTP) or lack a permission.
      const keysWrong = text.includes('woocommerce_rest_authentication_error');
      return new CatalogError(
        'auth',
        keysWrong
          ? `WooCommerce refused the API keys for ${where}: ${status}${suffix}. Check WOOCOMMERCE_KEY and WOOCOMMERCE_SECRET.`
          : `WooCommerce refused access to ${where}: ${status}${suffix}. WooCommerce reads the API keys only over HTTPS, and the key needs read/write access (WooCommerce → Einstellungen → Erweitert → REST-API).`,
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

/** WordPress's error body: its message (HTML entities decoded) and the draft a refusal left. */
function refusalOf(text: string): { message: string | null; draftId: number | null } {
  try {
    const parsed = JSON.parse(text) as {
      message?: unknown;
      data?: { new_draft_order_id?: unknown } | null;
    };
    const draft = Number(parsed.data?.new_draft_order_id);
    return {
      message: typeof parsed.message === 'string' ? decodeEntities(parsed.message) : null,
      draftId: Number.isInteger(draft) && draft > 0 ? draft : null,
    };
  } catch {
    return { message: null, draftId: null };
  }
}

function decodeEntities(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;|&#x27;|&apos;/g, "'")
    .replace(/&euro;/g, '€')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const cents = (value: unknown): number => Math.round(Number.parseFloat(String(value ?? '0')) * 100);
const euros = (amount: number): string => (amount / 100).toFixed(2);

interface WooLine {
  id: number;
  quantity: number;
  total: string;
}

/**
 * rules "Refunds reach the shop", "Refunds": what the shop still has to refund, or null when
 * its refunds add up to `refundedTotal` already (so a second run refunds nothing) or one of
 * them carries this provider refund's id. In full: every line with what is left of its
 * quantity and total, so WooCommerce restocks them (without line items it does not,
 * recorded). In part: first the units whose price went back (`restock`: tickets the refund
 * covered) with their quantity, so their stock comes back; the rest of the amount spread
 * over the lines' totals without quantities, so no other stock moves.
 */
function refundPlan(
  order: unknown,
  refunds: unknown,
  refund: OrderRefund,
): { amount: string; lines: Record<string, unknown>[] } | null {
  const existing = Array.isArray(refunds) ? (refunds as Record<string, unknown>[]) : [];
  const tagged = existing.some(
    (r) =>
      Array.isArray(r.meta_data) &&
      r.meta_data.some(
        (m: { key?: unknown; value?: unknown }) =>
          m?.key === REFUND_REFERENCE_META_KEY && m?.value === refund.refundReference,
      ),
  );
  // Refund amounts are positive strings in the list ("49.00").
  const already = existing.reduce((sum, r) => sum + Math.abs(cents(r.amount)), 0);
  const amount = refund.refundedTotal - already;
  if (tagged || amount <= 0) return null;
  const record = (order ?? {}) as { line_items?: unknown; refunds?: unknown };
  const lines = (Array.isArray(record.line_items) ? record.line_items : []) as WooLine[];
  const refundedOf = lineRefunds(existing);
  const full = refund.refundedTotal >= refund.orderTotal;
  let left = amount;
  const out = new Map<number, { quantity: number; total: number }>();
  const open = (line: WooLine) => {
    const done = refundedOf.get(line.id) ?? { quantity: 0, total: 0 };
    const planned = out.get(line.id) ?? { quantity: 0, total: 0 };
    return {
      quantity: line.quantity - done.quantity - planned.quantity,
      total: cents(line.total) - done.total - planned.total,
      done,
    };
  };
  const add = (line: WooLine, quantity: number, total: number) => {
    const planned = out.get(line.id) ?? { quantity: 0, total: 0 };
    out.set(line.id, { quantity: planned.quantity + quantity, total: planned.total + total });
    left -= total;
  };
  if (!full) {
    for (const { position, quantity } of refund.restock ?? []) {
      const line = lines[position];
      if (!line || quantity <= 0) continue;
      const { done, quantity: openUnits, total: openTotal } = open(line);
      const units = Math.min(quantity - done.quantity, openUnits);
      if (units <= 0) continue;
      // The line's total per unit, the dearest units first (as the tickets were priced).
      const lineTotal = cents(line.total);
      const base = Math.floor(lineTotal / line.quantity);
      const extra = lineTotal - base * line.quantity;
      let value = 0;
      for (let i = done.quantity; i < done.quantity + units; i++)
        value += base + (i < extra ? 1 : 0);
      add(line, units, Math.max(0, Math.min(value, openTotal, left)));
    }
  }
  for (const line of lines) {
    const { quantity, total } = open(line);
    if (total <= 0 || left <= 0) {
      if (full && quantity > 0) add(line, quantity, 0);
      continue;
    }
    add(line, full && quantity > 0 ? quantity : 0, Math.min(total, left));
  }
  const planned = lines
    .filter((line) => out.has(line.id))
    .map((line) => {
      const { quantity, total } = out.get(line.id)!;
      return { id: line.id, ...(quantity > 0 ? { quantity } : {}), refund_total: euros(total) };
    })
    .filter((l) => 'quantity' in l || cents(l.refund_total) > 0);
  return { amount: euros(amount), lines: planned };
}

/** Quantities and totals already refunded per order line (refund lines carry negative values). */
function lineRefunds(
  refunds: Record<string, unknown>[],
): Map<number, { quantity: number; total: number }> {
  const map = new Map<number, { quantity: number; total: number }>();
  for (const refund of refunds) {
    for (const item of Array.isArray(refund.line_items) ? refund.line_items : []) {
      const meta = Array.isArray(item?.meta_data) ? item.meta_data : [];
      const lineId = Number(
        meta.find((m: { key?: unknown }) => m?.key === '_refunded_item_id')?.value,
      );
      if (!Number.isInteger(lineId)) continue;
      const prev = map.get(lineId) ?? { quantity: 0, total: 0 };
      map.set(lineId, {
        quantity: prev.quantity + Math.abs(Number(item.quantity) || 0),
        total: prev.total + Math.abs(cents(item.total)),
      });
    }
  }
  return map;
}
