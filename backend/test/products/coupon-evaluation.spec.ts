import { couponTerms } from '@awhh/machines';
import type { CatalogCoupon } from '../../src/catalog/catalog.port.js';
import { evaluateCoupon } from '../../src/catalog/coupon-evaluation.js';

const coupon = (extra: Partial<CatalogCoupon> = {}): CatalogCoupon =>
  couponTerms({
    code: 'afterwork10',
    discountType: 'percent',
    amount: 10,
    expiresAt: null,
    usageLimit: null,
    usageCount: 0,
    minimumAmount: null,
    ...extra,
  });

// 2026-06-15 12:00 in Berlin (summer time).
const now = new Date('2026-06-15T10:00:00Z');

describe('evaluateCoupon (WooCommerce semantics, rules "Coupons")', () => {
  it('does not know a missing coupon (404)', () => {
    expect(evaluateCoupon(null, [], { now, subtotal: 5000 })).toEqual({
      ok: false,
      statusCode: 404,
      message: 'Diesen Gutscheincode kennen wir nicht.',
    });
  });

  it('accepts a valid coupon and passes type and amount through', () => {
    expect(evaluateCoupon(coupon({ discountType: 'fixed_cart', amount: 5 }), [], { now })).toEqual({
      ok: true,
      coupon: { code: 'afterwork10', discountType: 'fixed_cart', discount: 5 },
      discountCents: 0,
      lineDiscounts: [],
      needsEmail: false,
    });
  });

  it('holds through the whole expiry day (Berlin) and refuses from the next day', () => {
    expect(evaluateCoupon(coupon({ expiresAt: '2026-06-15T00:00:00' }), [], { now }).ok).toBe(true);
    const late = new Date('2026-06-15T21:59:00Z'); // 23:59 Berlin
    expect(evaluateCoupon(coupon({ expiresAt: '2026-06-15T00:00:00' }), [], { now: late }).ok).toBe(
      true,
    );
    expect(evaluateCoupon(coupon({ expiresAt: '2026-06-14T00:00:00' }), [], { now })).toEqual({
      ok: false,
      statusCode: 422,
      message: 'Dieser Gutschein ist seit dem 14.06.2026 abgelaufen.',
    });
  });

  it('ignores an expiry date it cannot read rather than refusing every customer', () => {
    expect(evaluateCoupon(coupon({ expiresAt: 'nie' }), [], { now }).ok).toBe(true);
  });

  it('refuses a coupon whose usage limit is reached', () => {
    expect(evaluateCoupon(coupon({ usageLimit: 3, usageCount: 2 }), [], { now }).ok).toBe(true);
    expect(evaluateCoupon(coupon({ usageLimit: 3, usageCount: 3 }), [], { now })).toMatchObject({
      ok: false,
      statusCode: 422,
    });
  });

  it('checks the minimum amount in cents when the subtotal is known', () => {
    const min = coupon({ minimumAmount: 49.9 });
    expect(evaluateCoupon(min, [], { now, subtotal: 4989 })).toEqual({
      ok: false,
      statusCode: 422,
      message: 'Dieser Gutschein gilt erst ab einem Bestellwert von 49,90\u00a0€.',
    });
    expect(evaluateCoupon(min, [], { now, subtotal: 4990 }).ok).toBe(true);
    expect(evaluateCoupon(min, [], { now }).ok).toBe(true);
  });

  it('never hands out a negative or non-numeric discount', () => {
    const result = evaluateCoupon(coupon({ amount: Number.NaN }), [], { now });
    expect(result).toMatchObject({ ok: true, coupon: { discount: 0 } });
  });
});
