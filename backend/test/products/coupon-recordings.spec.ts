import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkCoupon, type CouponLine } from '@awhh/machines';
import { normalizeCoupon } from '../../src/catalog/adapters/woocommerce.normalize.js';

/**
 * rules "Coupons": each restricted coupon of the recorded WooCommerce 11 shop, applied by the
 * site's rules to the orders the shop was asked to create with it, gives WooCommerce's
 * answer: the same discount on the same lines, or a refusal (with a German reason).
 */
const DIR = join(__dirname, '../../../tests/support/woocommerce-11');
const load = (name: string) =>
  JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8')) as {
    status: number;
    request: { body?: Record<string, unknown> };
    body: unknown;
  };

// The second recorded shop's prices in cents (variable event 12: Regulär 16, VIP 17;
// T-shirt 13; bag 14; simple event 11).
const PRICES: Record<string, number> = {
  '12/16': 3900,
  '12/17': 4900,
  '13/18': 2500,
  '13/20': 2500,
  '14/0': 1200,
  '11/0': 2900,
};
const now = new Date('2026-11-25T12:00:00Z');

function linesOf(request: Record<string, unknown>): CouponLine[] {
  const items = request.line_items as {
    product_id: number;
    variation_id?: number;
    quantity: number;
  }[];
  return items.map((item) => ({
    productId: item.product_id,
    variationId: item.variation_id ?? null,
    name: `${item.product_id}/${item.variation_id ?? 0}`,
    unitAmount: PRICES[`${item.product_id}/${item.variation_id ?? 0}`]!,
    quantity: item.quantity,
  }));
}

const cents = (euros: string | number) => Math.round(Number(euros) * 100);

const cases: [order: string, coupon: string][] = [
  ['NURVIP-on-regular-only', 'NURVIP'],
  ['NURVIP-on-vip-and-shirt', 'NURVIP'],
  ['OHNEMERCH-on-merch-only', 'OHNEMERCH'],
  ['OHNEMERCH-on-ticket-and-shirt', 'OHNEMERCH'],
  ['NURKARLA-as-karla', 'NURKARLA'],
  ['NURKARLA-as-otto', 'NURKARLA'],
  ['EINMALIG-first', 'EINMALIG'],
  ['EINMALIG-second', 'EINMALIG.after-use'],
  ['DECKEL-subtotal-39', 'DECKEL'],
  ['DECKEL-subtotal-117', 'DECKEL'],
  ['MIN60-subtotal-39', 'MIN60'],
];

describe('coupon rules against the recorded WooCommerce answers (rules "Coupons")', () => {
  it.each(cases)('orders.coupon.%s with %s', (orderName, couponName) => {
    const order = load(`orders.coupon.${orderName}`);
    const coupon = normalizeCoupon((load(`coupons.code-${couponName}`).body as unknown[])[0]);
    const request = order.request.body!;
    const email = (request.billing as { email: string }).email;
    const verdict = checkCoupon(coupon, linesOf(request), { now, email });
    if (order.status === 400) {
      expect(verdict).toMatchObject({ ok: false, statusCode: 422 });
      if (!verdict.ok) expect(verdict.reason).toMatch(/Gutschein/);
      return;
    }
    expect(order.status).toBe(201);
    const body = order.body as {
      discount_total: string;
      line_items: { subtotal: string; total: string }[];
    };
    expect(verdict).toMatchObject({
      ok: true,
      discount: cents(body.discount_total),
      lineDiscounts: body.line_items.map((l) => cents(l.subtotal) - cents(l.total)),
    });
  });

  it('ALLEIN and HAFEN20 together: each discount as WooCommerce computed it (not sequential)', () => {
    const order = load('orders.coupon.ALLEIN-plus-HAFEN20');
    const lines = linesOf(order.request.body!);
    const recorded = (order.body as { coupon_lines: { code: string; discount: string }[] })
      .coupon_lines;
    for (const name of ['ALLEIN', 'HAFEN20']) {
      const coupon = normalizeCoupon((load(`coupons.code-${name}`).body as unknown[])[0]);
      const verdict = checkCoupon(coupon, lines, { now });
      const expected = recorded.find((c) => c.code === name.toLowerCase())!;
      expect(verdict).toMatchObject({ ok: true, discount: cents(expected.discount) });
    }
  });

  it('normalises every restriction the REST API returns', () => {
    const einmalig = normalizeCoupon(
      (load('coupons.code-EINMALIG.after-use').body as unknown[])[0],
    );
    expect(einmalig).toMatchObject({
      code: 'einmalig',
      usageLimit: 1,
      usageLimitPerUser: 1,
      usageCount: 1,
      usedBy: ['otto@example.org'],
    });
    expect(normalizeCoupon((load('coupons.code-NURVIP').body as unknown[])[0])).toMatchObject({
      productIds: [17],
    });
    expect(normalizeCoupon((load('coupons.code-OHNEMERCH').body as unknown[])[0])).toMatchObject({
      excludedProductIds: [13, 14],
    });
    expect(normalizeCoupon((load('coupons.code-NURKARLA').body as unknown[])[0])).toMatchObject({
      emailRestrictions: ['karla@example.org'],
    });
    expect(normalizeCoupon((load('coupons.code-ALLEIN').body as unknown[])[0])).toMatchObject({
      individualUse: true,
    });
    expect(normalizeCoupon((load('coupons.code-DECKEL').body as unknown[])[0])).toMatchObject({
      maximumAmount: 100,
      minimumAmount: null,
    });
    expect(normalizeCoupon((load('coupons.code-MIN60').body as unknown[])[0])).toMatchObject({
      minimumAmount: 60,
      maximumAmount: null,
    });
    // The use given back when the order was cancelled.
    expect(
      normalizeCoupon((load('coupons.code-EINMALIG.after-cancel').body as unknown[])[0]),
    ).toMatchObject({ usageCount: 0, usedBy: [] });
  });
});
