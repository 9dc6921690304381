import { HttpException, Inject, Injectable, Logger } from '@nestjs/common';
import {
  type CheckoutLineItem,
  checkoutRequestSchema,
  type CheckoutResponse,
  linesSubtotalCents,
  MAX_UNITS_PER_ORDER,
  SHOP_CURRENCY,
  fromCents,
  isEventProduct,
  isRefund,
  type LineProblem,
  type OrderSummary,
  type ParsedCheckoutRequest,
  toCents,
  toSessionStatus,
  totalCents,
  variantLineName,
} from '@awhh/machines';
import { apiError, apiErrorBody } from '../common/api-error.js';
import { parseBody } from '../common/validation.js';
import { AppConfig } from '../config/config.js';
import {
  type CatalogCoupon,
  isVariable,
  type CatalogProduct,
  shopReadAt,
} from '../catalog/catalog.port.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { CatalogError } from '../catalog/catalog.errors.js';
import { maxPerOrderOf } from '../catalog/order-limits.js';
import { couponLinesOf, evaluateCoupon, productNamesIn } from '../catalog/coupon-evaluation.js';
import { findStockUnit } from '../holds/stock-unit.js';
import { type Order, OrderRepository } from './orders.port.js';
import { MAILBOX_URL, TestMailbox } from '../mail/test-mailbox.js';
import { ClientKeys } from './client-key.js';
import { OrderEffects } from './order-effects.js';
import { type DraftLine, OrderService } from './order.service.js';
import { paymentMethodTypes, type PaymentSession, PaymentsPort } from './payments/payments.port.js';
import { ReconciliationService } from './reconciliation.service.js';
import { withSessionId, withSessionPlaceholder } from './session-url.js';

/** A request line priced from the catalog (integer cents), with the stock unit it draws from. */
type PricedLine = DraftLine;

/** The request after the checks that need no catalog. */
interface CheckedRequest {
  request: ParsedCheckoutRequest;
  methodTypes: string[];
}

interface Totals {
  subtotal: number;
  discount: number;
  total: number;
  /**
   * `code` is the catalog's spelling (the hand-off's), `entered` the visitor's (the pages'),
   * `terms` the coupon as the catalog has it now (its uses are held at the order's creation).
   */
  coupon: { code: string; entered: string; terms: CatalogCoupon } | null;
  /** The discount of each line in cents, in the lines' order (all 0 without a coupon). */
  lineDiscounts: number[];
}

const CATALOG_DOWN_AT_CHECKOUT_MESSAGE =
  'Der Ticketshop ist gerade nicht erreichbar. Dein Warenkorb bleibt gespeichert – bitte versuche es in ein paar Minuten erneut.';

/**
 * How long after the payment an order's summary still carries its ticket links and the
 * buyer's e-mail address. The session id sits in the success page's address (browser
 * history, a shared screenshot, a proxy's log); after this the ticket mail and "Tickets
 * erneut senden" serve the tickets.
 */
export const SUMMARY_DETAILS_MS = 24 * 60 * 60 * 1000;

/** Checkouts one client address may have waiting for their payment at once. */
export const MAX_OPEN_CHECKOUTS_PER_CLIENT = 3;

/**
 * 429: the client holds its limit of unpaid checkouts. `retryAfterSeconds` is when the
 * first of them lapses; the controller sends it as Retry-After.
 */
export class TooManyOpenCheckouts extends HttpException {
  constructor(
    readonly retryAfterSeconds: number,
    /** The evening whose limit the client's open checkouts would pass, when that is why. */
    held?: { name: string; max: number },
  ) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    const why = held
      ? `Von deinem Anschluss aus sind in offenen, noch nicht bezahlten Bestellungen schon Plätze für „${held.name}“ reserviert; zusammen mit dieser wären es mehr als ${held.max}.`
      : `Von deinem Anschluss aus sind schon ${MAX_OPEN_CHECKOUTS_PER_CLIENT} Bestellungen offen, die noch nicht bezahlt sind.`;
    super(
      apiErrorBody(
        429,
        `${why} Bitte schließe eine davon ab oder versuche es in ${minutes === 1 ? 'einer Minute' : `${minutes} Minuten`} erneut – dein Warenkorb bleibt erhalten.`,
      ),
      429,
    );
  }
}

const PAYMENT_DOWN_MESSAGE =
  'Die Zahlung kann gerade nicht gestartet werden. Bitte versuche es in ein paar Minuten erneut; dein Warenkorb bleibt erhalten.';

@Injectable()
export class CheckoutService {
  private readonly logger = new Logger('Checkout');
  private readonly origin: string;
  private readonly maxTicketsPerOrder: number;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
    @Inject(OrderService) private readonly orderService: OrderService,
    @Inject(OrderRepository) private readonly orders: OrderRepository,
    @Inject(ReconciliationService) private readonly reconciliation: ReconciliationService,
    @Inject(OrderEffects) private readonly effects: OrderEffects,
    @Inject(TestMailbox) private readonly testMailbox: TestMailbox,
    @Inject(ClientKeys) private readonly clientKeys: ClientKeys,
  ) {
    this.origin = new URL(config.publicUrl).origin;
    this.maxTicketsPerOrder = config.maxTicketsPerOrder;
  }

  /** POST /api/checkout/session (rules §7; rules "Checkout line items", "Capacity"). */
  async createSession(body: unknown, clientIp: string): Promise<CheckoutResponse> {
    const checked = this.check(body);
    const { lines, maxUnits } = await this.price(checked.request.line_items);
    const totals = await this.total(checked.request, lines);
    const order = await this.reserve(checked.request, lines, totals, clientIp, maxUnits);
    // A free order is paid at creation: no provider, straight to the success page.
    if (order.status !== 'open') {
      return { id: order.id, url: withSessionId(checked.request.success_url, order.id) };
    }
    const session = await this.openPaymentSession(order, checked, lines, totals);
    await this.orders.recordSession(order.id, session, Date.now());
    return { id: session.id, url: session.url };
  }

  /**
   * GET /api/checkout/session/:id: what the success page shows, nothing more. An open
   * order is checked with the provider first (rules "The order's life").
   */
  async summary(sessionId: string): Promise<OrderSummary & { refunded: boolean }> {
    const stored = await this.orders.find({ sessionId });
    if (!stored) throw apiError(404, 'Diese Bestellung kennen wir nicht.');
    const order = await this.reconciliation.onView(stored);
    const lines = await this.orders.lines(order.id);
    let status = toSessionStatus(order.status);
    // The provider's expiry event may still be on its way; the clock already knows.
    if (status === 'open' && order.expiresAt <= Date.now()) status = 'expired';
    // Unpaid orders count from their creation: the address typed on the payment page.
    const detailsShown = Date.now() - (order.paidAt ?? order.createdAt) < SUMMARY_DETAILS_MS;
    return {
      id: sessionId,
      status,
      orderNumber: order.context.catalogOrderId,
      lines: lines.map((l) => ({ name: l.name, quantity: l.quantity, unitAmount: l.unitAmount })),
      subtotal: order.context.subtotal,
      discount: order.context.discount,
      total: order.context.total,
      currency: order.currency,
      // rules "Everything the shop sells": shown as the visitor typed it.
      couponCode: order.couponEntered ?? order.couponCode,
      email: detailsShown ? order.context.email : null,
      // rules "Capacity": a late payment without capacity is refunded and the buyer told.
      refunded: isRefund(order.status),
      // rules "Tickets and the door": the success page lists the tickets once paid.
      tickets: status === 'paid' && detailsShown ? await this.effects.tickets(order.id) : [],
      detailsWithheld: !detailsShown,
      mailboxUrl: this.testMailbox.enabled ? MAILBOX_URL : null,
    };
  }

  /** The body, its redirect URLs (our own origin only) and the payment method. */
  private check(body: unknown): CheckedRequest {
    const request = parseBody(checkoutRequestSchema, body);
    this.assertOwnOrigin(request.success_url);
    this.assertOwnOrigin(request.cancel_url);
    const methodTypes = paymentMethodTypes(request.payment_method);
    if (!methodTypes) throw apiError(400, 'Diese Zahlungsart bieten wir nicht an.');
    const units = request.line_items.reduce((sum, item) => sum + item.quantity, 0);
    if (units > MAX_UNITS_PER_ORDER) {
      throw apiError(
        400,
        `Eine Bestellung umfasst höchstens ${MAX_UNITS_PER_ORDER} Artikel. Bitte verringere die Anzahl im Warenkorb.`,
      );
    }
    return { request, methodTypes };
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

  /**
   * Re-prices every line from the catalog: the server never trusts client prices
   * (rules "Checkout line items").
   */
  private async price(
    items: readonly CheckoutLineItem[],
  ): Promise<{ lines: PricedLine[]; maxUnits: Map<number, number> }> {
    const catalog = await whileCatalogUp(() => this.catalog.currentProducts());
    const priced: PricedLine[] = [];
    const problems: LineProblem[] = [];
    for (const item of items) {
      if (item.currency.toLowerCase() !== SHOP_CURRENCY) {
        throw apiError(400, 'Wir nehmen Zahlungen nur in Euro an.');
      }
      const line = lineOf(catalog, item);
      priced.push(line);
      if (toCents(item.amount) !== line.unitAmount) problems.push(problemOf(line, line.stock));
    }
    this.assertPerProductLimits(catalog, priced);
    if (problems.length > 0) {
      throw apiError(
        409,
        problems.length === 1
          ? `Der Preis von „${problems[0]!.name}“ hat sich geändert. Bitte prüfe deinen Warenkorb.`
          : 'Einige Preise haben sich geändert. Bitte prüfe deinen Warenkorb.',
        { lines: problems },
      );
    }
    // An evening's order limit also bounds what one address holds in open checkouts.
    const maxUnits = new Map<number, number>();
    for (const line of priced) {
      const product = catalog.find((p) => p.id === line.productId)!;
      if (isEventProduct(product)) maxUnits.set(product.id, this.maxTicketsPerOrder);
    }
    return { lines: priced, maxUnits };
  }

  /**
   * Units per product, all its tiers or sizes together: MAX_TICKETS_PER_ORDER for an
   * event, 1 for a product sold individually (WooCommerce's own rule).
   */
  private assertPerProductLimits(
    catalog: readonly CatalogProduct[],
    lines: readonly PricedLine[],
  ): void {
    const units = new Map<number, number>();
    for (const l of lines) units.set(l.productId, (units.get(l.productId) ?? 0) + l.quantity);
    for (const [productId, quantity] of units) {
      const product = catalog.find((p) => p.id === productId)!;
      const max = maxPerOrderOf(product, this.maxTicketsPerOrder);
      if (quantity <= max) continue;
      if (max === 1) throw apiError(400, `„${product.name}“ gibt es nur einmal pro Bestellung.`);
      throw apiError(
        400,
        `Von „${product.name}“ sind höchstens ${max} pro Bestellung möglich${isVariable(product) ? ' (alle Varianten zusammen)' : ''}. Bitte verringere die Anzahl im Warenkorb.`,
      );
    }
  }

  /** Subtotal, the re-checked coupon's discount and the total, in cents. */
  private async total(
    request: ParsedCheckoutRequest,
    lines: readonly PricedLine[],
  ): Promise<Totals> {
    const subtotal = linesSubtotalCents(lines);
    const coupon = await this.checkCoupon(request, lines);
    // rules "Coupons": the discount as WooCommerce spreads it; rules §9: clamped at 0.
    const discount = coupon?.discountCents ?? 0;
    return {
      subtotal,
      discount,
      total: totalCents(subtotal, discount),
      coupon: coupon ? { code: coupon.code, entered: coupon.entered, terms: coupon.terms } : null,
      lineDiscounts: lines.map((_, i) => coupon?.lineDiscounts[i] ?? 0),
    };
  }

  /**
   * Re-validates the coupon with the catalog's current data (WooCommerce rules, the buyer's
   * address for the rules bound to one). `code` is the catalog's spelling (what the
   * hand-off sends), `entered` the visitor's (what pages show; rules "Everything the shop
   * sells").
   */
  private async checkCoupon(request: ParsedCheckoutRequest, lines: readonly PricedLine[]) {
    if (!request.coupon) return null;
    const entered = request.coupon.code?.trim();
    if (!entered) throw apiError(400, 'Bitte gib den Gutscheincode erneut ein.');
    const found = await whileCatalogUp(() => this.catalog.findCoupon(entered, { fresh: true }));
    const catalog = await whileCatalogUp(() => this.catalog.currentProducts());
    const result = evaluateCoupon(found, couponLinesOf(catalog, lines), {
      now: new Date(),
      email: request.email ?? null,
      productNames: productNamesIn(catalog),
    });
    if (!result.ok) {
      throw apiError(
        result.statusCode,
        result.message,
        result.needsEmail ? { needsEmail: true } : undefined,
      );
    }
    return {
      ...result.coupon,
      entered,
      terms: found!,
      discountCents: result.discountCents,
      lineDiscounts: result.lineDiscounts,
    };
  }

  /** Takes the capacity and creates the order; 409 with what is left when it does not fit. */
  private async reserve(
    request: ParsedCheckoutRequest,
    lines: PricedLine[],
    totals: Totals,
    clientIp: string,
    maxUnits: ReadonlyMap<number, number>,
  ): Promise<Order> {
    const client = {
      key: await this.clientKeys.of(clientIp),
      maxOpen: MAX_OPEN_CHECKOUTS_PER_CLIENT,
      maxUnits,
    };
    const placed = await this.orderService.place({
      totals: {
        subtotal: totals.subtotal,
        discount: totals.discount,
        total: totals.total,
        email: request.email ?? null,
      },
      // rules "Coupons": each line keeps its share of the discount; the hand-off sends it,
      // so WooCommerce stores the total that was charged.
      lines: lines.map((l, i) => ({ ...l, discount: totals.lineDiscounts[i] ?? 0 })),
      couponCode: totals.coupon?.code ?? null,
      couponEntered: totals.coupon?.entered ?? null,
      paymentMethod: request.payment_method,
      successUrl: request.success_url,
      cancelUrl: request.cancel_url,
      // rules "Waiting list": an offer's link lets this checkout claim the places it holds.
      claimToken: request.waitlist_offer ?? null,
      client,
      // rules "Coupons": the order holds one use of its coupon until the shop has counted it.
      coupon: totals.coupon
        ? {
            terms: totals.coupon.terms,
            readAt: shopReadAt(totals.coupon.terms),
            email: request.email ?? null,
            holder: request.email ? await this.clientKeys.ofEmail(request.email) : null,
          }
        : null,
    });
    if ('order' in placed) return placed.order;
    if ('tooManyOpen' in placed) {
      const { retryAfterMs, productId } = placed.tooManyOpen;
      const held =
        productId === undefined
          ? undefined
          : {
              name: lines.find((l) => l.productId === productId)?.name ?? '',
              max: maxUnits.get(productId) ?? this.maxTicketsPerOrder,
            };
      throw new TooManyOpenCheckouts(Math.ceil(retryAfterMs / 1000), held);
    }
    if ('couponRefused' in placed) {
      const { statusCode, message, needsEmail } = placed.couponRefused;
      throw apiError(statusCode, message, needsEmail ? { needsEmail: true } : undefined);
    }
    const problems = placed.shortages.map((s) => problemOf(s.line, s.available));
    throw apiError(409, shortageMessage(problems), { lines: problems });
  }

  /** The provider's payment page; when it cannot open one, the order is canceled and its places freed. */
  private async openPaymentSession(
    order: Order,
    { request, methodTypes }: CheckedRequest,
    lines: readonly PricedLine[],
    totals: Totals,
  ): Promise<PaymentSession> {
    try {
      return await this.payments.createSession({
        orderId: order.id,
        currency: order.currency,
        lines: lines.map((l) => ({
          name: l.name,
          unitAmount: l.unitAmount,
          quantity: l.quantity,
          image: l.image,
        })),
        discount:
          totals.coupon && totals.discount > 0
            ? { code: totals.coupon.entered, amountOff: totals.discount }
            : null,
        paymentMethodTypes: methodTypes,
        email: order.context.email,
        successUrl: withSessionPlaceholder(request.success_url),
        cancelUrl: request.cancel_url,
        expiresAt: order.expiresAt,
      });
    } catch (err) {
      this.logger.error({ msg: 'payment session failed', orderId: order.id, error: String(err) });
      await this.orderService.cancel(order.id);
      throw apiError(502, PAYMENT_DOWN_MESSAGE);
    }
  }
}

/**
 * Prices one request line from the catalog. rules "Everything the shop sells": a
 * variable product is bought only as one of its variations, at the variation's price and
 * from the variation's stock (or the parent's, when the variation shares it).
 */
function lineOf(catalog: readonly CatalogProduct[], item: CheckoutLineItem): PricedLine {
  const own = findStockUnit(catalog, item.productId, null);
  const product = own?.product;
  if (!own || !product || product.price === undefined) throw notOffered(item.name);
  const base = { productId: product.id, quantity: item.quantity, discount: 0, refundedQuantity: 0 };
  if (!isVariable(product)) {
    if (item.variationId !== undefined) throw notOffered(item.name);
    return {
      ...base,
      productKey: own.productKey,
      stock: own.stock,
      readAt: own.readAt,
      variationId: null,
      name: product.name,
      image: product.images[0]?.src ?? null,
      unitAmount: toCents(product.price),
    };
  }
  if (item.variationId === undefined) {
    throw apiError(
      400,
      `Bitte wähle bei „${product.name}“ aus, welche Variante (z. B. Ticketart oder Größe) du möchtest.`,
    );
  }
  const unit = findStockUnit(catalog, product.id, item.variationId);
  const variation = unit?.variation;
  if (!unit || !variation || !variation.purchasable || variation.price === undefined) {
    throw notOffered(item.name);
  }
  return {
    ...base,
    productKey: unit.productKey,
    stock: unit.stock,
    readAt: unit.readAt,
    variationId: variation.id,
    name: variantLineName(product.name, variation.attributes),
    image: variation.image?.src ?? product.images[0]?.src ?? null,
    unitAmount: toCents(variation.price),
  };
}

function notOffered(name: string) {
  return apiError(400, `„${name}“ gibt es in unserem Angebot nicht (mehr).`);
}

/** rules "Capacity": "ausverkauft" / "nur noch N verfügbar", one sentence per line. */
function shortageMessage(problems: readonly LineProblem[]): string {
  return problems
    .map((p) =>
      !p.available
        ? `„${p.name}“ ist leider ausverkauft.`
        : `Von „${p.name}“ sind nur noch ${p.available} verfügbar.`,
    )
    .join(' ');
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

/** WooCommerce down at checkout: 503 with a German message; the browser keeps the cart. */
async function whileCatalogUp<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof CatalogError) throw apiError(503, CATALOG_DOWN_AT_CHECKOUT_MESSAGE);
    throw err;
  }
}
