import fc from 'fast-check';
import {
  checkCoupon,
  COUPON_NEEDS_EMAIL_MESSAGE,
  COUPON_NOT_APPLICABLE_MESSAGE,
  COUPON_SALE_ITEMS_MESSAGE,
  COUPON_USED_BY_EMAIL_MESSAGE,
  COUPON_USED_UP_MESSAGE,
  COUPON_WRONG_EMAIL_MESSAGE,
  type CouponLine,
  couponLineDiscounts,
  type CouponTerms,
  couponTerms,
  emailAllowed,
  isLineEligible,
} from './coupon-rules.js';

const now = new Date('2026-11-25T12:00:00Z');

function coupon(terms: Partial<CouponTerms>): CouponTerms {
  return couponTerms({ code: 'x', discountType: 'percent', amount: 10, ...terms });
}

// The recorded shop (second recording): simple event 11, variable event 12 (Regulär 16,
// VIP 17), T-shirt 13 (S 18, L 20), bag 14.
const regular: CouponLine = {
  productId: 12,
  variationId: 16,
  name: 'Sommer-Afterwork - Regulär',
  unitAmount: 3900,
  quantity: 1,
};
const vip: CouponLine = {
  productId: 12,
  variationId: 17,
  name: 'Sommer-Afterwork - VIP',
  unitAmount: 4900,
  quantity: 1,
};
const shirtL: CouponLine = {
  productId: 13,
  variationId: 20,
  name: 'AWHH T-Shirt - L',
  unitAmount: 2500,
  quantity: 1,
};
const shirtS: CouponLine = {
  productId: 13,
  variationId: 18,
  name: 'AWHH T-Shirt - S',
  unitAmount: 2500,
  quantity: 1,
};
const bag: CouponLine = { productId: 14, name: 'AWHH Tasche', unitAmount: 1500, quantity: 1 };
const simpleEvent: CouponLine = {
  productId: 11,
  name: 'After Work Speicherstadt',
  unitAmount: 2900,
  quantity: 1,
};

const NURVIP = coupon({ code: 'nurvip', amount: 50, productIds: [17] });
const OHNEMERCH = coupon({ code: 'ohnemerch', amount: 10, excludedProductIds: [13, 14] });
const NURKARLA = coupon({
  code: 'nurkarla',
  discountType: 'fixed_cart',
  amount: 10,
  emailRestrictions: ['karla@example.org'],
});
const EINMALIG = coupon({ code: 'einmalig', amount: 15, usageLimit: 1, usageLimitPerUser: 1 });
const DECKEL = coupon({ code: 'deckel', amount: 30, maximumAmount: 100 });
const MIN60 = coupon({ code: 'min60', discountType: 'fixed_cart', amount: 10, minimumAmount: 60 });

describe('coupon rules as WooCommerce applies them (rules "Coupons")', () => {
  it('NURVIP: only the VIP variation; refused on a Regulär ticket with its reason', () => {
    const names = (ids: readonly number[]) =>
      ids.map((id) => (id === 17 ? 'VIP-Tickets' : String(id)));
    const refused = checkCoupon(NURVIP, [regular], { now, productNames: names });
    expect(refused).toEqual({
      ok: false,
      statusCode: 422,
      reason: 'Dieser Gutschein gilt nur für VIP-Tickets.',
    });
    // orders.coupon.NURVIP-on-vip-and-shirt: 24.50 on the VIP line, none on the shirt.
    const applied = checkCoupon(NURVIP, [vip, shirtL], { now });
    expect(applied).toMatchObject({ ok: true, discount: 2450, lineDiscounts: [2450, 0] });
  });

  it('a variation matches by its parent id too', () => {
    const byParent = coupon({ productIds: [12] });
    expect(isLineEligible(byParent, regular)).toBe(true);
    expect(isLineEligible(byParent, shirtL)).toBe(false);
  });

  it('OHNEMERCH: excluded products get nothing; only excluded products refuse the coupon', () => {
    expect(checkCoupon(OHNEMERCH, [shirtS, bag], { now })).toMatchObject({
      ok: false,
      reason: COUPON_NOT_APPLICABLE_MESSAGE,
    });
    // orders.coupon.OHNEMERCH-on-ticket-and-shirt: 2.90 on the ticket.
    expect(checkCoupon(OHNEMERCH, [simpleEvent, shirtS], { now })).toMatchObject({
      ok: true,
      discount: 290,
      lineDiscounts: [290, 0],
    });
  });

  it('a cart coupon with an excluded product in the cart is refused, naming it', () => {
    const fixed = coupon({ discountType: 'fixed_cart', amount: 5, excludedProductIds: [14] });
    expect(checkCoupon(fixed, [simpleEvent, bag], { now })).toMatchObject({
      ok: false,
      reason: 'Dieser Gutschein gilt nicht für AWHH Tasche.',
    });
  });

  it('NURKARLA: e-mail restrictions, with wildcards; the cart is told an address is needed', () => {
    expect(checkCoupon(NURKARLA, [regular], { now, email: 'otto@example.org' })).toMatchObject({
      ok: false,
      reason: COUPON_WRONG_EMAIL_MESSAGE,
    });
    expect(checkCoupon(NURKARLA, [regular], { now, email: 'Karla@Example.org' })).toMatchObject({
      ok: true,
      discount: 1000,
    });
    expect(checkCoupon(NURKARLA, [regular], { now })).toMatchObject({ ok: true, needsEmail: true });
    expect(checkCoupon(NURKARLA, [regular], { now, email: null })).toMatchObject({
      ok: false,
      reason: COUPON_NEEDS_EMAIL_MESSAGE,
      needsEmail: true,
    });
    expect(emailAllowed('anna@firma.de', ['*@firma.de'])).toBe(true);
    expect(emailAllowed('anna@firma.de.evil', ['*@firma.de'])).toBe(false);
    expect(emailAllowed('anna@firmaxde', ['*@firma.de'])).toBe(false);
  });

  it('EINMALIG: the usage limit counts held uses; the per-buyer limit counts used_by', () => {
    // orders.coupon.EINMALIG-first: 5.85 on 39.00.
    expect(checkCoupon(EINMALIG, [regular], { now, email: 'otto@example.org' })).toMatchObject({
      ok: true,
      discount: 585,
    });
    expect(checkCoupon(EINMALIG, [regular], { now, heldUses: 1 })).toMatchObject({
      ok: false,
      reason: COUPON_USED_UP_MESSAGE,
    });
    const afterUse = { ...EINMALIG, usageCount: 1, usedBy: ['otto@example.org'] };
    expect(checkCoupon(afterUse, [regular], { now, email: 'rita@example.org' })).toMatchObject({
      ok: false,
      reason: COUPON_USED_UP_MESSAGE,
    });
    const perBuyer = { ...EINMALIG, usageLimit: null, usedBy: ['otto@example.org'] };
    expect(checkCoupon(perBuyer, [regular], { now, email: 'OTTO@example.org' })).toMatchObject({
      ok: false,
      reason: COUPON_USED_BY_EMAIL_MESSAGE,
    });
    expect(checkCoupon(perBuyer, [regular], { now, email: 'rita@example.org' })).toMatchObject({
      ok: true,
    });
  });

  it('held uses: the uses open checkouts hold count, all and per buyer; a refusal about the address says so', () => {
    const perBuyer = { ...EINMALIG, usageLimit: null };
    expect(
      checkCoupon(perBuyer, [regular], { now, email: 'rita@example.org', heldUsesByEmail: 1 }),
    ).toEqual({
      ok: false,
      statusCode: 422,
      reason: COUPON_USED_BY_EMAIL_MESSAGE,
      needsEmail: true,
    });
    expect(
      checkCoupon(perBuyer, [regular], { now, email: 'rita@example.org', heldUses: 5 }),
    ).toMatchObject({ ok: true });
    expect(checkCoupon(NURKARLA, [regular], { now, email: 'otto@example.org' })).toEqual({
      ok: false,
      statusCode: 422,
      reason: COUPON_WRONG_EMAIL_MESSAGE,
      needsEmail: true,
    });
    // Used up for everybody: another address would not help.
    expect(
      checkCoupon(EINMALIG, [regular], { now, email: 'rita@example.org', heldUses: 1 }),
    ).toEqual({ ok: false, statusCode: 422, reason: COUPON_USED_UP_MESSAGE });
  });

  it('DECKEL and MIN60: maximum and minimum spend on the subtotal', () => {
    expect(checkCoupon(DECKEL, [{ ...regular, quantity: 3 }], { now })).toMatchObject({
      ok: false,
      reason: 'Dieser Gutschein gilt nur bis zu einem Bestellwert von 100,00\u00a0€.',
    });
    expect(checkCoupon(DECKEL, [regular], { now })).toMatchObject({ ok: true, discount: 1170 });
    expect(checkCoupon(MIN60, [regular], { now })).toMatchObject({
      ok: false,
      reason: 'Dieser Gutschein gilt erst ab einem Bestellwert von 60,00\u00a0€.',
    });
  });

  it('expiry: holds through its day (Berlin), refused after', () => {
    const expired = coupon({ expiresAt: '2026-11-13T00:00:00' });
    expect(checkCoupon(expired, [regular], { now })).toMatchObject({
      ok: false,
      reason: 'Dieser Gutschein ist seit dem 13.11.2026 abgelaufen.',
    });
    expect(
      checkCoupon(coupon({ expiresAt: '2026-11-25T00:00:00' }), [regular], { now }),
    ).toMatchObject({ ok: true });
  });

  it('sale items: a product coupon skips them, a cart coupon is refused', () => {
    const onSale = { ...vip, onSale: true };
    expect(couponLineDiscounts(coupon({ excludeSaleItems: true }), [onSale, regular])).toEqual([
      0, 390,
    ]);
    expect(
      checkCoupon(
        coupon({ discountType: 'fixed_cart', amount: 5, excludeSaleItems: true }),
        [onSale],
        { now },
      ),
    ).toMatchObject({ ok: false, reason: COUPON_SALE_ITEMS_MESSAGE });
  });

  it('categories: a line of the category (a variation by its parent) is discounted', () => {
    const tickets = coupon({ productCategories: [7] });
    expect(
      couponLineDiscounts(tickets, [
        { ...regular, categoryIds: [7] },
        { ...shirtL, categoryIds: [9] },
      ]),
    ).toEqual([390, 0]);
    expect(checkCoupon(tickets, [{ ...shirtL, categoryIds: [9] }], { now })).toMatchObject({
      ok: false,
    });
    expect(
      couponLineDiscounts(coupon({ excludedProductCategories: [9] }), [
        { ...regular, categoryIds: [7] },
        { ...shirtL, categoryIds: [9] },
      ]),
    ).toEqual([390, 0]);
  });

  it('fixed_product per unit, limit_usage_to_x_items on the dearest lines first', () => {
    const perTicket = coupon({ discountType: 'fixed_product', amount: 5, limitUsageToXItems: 2 });
    expect(couponLineDiscounts(perTicket, [{ ...regular, quantity: 3 }, vip])).toEqual([1000, 0]);
    expect(
      couponLineDiscounts(coupon({ discountType: 'fixed_product', amount: 50 }), [
        vip,
        { ...bag, quantity: 2 },
      ]),
    ).toEqual([4900, 3000]);
    expect(
      couponLineDiscounts(coupon({ amount: 50, limitUsageToXItems: 1 }), [
        { ...regular, quantity: 2 },
      ]),
    ).toEqual([1950]);
  });

  it('fixed_cart: evenly per unit, the cents left over one by one (FEST5 on two lines)', () => {
    expect(
      couponLineDiscounts(coupon({ discountType: 'fixed_cart', amount: 5 }), [regular, vip]),
    ).toEqual([250, 250]);
    expect(
      couponLineDiscounts(coupon({ discountType: 'fixed_cart', amount: 10 }), [
        { ...regular, quantity: 3 },
      ]),
    ).toEqual([1000]);
    expect(
      couponLineDiscounts(coupon({ discountType: 'fixed_cart', amount: 0.05 }), [
        regular,
        vip,
        bag,
      ]),
    ).toEqual([2, 2, 1]);
  });

  const lineArb = fc.record({
    productId: fc.integer({ min: 1, max: 6 }),
    variationId: fc.option(fc.integer({ min: 10, max: 14 }), { nil: undefined }),
    name: fc.constant('Artikel'),
    unitAmount: fc.integer({ min: 0, max: 20_000 }),
    quantity: fc.integer({ min: 1, max: 20 }),
    categoryIds: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 2 }),
    onSale: fc.boolean(),
  });
  const couponArb = fc.record({
    discountType: fc.constantFrom('percent', 'fixed_cart', 'fixed_product'),
    amount: fc.oneof(
      fc.integer({ min: 0, max: 150 }),
      fc.double({ min: 0, max: 500, noNaN: true }),
    ),
    productIds: fc.array(fc.integer({ min: 1, max: 14 }), { maxLength: 2 }),
    excludedProductIds: fc.array(fc.integer({ min: 1, max: 14 }), { maxLength: 2 }),
    productCategories: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 2 }),
    excludedProductCategories: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 1 }),
    excludeSaleItems: fc.boolean(),
    limitUsageToXItems: fc.option(fc.integer({ min: 1, max: 10 }), { nil: null }),
  });

  it('never discounts a line below 0 nor a line the coupon does not cover', () => {
    fc.assert(
      fc.property(couponArb, fc.array(lineArb, { minLength: 1, maxLength: 6 }), (terms, lines) => {
        const c = coupon(terms);
        const discounts = couponLineDiscounts(c, lines);
        discounts.forEach((d, i) => {
          const line = lines[i]!;
          expect(Number.isInteger(d)).toBe(true);
          expect(d).toBeGreaterThanOrEqual(0);
          expect(d).toBeLessThanOrEqual(line.unitAmount * line.quantity);
          if (!isLineEligible(c, line)) expect(d).toBe(0);
        });
      }),
    );
  });

  it('percent gives the rounded percentage of what it covers (capped at 100)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.array(lineArb, { minLength: 1, maxLength: 6 }),
        (percent, lines) => {
          const c = coupon({ amount: percent });
          const covered = lines.reduce((s, l) => s + l.unitAmount * l.quantity, 0);
          const total = couponLineDiscounts(c, lines).reduce((s, d) => s + d, 0);
          expect(total).toBe(Math.round(covered * (percent / 100)));
        },
      ),
    );
  });

  it('fixed_cart gives its whole amount, or the subtotal when that is less', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50_000 }),
        fc.array(lineArb, { minLength: 1, maxLength: 6 }),
        (cents, lines) => {
          const c = coupon({ discountType: 'fixed_cart', amount: cents / 100 });
          const subtotal = lines.reduce((s, l) => s + l.unitAmount * l.quantity, 0);
          const total = couponLineDiscounts(c, lines).reduce((s, d) => s + d, 0);
          expect(total).toBe(Math.min(cents, subtotal));
        },
      ),
    );
  });

  it('fixed_product gives its amount per covered unit, at most each line', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50_000 }),
        fc.array(lineArb, { minLength: 1, maxLength: 6 }),
        (cents, lines) => {
          const c = coupon({ discountType: 'fixed_product', amount: cents / 100 });
          const expected = lines.reduce(
            (s, l) => s + Math.min(cents * l.quantity, l.unitAmount * l.quantity),
            0,
          );
          expect(couponLineDiscounts(c, lines).reduce((s, d) => s + d, 0)).toBe(expected);
        },
      ),
    );
  });

  it('an accepted coupon discounts at least one line of a cart it covers', () => {
    fc.assert(
      fc.property(couponArb, fc.array(lineArb, { minLength: 1, maxLength: 6 }), (terms, lines) => {
        const c = coupon(terms);
        const verdict = checkCoupon(c, lines, { now });
        if (verdict.ok && isLineEligible(c, lines[0]!) && c.discountType !== 'fixed_cart') {
          expect(lines.some((l) => isLineEligible(c, l))).toBe(true);
        }
        if (!verdict.ok) expect(verdict.reason).toMatch(/Gutschein/);
      }),
    );
  });
});
