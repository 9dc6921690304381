import type { CartItem, Coupon } from '../schemas/wire.schemas.js';

/** A line may never hold more than this many units (the server enforces it too). */
export const MAX_LINE_QUANTITY = 99;
/**
 * Units one checkout may hold in all, tickets and merch together: one request must not be
 * able to reserve a whole evening (the server refuses more; the cart stops here).
 */
export const MAX_UNITS_PER_ORDER = 20;
/** rules §9: the default currency of checkout lines, and the only one the shop sells in. */
export const DEFAULT_CURRENCY = 'eur';
export const SHOP_CURRENCY = DEFAULT_CURRENCY;
export const DEFAULT_PAYMENT_METHOD = 'card';

/** rules §3: a price that is not numeric counts as 0. Numeric strings ("12.50") are numeric. */
export function normalizePrice(value: unknown): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value.trim())
        : Number.NaN;
  // A negative unit price cannot be charged; it is as meaningless as a non-numeric one.
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * rules §3: quantity is a whole number, default 1. Anything not numeric gives the default;
 * fractions are cut to whole units; the result may be 0 or negative (callers decide).
 */
export function normalizeQuantity(value: unknown, fallback = 1): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value.trim())
        : Number.NaN;
  if (!Number.isFinite(n)) return fallback;
  return Math.min(Math.trunc(n), MAX_LINE_QUANTITY);
}

/** Euros to integer cents; money is computed in cents so that 0.1 + 0.2 stays 0.30. */
export function toCents(euros: number): number {
  return Math.round(normalizePrice(euros) * 100);
}

export function fromCents(cents: number): number {
  return cents / 100;
}

/** A priced line in integer cents, as the server and the order keep it. */
export interface CentsLine {
  unitAmount: number;
  quantity: number;
}

/** rules §9: a line's price × quantity, in cents. */
export function lineTotalCents(line: CentsLine): number {
  return line.unitAmount * line.quantity;
}

/** A cart line (unit price in euros, rules §3) in cents. */
export function cartLineCents(item: Pick<CartItem, 'price' | 'quantity'>): CentsLine {
  return { unitAmount: toCents(item.price), quantity: item.quantity };
}

/** rules §9: subtotal = sum of price × quantity over all lines, in cents. */
export function linesSubtotalCents(lines: readonly CentsLine[]): number {
  return lines.reduce((sum, line) => sum + lineTotalCents(line), 0);
}

/** rules §9 subtotal of cart lines (prices in euros), in cents. */
export function subtotalCents(items: readonly Pick<CartItem, 'price' | 'quantity'>[]): number {
  return linesSubtotalCents(items.map(cartLineCents));
}

/** rules §9 total = subtotal − discount; rules "Deliberate deviations" clamps it at 0. */
export function totalCents(subtotal: number, discount: number): number {
  return Math.max(0, subtotal - discount);
}

export function isPercentCoupon(coupon: Pick<Coupon, 'discountType'>): boolean {
  return coupon.discountType === 'percent';
}

/**
 * rules §9: a percent coupon takes subtotal × discount / 100; any other type is a fixed
 * amount in euros. The discount never exceeds the subtotal (rules "Deliberate deviations": total clamped at 0).
 */
export function discountCents(subtotal: number, coupon: Coupon | null | undefined): number {
  if (!coupon) return 0;
  // rules "Coupons": the server's figure, spread per line as WooCommerce does, wins.
  if (coupon.discountCents !== undefined)
    return Math.min(coupon.discountCents, Math.max(subtotal, 0));
  const raw = normalizePrice(coupon.discount);
  const cents = isPercentCoupon(coupon)
    ? Math.round((subtotal * Math.min(raw, 100)) / 100)
    : Math.round(raw * 100);
  return Math.min(cents, Math.max(subtotal, 0));
}

export interface CartTotals {
  subtotal: number;
  discount: number;
  total: number;
  itemCount: number;
}

export interface OrderTotals {
  subtotal: number;
  discount: number;
  total: number;
}

/** Subtotal, discount and total of priced lines, all in cents (rules §9). */
export function orderTotals(
  lines: readonly CentsLine[],
  coupon: Coupon | null | undefined,
): OrderTotals {
  const subtotal = linesSubtotalCents(lines);
  const discount = discountCents(subtotal, coupon);
  return { subtotal, discount, total: totalCents(subtotal, discount) };
}

/** What names a cart's lines for the coupon check: product, variation and quantity. */
export interface CouponKeyLine {
  productId?: number;
  variationId?: number;
  quantity: number;
}

/**
 * The key of the lines a server discount was computed for (order-independent): the cart
 * uses the server's `discountCents` only while its lines still have this key.
 */
export function couponLinesKey(lines: readonly CouponKeyLine[]): string {
  return lines
    .filter((l) => l.productId !== undefined)
    .map((l) => `${l.productId}:${l.variationId ?? ''}x${l.quantity}`)
    .sort()
    .join(',');
}

/** The coupon as it prices these lines: the server's figure only if it was for them. */
export function couponForLines(
  items: readonly CouponKeyLine[],
  coupon: Coupon | null | undefined,
): Coupon | null {
  if (!coupon) return null;
  if (coupon.discountCents === undefined) return coupon;
  if (coupon.linesKey !== undefined && coupon.linesKey === couponLinesKey(items)) return coupon;
  const { discountCents: _stale, ...rest } = coupon;
  return rest;
}

/**
 * The cart's figures in cents, plus the item count. With the server's discount for these
 * lines (rules "Coupons") the cart shows exactly it; until the server has answered for
 * changed lines, the plain estimate of rules §9.
 */
export function cartTotals(
  items: readonly (Pick<CartItem, 'price' | 'quantity'> & Partial<CouponKeyLine>)[],
  coupon: Coupon | null | undefined,
): CartTotals {
  return {
    ...orderTotals(items.map(cartLineCents), couponForLines(items, coupon)),
    itemCount: items.reduce((n, item) => n + item.quantity, 0),
  };
}

/**
 * "12,50 €" (de-DE, EUR) from integer cents: dots between thousands, a no-break space before
 * the sign. Written out rather than asked of Intl.NumberFormat, whose first use costs the
 * browser tens of milliseconds (berlinOffset); pricing.spec.ts holds it to Intl's output.
 */
export function formatCents(cents: number): string {
  const whole = Math.round(cents);
  const abs = Math.abs(whole);
  const euros = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${whole < 0 ? '-' : ''}${euros},${String(abs % 100).padStart(2, '0')}\u00a0€`;
}

/** "12,50 €" from a euro amount as the cart stores it. */
export function formatEuro(euros: number): string {
  return formatCents(toCents(euros));
}
