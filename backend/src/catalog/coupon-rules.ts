import {
  formatCents,
  formatNumericDate,
  isPastEvent,
  parseEventDate,
  toCents,
} from '@awhh/machines';
import type { CatalogCoupon } from './catalog.port.js';

export type CouponEvaluation =
  | { ok: true; coupon: { code: string; discountType: string; discount: number } }
  | { ok: false; statusCode: 404 | 422; message: string };

export const UNKNOWN_COUPON_MESSAGE = 'Diesen Gutscheincode kennen wir nicht.';

/**
 * rules "Coupons": WooCommerce semantics. Expiry, usage limit and minimum amount are
 * honoured; `subtotalCents` is optional because the cart page may check a code before
 * the cart is known; checkout always passes it.
 */
export function evaluateCoupon(
  coupon: CatalogCoupon | null,
  subtotalCents: number | undefined,
  now: Date,
): CouponEvaluation {
  if (!coupon) return { ok: false, statusCode: 404, message: UNKNOWN_COUPON_MESSAGE };

  // WordPress stores the expiry as a day in site time; the coupon holds through that day,
  // which is the same "before the start of today (Berlin)" test as for past events.
  const expires = coupon.expiresAt ? parseEventDate(coupon.expiresAt) : null;
  if (expires && isPastEvent(expires, now)) {
    return {
      ok: false,
      statusCode: 422,
      message: `Dieser Gutschein ist seit dem ${formatNumericDate(expires)} abgelaufen.`,
    };
  }
  if (coupon.usageLimit !== null && coupon.usageCount >= coupon.usageLimit) {
    return {
      ok: false,
      statusCode: 422,
      message: 'Dieser Gutschein ist bereits vollständig eingelöst.',
    };
  }
  if (coupon.minimumAmount !== null && subtotalCents !== undefined) {
    const minimum = toCents(coupon.minimumAmount);
    if (minimum > 0 && subtotalCents < minimum) {
      return {
        ok: false,
        statusCode: 422,
        message: `Dieser Gutschein gilt erst ab einem Bestellwert von ${formatCents(minimum)}.`,
      };
    }
  }
  return {
    ok: true,
    coupon: {
      code: coupon.code,
      discountType: coupon.discountType,
      discount: Number.isFinite(coupon.amount) && coupon.amount > 0 ? coupon.amount : 0,
    },
  };
}
