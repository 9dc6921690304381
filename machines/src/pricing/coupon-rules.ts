import { isPastEvent, parseEventDate } from '../events/next-event.js';
import { formatNumericDate } from '../format/dates.js';
import { formatCents, toCents } from './pricing.js';

/**
 * rules "Coupons": a coupon as WooCommerce applies it (`WC_Discounts`, `WC_Coupon`), in one
 * place for the cart, the checkout and the hand-off. Every restriction the REST API returns
 * is honoured; amounts are euros (or percent), as WooCommerce keeps them.
 */
export interface CouponTerms {
  /** The catalog's spelling (WooCommerce stores codes lower-case). */
  code: string;
  /** `percent`, `fixed_cart` or `fixed_product`; another type counts as `fixed_cart`. */
  discountType: string;
  amount: number;
  /** Day of expiry in site time (`YYYY-MM-DDT00:00:00`); the coupon holds through that day. */
  expiresAt: string | null;
  usageLimit: number | null;
  usageCount: number;
  usageLimitPerUser: number | null;
  /** WooCommerce `used_by`: user ids or e-mail addresses, one entry per use. */
  usedBy: readonly string[];
  productIds: readonly number[];
  excludedProductIds: readonly number[];
  productCategories: readonly number[];
  excludedProductCategories: readonly number[];
  excludeSaleItems: boolean;
  individualUse: boolean;
  limitUsageToXItems: number | null;
  minimumAmount: number | null;
  maximumAmount: number | null;
  /** Addresses or patterns such as `*@firma.de`, lower-case. */
  emailRestrictions: readonly string[];
}

/** A coupon with WooCommerce's defaults for every restriction not given (none). */
export function couponTerms(
  coupon: Pick<CouponTerms, 'code' | 'discountType' | 'amount'> & Partial<CouponTerms>,
): CouponTerms {
  return {
    expiresAt: null,
    usageLimit: null,
    usageCount: 0,
    usageLimitPerUser: null,
    usedBy: [],
    productIds: [],
    excludedProductIds: [],
    productCategories: [],
    excludedProductCategories: [],
    excludeSaleItems: false,
    individualUse: false,
    limitUsageToXItems: null,
    minimumAmount: null,
    maximumAmount: null,
    emailRestrictions: [],
    ...coupon,
  };
}

/** One priced line as the rules see it (integer cents). */
export interface CouponLine {
  productId: number;
  variationId?: number | null;
  name: string;
  unitAmount: number;
  quantity: number;
  /** The product's category ids (a variation: its parent's). */
  categoryIds?: readonly number[];
  onSale?: boolean;
}

export interface CouponCircumstances {
  now: Date;
  /**
   * The buyer's address. `undefined`: not asked yet (the cart), the address rules are left
   * for the checkout; `null`: asked and not given.
   */
  email?: string | null;
  /** Uses held by open checkouts (and paid orders not yet in the shop), all buyers. */
  heldUses?: number;
  /** Of those, the ones by this buyer's address. */
  heldUsesByEmail?: number;
  /** The cart's subtotal in cents when its lines are not known: the spend limits only. */
  subtotal?: number;
  /** Display names of product or variation ids, for the reason a coupon does not apply. */
  productNames?: (ids: readonly number[]) => string[];
}

export type CouponVerdict =
  | {
      ok: true;
      /** The whole discount in cents, as WooCommerce computes it. */
      discount: number;
      /** The discount of each line, in the order of the lines given. */
      lineDiscounts: number[];
      /** The coupon is bound to addresses: the checkout must ask for one. */
      needsEmail: boolean;
    }
  | {
      ok: false;
      statusCode: 404 | 422;
      reason: string;
      /** The refusal is about the buyer's address (missing, not allowed, used up): ask for one. */
      needsEmail?: boolean;
    };

export const UNKNOWN_COUPON_MESSAGE = 'Diesen Gutscheincode kennen wir nicht.';
export const COUPON_USED_UP_MESSAGE = 'Dieser Gutschein ist bereits vollständig eingelöst.';
export const COUPON_USED_BY_EMAIL_MESSAGE =
  'Diesen Gutschein hast du mit dieser E-Mail-Adresse bereits eingelöst.';
export const COUPON_NEEDS_EMAIL_MESSAGE =
  'Dieser Gutschein ist an E-Mail-Adressen gebunden. Bitte gib deine E-Mail-Adresse an.';
export const COUPON_WRONG_EMAIL_MESSAGE = 'Dieser Gutschein gilt nicht für diese E-Mail-Adresse.';
export const COUPON_NOT_APPLICABLE_MESSAGE =
  'Dieser Gutschein gilt für keinen Artikel in deinem Warenkorb.';
export const COUPON_SALE_ITEMS_MESSAGE = 'Dieser Gutschein gilt nicht für reduzierte Artikel.';

/** WooCommerce's product coupon types: eligibility per line. `fixed_cart` is the cart type. */
export function isProductCoupon(coupon: Pick<CouponTerms, 'discountType'>): boolean {
  return coupon.discountType === 'percent' || coupon.discountType === 'fixed_product';
}

function idsOf(line: CouponLine): number[] {
  return line.variationId ? [line.variationId, line.productId] : [line.productId];
}

const meets = (a: readonly number[], b: readonly number[]) => a.some((x) => b.includes(x));

function isExcluded(coupon: CouponTerms, line: CouponLine): boolean {
  return meets(idsOf(line), coupon.excludedProductIds);
}

function isInExcludedCategory(coupon: CouponTerms, line: CouponLine): boolean {
  return meets(line.categoryIds ?? [], coupon.excludedProductCategories);
}

/**
 * `WC_Coupon::is_valid_for_product`: a product coupon discounts a line when the line is one
 * of its products (a variation by its own id or its parent's) or in one of its categories
 * (none of either: every line), and is neither excluded nor, when sale items are excluded,
 * on sale. The cart type discounts every line once the coupon is valid.
 */
export function isLineEligible(coupon: CouponTerms, line: CouponLine): boolean {
  if (!isProductCoupon(coupon)) return true;
  const restricted = coupon.productIds.length > 0 || coupon.productCategories.length > 0;
  let valid =
    !restricted ||
    meets(idsOf(line), coupon.productIds) ||
    meets(line.categoryIds ?? [], coupon.productCategories);
  if (isExcluded(coupon, line) || isInExcludedCategory(coupon, line)) valid = false;
  if (coupon.excludeSaleItems && line.onSale) valid = false;
  return valid;
}

/** `WC_Cart::is_coupon_emails_allowed`: exact or with `*` wildcards, case-insensitive. */
export function emailAllowed(email: string, restrictions: readonly string[]): boolean {
  const address = email.trim().toLowerCase();
  return restrictions.some((raw) => {
    const restriction = raw.trim().toLowerCase();
    if (restriction === address) return true;
    if (!restriction.includes('*')) return false;
    const pattern = restriction
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${pattern}$`).test(address);
  });
}

/** Uses of the coupon by this address in WooCommerce's `used_by`. */
export function usesByEmail(coupon: Pick<CouponTerms, 'usedBy'>, email: string): number {
  const address = email.trim().toLowerCase();
  return coupon.usedBy.filter((entry) => entry.trim().toLowerCase() === address).length;
}

/** The coupon is bound to the buyer's address (restrictions or a per-buyer limit). */
export function couponNeedsEmail(coupon: CouponTerms): boolean {
  return (
    coupon.emailRestrictions.length > 0 ||
    (coupon.usageLimitPerUser !== null && coupon.usageLimitPerUser > 0)
  );
}

function refuse(reason: string, statusCode: 404 | 422 = 422): CouponVerdict {
  return { ok: false, statusCode, reason };
}

/** A refusal about the buyer's address (none, or one the coupon does not take): ask for one. */
function refuseAddress(reason: string): CouponVerdict {
  return { ok: false, statusCode: 422, reason, needsEmail: true };
}

function listNames(names: readonly string[]): string {
  const unique = [...new Set(names)];
  if (unique.length <= 1) return unique[0] ?? '';
  return `${unique.slice(0, -1).join(', ')} und ${unique[unique.length - 1]}`;
}

function onlyFor(coupon: CouponTerms, circumstances: CouponCircumstances): string {
  const names =
    coupon.productIds.length > 0 ? (circumstances.productNames?.(coupon.productIds) ?? []) : [];
  return names.length > 0
    ? `Dieser Gutschein gilt nur für ${listNames(names)}.`
    : COUPON_NOT_APPLICABLE_MESSAGE;
}

/**
 * `WC_Discounts::is_coupon_valid` (in its order), then the address rules WooCommerce checks
 * for a guest's order. A German reason when the coupon does not apply; `lines` may be empty
 * when the cart is not known yet (only the rules that need no lines are checked then).
 */
export function checkCoupon(
  coupon: CouponTerms | null,
  lines: readonly CouponLine[],
  circumstances: CouponCircumstances,
): CouponVerdict {
  if (!coupon) return refuse(UNKNOWN_COUPON_MESSAGE, 404);
  const held = circumstances.heldUses ?? 0;
  if (coupon.usageLimit !== null && coupon.usageLimit > 0) {
    if (coupon.usageCount + held >= coupon.usageLimit) return refuse(COUPON_USED_UP_MESSAGE);
  }
  const email = circumstances.email;
  if (
    typeof email === 'string' &&
    coupon.usageLimitPerUser !== null &&
    coupon.usageLimitPerUser > 0
  ) {
    const used = usesByEmail(coupon, email) + (circumstances.heldUsesByEmail ?? 0);
    if (used >= coupon.usageLimitPerUser) return refuseAddress(COUPON_USED_BY_EMAIL_MESSAGE);
  }
  // WordPress stores the expiry as a day in site time; the coupon holds through that day,
  // which is the same "before the start of today (Berlin)" test as for past events.
  const expires = coupon.expiresAt ? parseEventDate(coupon.expiresAt) : null;
  if (expires && isPastEvent(expires, circumstances.now)) {
    return refuse(`Dieser Gutschein ist seit dem ${formatNumericDate(expires)} abgelaufen.`);
  }
  if (lines.length > 0) {
    const refusal = checkLines(coupon, lines, circumstances);
    if (refusal) return refusal;
  } else if (circumstances.subtotal !== undefined) {
    const refusal = checkSpend(coupon, circumstances.subtotal);
    if (refusal) return refusal;
  }
  if (coupon.emailRestrictions.length > 0 && typeof email === 'string') {
    if (!emailAllowed(email, coupon.emailRestrictions)) {
      return refuseAddress(COUPON_WRONG_EMAIL_MESSAGE);
    }
  }
  if (email === null && couponNeedsEmail(coupon)) return refuseAddress(COUPON_NEEDS_EMAIL_MESSAGE);
  const lineDiscounts = couponLineDiscounts(coupon, lines);
  return {
    ok: true,
    discount: lineDiscounts.reduce((sum, d) => sum + d, 0),
    lineDiscounts,
    needsEmail: couponNeedsEmail(coupon),
  };
}

/** Spend limits and the product rules, as `WC_Discounts` checks them. */
function checkLines(
  coupon: CouponTerms,
  lines: readonly CouponLine[],
  circumstances: CouponCircumstances,
): CouponVerdict | null {
  const subtotal = lines.reduce((sum, l) => sum + l.unitAmount * l.quantity, 0);
  const spent = checkSpend(coupon, subtotal);
  if (spent) return spent;
  if (coupon.productIds.length > 0 && !lines.some((l) => meets(idsOf(l), coupon.productIds))) {
    return refuse(onlyFor(coupon, circumstances));
  }
  if (coupon.productCategories.length > 0) {
    const inCategory = lines.some(
      (l) =>
        !(coupon.excludeSaleItems && l.onSale) &&
        meets(l.categoryIds ?? [], coupon.productCategories),
    );
    if (!inCategory) return refuse(COUPON_NOT_APPLICABLE_MESSAGE);
  }
  if (isProductCoupon(coupon)) {
    if (!lines.some((l) => isLineEligible(coupon, l)))
      return refuse(onlyFor(coupon, circumstances));
    return null;
  }
  // The cart type: one line it may not discount refuses the whole coupon.
  if (coupon.excludeSaleItems && lines.some((l) => l.onSale)) {
    return refuse(COUPON_SALE_ITEMS_MESSAGE);
  }
  const excluded = lines.filter((l) => isExcluded(coupon, l) || isInExcludedCategory(coupon, l));
  if (excluded.length > 0) {
    return refuse(`Dieser Gutschein gilt nicht für ${listNames(excluded.map((l) => l.name))}.`);
  }
  return null;
}

/** `minimum_amount` and `maximum_amount` on the subtotal (cents), both inclusive. */
function checkSpend(coupon: CouponTerms, subtotal: number): CouponVerdict | null {
  const minimum = coupon.minimumAmount === null ? 0 : toCents(coupon.minimumAmount);
  if (minimum > 0 && minimum > subtotal) {
    return refuse(`Dieser Gutschein gilt erst ab einem Bestellwert von ${formatCents(minimum)}.`);
  }
  const maximum = coupon.maximumAmount === null ? 0 : toCents(coupon.maximumAmount);
  if (maximum > 0 && maximum < subtotal) {
    return refuse(
      `Dieser Gutschein gilt nur bis zu einem Bestellwert von ${formatCents(maximum)}.`,
    );
  }
  return null;
}

interface Item {
  index: number;
  /** The line's subtotal in cents (WooCommerce's `$item->price`). */
  price: number;
  quantity: number;
  discount: number;
}

const left = (item: Item) => Math.max(0, item.price - item.discount);

/**
 * The discount of each line in cents, spread as `WC_Discounts::apply_coupon` spreads it
 * (discounts not sequential, WooCommerce's default): lines by subtotal × quantity, highest
 * first; percent floored per line with the missing cents added one unit at a time;
 * `fixed_product` per unit; `fixed_cart` evenly per unit, the rest cent by cent. Never more
 * than a line's subtotal. Lines the coupon does not discount get 0.
 */
export function couponLineDiscounts(coupon: CouponTerms, lines: readonly CouponLine[]): number[] {
  const discounts = lines.map(() => 0);
  const items: Item[] = lines
    .map((l, index) => ({
      index,
      price: l.unitAmount * l.quantity,
      quantity: l.quantity,
      discount: 0,
    }))
    .filter((item, i) => item.price > 0 && item.quantity > 0 && isLineEligible(coupon, lines[i]!));
  // A stable sort, as PHP 8's uasort.
  items.sort((a, b) => b.price * b.quantity - a.price * a.quantity);
  const limit =
    coupon.limitUsageToXItems !== null && coupon.limitUsageToXItems > 0
      ? coupon.limitUsageToXItems
      : 0;
  const amount = Number.isFinite(coupon.amount) && coupon.amount > 0 ? coupon.amount : 0;
  if (coupon.discountType === 'percent') applyPercent(items, Math.min(amount, 100), limit);
  else if (coupon.discountType === 'fixed_product')
    applyFixedProduct(items, toCents(amount), limit);
  else applyFixedCart(items, toCents(amount), limit);
  for (const item of items) discounts[item.index] = item.discount;
  return discounts;
}

function applyPercent(items: Item[], percent: number, limit: number): void {
  let applied = 0;
  let total = 0;
  let base = 0;
  for (const item of items) {
    const quantity = limit && limit - applied < item.quantity ? limit - applied : item.quantity;
    const price = (item.price / item.quantity) * Math.max(0, quantity);
    const discount = Math.min(left(item), Math.floor(price * (percent / 100)));
    item.discount += discount;
    total += discount;
    base += price;
    applied += Math.max(0, quantity);
  }
  const whole = Math.round(base * (percent / 100));
  if (total < whole) applyRemainder(items, whole - total);
}

function applyFixedProduct(items: Item[], amount: number, limit: number): number {
  let applied = 0;
  let total = 0;
  for (const item of items) {
    let discount: number;
    let quantity: number;
    if (limit) {
      quantity = Math.max(0, limit - applied < item.quantity ? limit - applied : item.quantity);
      discount = Math.min(amount, item.price / item.quantity) * quantity;
    } else {
      quantity = item.quantity;
      discount = amount * quantity;
    }
    discount = Math.min(left(item), discount);
    item.discount += discount;
    total += discount;
    applied += quantity;
  }
  return total;
}

function applyFixedCart(all: Item[], amount: number, limit: number): number {
  const items = all.filter((item) => left(item) > 0);
  const count = items.reduce((n, item) => n + item.quantity, 0);
  if (count === 0 || amount <= 0) return 0;
  const perUnit = Math.floor(amount / count);
  if (perUnit > 0) {
    let total = applyFixedProduct(items, perUnit, limit);
    if (total > 0 && total < amount) total += applyFixedCart(items, amount - total, limit);
    return total;
  }
  return applyRemainder(items, amount);
}

/** The last cents, one per unit in line order, while a line has something left. */
function applyRemainder(items: Item[], amount: number): number {
  let total = 0;
  for (const item of items) {
    for (let i = 0; i < item.quantity; i++) {
      const discount = Math.min(left(item), 1);
      total += discount;
      item.discount += discount;
      if (total >= amount) return total;
    }
  }
  return total;
}
