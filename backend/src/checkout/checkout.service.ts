import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  type CheckoutLineItem,
  checkoutRequestSchema,
  type CheckoutResponse,
  discountCents,
  fromCents,
  type LineProblem,
  type OrderSummary,
  type ParsedCheckoutRequest,
  toCents,
  variantLineName,
} from '@awhh/machines';
import { apiError } from '../common/api-error.js';
import { parseBody } from '../common/validation.js';
import { AppConfig } from '../config/config.js';
import { isVariable, type CatalogProduct } from '../catalog/catalog.port.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { CatalogError } from '../catalog/catalog.errors.js';
import { evaluateCoupon } from '../catalog/coupon-rules.js';
import { StoreDatabase } from '../store/store.database.js';
import {
  enqueue,
  findOrder,
  HELD_UNTIL,
  newId,
  orderLines,
  type OrderStatus,
  releaseReservations,
  reservedByKey,
} from './checkout.repository.js';
import { stockOf } from './capacity.js';
import { CheckoutOptions } from './checkout.options.js';
import { OutboxWorker } from './outbox.worker.js';
import { paymentMethodTypes, PaymentsPort } from './payments/payments.port.js';

/** A request line priced from the catalog (integer cents). */
interface PricedLine {
  productId: number;
  variationId: number | null;
  /** The stock unit the line draws from. */
  productKey: number;
  name: string;
  image: string | null;
  quantity: number;
  unitAmount: number;
  /** null: unlimited (WooCommerce does not manage stock for this product). */
  stock: number | null;
}

const SESSION_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';

@Injectable()
export class CheckoutService {
  private readonly logger = new Logger('Checkout');
  private readonly origin: string;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(StoreDatabase) private readonly store: StoreDatabase,
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
    @Inject(CheckoutOptions) private readonly options: CheckoutOptions,
    @Inject(OutboxWorker) private readonly outbox: OutboxWorker,
  ) {
    this.origin = new URL(config.publicUrl).origin;
  }

  /** POST /api/checkout/session (SPEC §7; DESIGN "Checkout line items", "Capacity"). */
  async createSession(body: unknown): Promise<CheckoutResponse> {
    const request = parseBody(checkoutRequestSchema, body);
    this.assertOwnOrigin(request.success_url);
    this.assertOwnOrigin(request.cancel_url);
    const methodTypes = paymentMethodTypes(request.payment_method);
    if (!methodTypes) throw apiError(400, 'Diese Zahlungsart bieten wir nicht an.');

    const lines = await this.price(request.line_items);
    const subtotal = lines.reduce((sum, l) => sum + l.unitAmount * l.quantity, 0);
    const coupon = await this.checkCoupon(request, subtotal);
    const discount = coupon ? discountCents(subtotal, coupon) : 0;
    // DESIGN "Deliberate deviations": the total is clamped at 0.
    const total = Math.max(0, subtotal - discount);

    const orderId = newId('ord');
    const now = Date.now();
    const expiresAt = now + this.options.sessionTtlMs;
    const free = total === 0;
    const email = request.email ?? null;

    await this.store.write(async (trx) => {
      await this.reserve(trx, orderId, lines, now, free ? HELD_UNTIL : expiresAt, async () => {
        await trx
          .insertInto('orders')
          .values({
            id: orderId,
            // A free order has no provider session; its own id is the session id.
            session_id: free ? orderId : null,
            provider: free ? 'none' : this.payments.name,
            status: free ? 'paid' : 'open',
            email,
            buyer_name: null,
            coupon_code: coupon?.code ?? null,
            coupon_entered: coupon?.entered ?? null,
            subtotal,
            discount,
            total,
            currency: 'eur',
            payment_method: request.payment_method,
            success_url: request.success_url,
            cancel_url: request.cancel_url,
            payment_url: null,
            payment_reference: null,
            catalog_order_id: null,
            refund_status: null,
            refund_reference: null,
            created_at: now,
            expires_at: expiresAt,
            paid_at: free ? now : null,
            updated_at: now,
          })
          .execute();
        await trx
          .insertInto('order_lines')
          .values(
            lines.map((l, position) => ({
              order_id: orderId,
              position,
              product_id: l.productId,
              variation_id: l.variationId,
              name: l.name,
              image: l.image,
              quantity: l.quantity,
              unit_amount: l.unitAmount,
            })),
          )
          .execute();
      });
      if (free) await enqueue(trx, 'handoff', orderId, now);
    });

    if (free) {
      this.outbox.kick();
      return { id: orderId, url: withSessionId(request.success_url, orderId) };
    }

    let session: { id: string; url: string };
    try {
      session = await this.payments.createSession({
        orderId,
        currency: 'eur',
        lines: lines.map((l) => ({
          name: l.name,
          unitAmount: l.unitAmount,
          quantity: l.quantity,
          image: l.image,
        })),
        discount: coupon && discount > 0 ? { code: coupon.entered, amountOff: discount } : null,
        paymentMethodTypes: methodTypes,
        email,
        successUrl: withSessionPlaceholder(request.success_url),
        cancelUrl: request.cancel_url,
        expiresAt,
      });
    } catch (err) {
      this.logger.error({ msg: 'payment session failed', orderId, error: String(err) });
      await this.store.write(async (trx) => {
        await releaseReservations(trx, orderId);
        await trx
          .updateTable('orders')
          .set({ status: 'canceled', updated_at: Date.now() })
          .where('id', '=', orderId)
          .execute();
      });
      throw apiError(
        502,
        'Die Zahlung kann gerade nicht gestartet werden. Bitte versuche es in ein paar Minuten erneut; dein Warenkorb bleibt erhalten.',
      );
    }
    await this.store.db
      .updateTable('orders')
      .set({ session_id: session.id, payment_url: session.url, updated_at: Date.now() })
      .where('id', '=', orderId)
      .execute();
    return { id: session.id, url: session.url };
  }

  /** GET /api/checkout/session/:id: what the success page shows, nothing more. */
  async summary(sessionId: string): Promise<OrderSummary & { refunded: boolean }> {
    const order = await findOrder(this.store.db, { sessionId });
    if (!order) throw apiError(404, 'Diese Bestellung kennen wir nicht.');
    const lines = await orderLines(this.store.db, order.id);
    let status = order.status as OrderStatus;
    // The provider's expiry event may still be on its way; the clock already knows.
    if (status === 'open' && order.expires_at <= Date.now()) status = 'expired';
    return {
      id: sessionId,
      status,
      orderNumber: order.catalog_order_id,
      lines: lines.map((l) => ({ name: l.name, quantity: l.quantity, unitAmount: l.unit_amount })),
      subtotal: order.subtotal,
      discount: order.discount,
      total: order.total,
      currency: order.currency,
      // DESIGN "Everything the shop sells": shown as the visitor typed it.
      couponCode: order.coupon_entered ?? order.coupon_code,
      email: order.email,
      // DESIGN "Capacity": a late payment without capacity is refunded and the buyer told.
      refunded: order.refund_status !== null,
    };
  }

  private assertOwnOrigin(raw: string): void {
    let origin: string;
    try {
      origin = new URL(raw).origin;
    } catch {
      origin = '';
    }
    if (origin !== this.origin) {
      throw apiError(400, 'Die Rücksprungadresse muss auf unserer Website liegen.');
    }
  }

  /** Re-prices every line from the catalog (DESIGN: the server never trusts client prices). */
  private async price(items: readonly CheckoutLineItem[]): Promise<PricedLine[]> {
    const catalog = await whileCatalogUp(() => this.catalog.currentProducts());
    const priced: PricedLine[] = [];
    const problems: LineProblem[] = [];
    for (const item of items) {
      if (item.currency.toLowerCase() !== 'eur') {
        throw apiError(400, 'Wir nehmen Zahlungen nur in Euro an.');
      }
      const line = lineOf(catalog, item);
      priced.push(line);
      if (toCents(item.amount) !== line.unitAmount) problems.push(problemOf(line, line.stock));
    }
    if (problems.length > 0) {
      throw apiError(
        409,
        problems.length === 1
          ? `Der Preis von „${problems[0]!.name}“ hat sich geändert. Bitte prüfe deinen Warenkorb.`
          : 'Einige Preise haben sich geändert. Bitte prüfe deinen Warenkorb.',
        { lines: problems },
      );
    }
    return priced;
  }

  /**
   * Re-validates the coupon with the catalog's current data (WooCommerce rules). `code` is
   * the catalog's spelling (what the hand-off sends), `entered` the visitor's (what pages
   * show; DESIGN "Everything the shop sells").
   */
  private async checkCoupon(request: ParsedCheckoutRequest, subtotal: number) {
    if (!request.coupon) return null;
    const entered = request.coupon.code?.trim();
    if (!entered) throw apiError(400, 'Bitte gib den Gutscheincode erneut ein.');
    const found = await whileCatalogUp(() => this.catalog.findCoupon(entered, { fresh: true }));
    const result = evaluateCoupon(found, subtotal, new Date());
    if (!result.ok) throw apiError(result.statusCode, result.message);
    return { ...result.coupon, entered };
  }

  /**
   * Checks and takes capacity in the caller's write transaction: available = stock −
   * active reservations (DESIGN "Capacity"). `insertOrder` runs between the check and
   * the reservation rows so the rows can reference the order.
   */
  private async reserve(
    trx: StoreDatabase['db'],
    orderId: string,
    lines: readonly PricedLine[],
    now: number,
    expiresAt: number,
    insertOrder: () => Promise<void>,
  ): Promise<void> {
    const wanted = new Map<number, number>();
    for (const l of lines) wanted.set(l.productKey, (wanted.get(l.productKey) ?? 0) + l.quantity);
    const keys = [...wanted.keys()];
    const limited = lines.filter((l) => l.stock !== null).map((l) => l.productKey);
    await this.store.lockCapacity(trx, limited);
    const reserved = await reservedByKey(trx, limited, now);

    const problems: LineProblem[] = [];
    const short = new Set<number>();
    for (const line of lines) {
      if (line.stock === null || short.has(line.productKey)) continue;
      const available = Math.max(0, line.stock - (reserved.get(line.productKey) ?? 0));
      if ((wanted.get(line.productKey) ?? 0) > available) {
        short.add(line.productKey);
        problems.push(problemOf(line, available));
      }
    }
    if (problems.length > 0) throw apiError(409, shortageMessage(problems), { lines: problems });

    await insertOrder();
    await trx
      .insertInto('reservations')
      .values(
        keys.map((product_key) => ({
          order_id: orderId,
          product_key,
          quantity: wanted.get(product_key)!,
          expires_at: expiresAt,
          released: 0,
        })),
      )
      .execute();
  }
}

/**
 * Prices one request line from the catalog. DESIGN "Everything the shop sells": a
 * variable product is bought only as one of its variations, at the variation's price and
 * from the variation's stock (or the parent's, when the variation shares it).
 */
function lineOf(catalog: readonly CatalogProduct[], item: CheckoutLineItem): PricedLine {
  const product = catalog.find((p) => p.id === item.productId);
  if (!product || product.price === undefined) throw notOffered(item.name);
  const base = { productId: product.id, quantity: item.quantity };
  if (!isVariable(product)) {
    if (item.variationId !== undefined) throw notOffered(item.name);
    return {
      ...base,
      variationId: null,
      productKey: product.id,
      name: product.name,
      image: product.images[0]?.src ?? null,
      unitAmount: toCents(product.price),
      stock: stockOf(product),
    };
  }
  if (item.variationId === undefined) {
    throw apiError(
      400,
      `Bitte wähle bei „${product.name}“ aus, welche Variante (z. B. Ticketart oder Größe) du möchtest.`,
    );
  }
  const variation = product.variants?.find((v) => v.id === item.variationId);
  if (!variation || !variation.purchasable || variation.price === undefined) {
    throw notOffered(item.name);
  }
  return {
    ...base,
    variationId: variation.id,
    productKey: variation.sharesParentStock ? product.id : variation.id,
    name: variantLineName(product.name, variation.attributes),
    image: variation.image?.src ?? product.images[0]?.src ?? null,
    unitAmount: toCents(variation.price),
    stock: variation.sharesParentStock ? stockOf(product) : stockOf(variation),
  };
}

function notOffered(name: string) {
  return apiError(400, `„${name}“ gibt es in unserem Angebot nicht (mehr).`);
}

function problemOf(line: PricedLine, available: number | null): LineProblem {
  return {
    productId: line.productId,
    ...(line.variationId !== null ? { variationId: line.variationId } : {}),
    name: line.name,
    price: fromCents(line.unitAmount),
    available,
  };
}

/** "ausverkauft" / "nur noch N verfügbar" (issue #4), one sentence per line. */
export function shortageMessage(problems: readonly LineProblem[]): string {
  return problems
    .map((p) =>
      !p.available
        ? `„${p.name}“ ist leider ausverkauft.`
        : `Von „${p.name}“ sind nur noch ${p.available} verfügbar.`,
    )
    .join(' ');
}

/** Stripe fills in the session id; the success page reads it (SPEC §2 /success). */
function withSessionPlaceholder(url: string): string {
  if (url.includes(SESSION_PLACEHOLDER)) return url;
  return appendQuery(url, `session_id=${SESSION_PLACEHOLDER}`);
}

function withSessionId(url: string, sessionId: string): string {
  return withSessionPlaceholder(url).replace(SESSION_PLACEHOLDER, encodeURIComponent(sessionId));
}

function appendQuery(url: string, pair: string): string {
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  return `${base}${base.includes('?') ? '&' : '?'}${pair}${fragment}`;
}

export { withSessionId };

export const CATALOG_DOWN_AT_CHECKOUT_MESSAGE =
  'Der Ticketshop ist gerade nicht erreichbar. Dein Warenkorb bleibt gespeichert – bitte versuche es in ein paar Minuten erneut.';

/** WooCommerce down at checkout: 503 with a German message; the browser keeps the cart. */
async function whileCatalogUp<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof CatalogError) throw apiError(503, CATALOG_DOWN_AT_CHECKOUT_MESSAGE);
    throw err;
  }
}
