import fc from 'fast-check';
import { orderSummarySchema } from '@awhh/machines';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { wooCoupon, wooEvent, wooVariable } from '../support/woocommerce-fixtures.js';
import { FakeStripe } from '../support/fake-stripe.js';
import {
  type BackendProcess,
  type CheckoutLine,
  createCheckout,
} from '../fault/support/backend-process.js';
import { openFakeShop, type FakeShop } from '../fault/support/fake-shop.js';

/**
 * rules "Checkout line items": the server never trusts client prices. Whatever a buyer
 * puts into the request (prices, quantities, names, coupons), what Stripe is asked to
 * charge is the catalog's price times a valid quantity, minus the coupon as WooCommerce
 * defines it. Read back from the fake Stripe's received form parameters.
 */

const EVENT = { productId: 901, name: 'Testevent 901', amount: 40, quantity: 1 };
const MERCH = { productId: 902, name: 'Testevent 902', amount: 12.5, quantity: 1 };
/** rules "Everything the shop sells": a tiered event, bought only by tier. */
const TIERED = wooVariable(
  903,
  { name: 'Gestuftes Event', slug: 'gestuftes-event', attribute: 'Ticket' },
  [
    { id: 904, option: 'Early Bird', regular_price: '25.00', stock_quantity: 0 },
    { id: 905, option: 'VIP', regular_price: '59.00', sale_price: '49.00', stock_quantity: 10_000 },
  ],
);
const VIP = { productId: 903, variationId: 905, name: 'Gestuftes Event', amount: 49, quantity: 1 };

let woo: FakeWooCommerce;
let stripe: FakeStripe;
let site: BackendProcess;
let shop: FakeShop;

beforeAll(async () => {
  woo = new FakeWooCommerce({
    products: [
      wooEvent(901, { price: '40.00', regular_price: '40.00', stock_quantity: 10_000 }),
      wooEvent(902, { price: '12.50', regular_price: '12.50', stock_quantity: 10_000 }),
      TIERED.product,
    ],
    variations: TIERED.variations,
    coupons: [
      wooCoupon('ZEHN', { discount_type: 'percent', amount: '10' }),
      wooCoupon('FUENF', { discount_type: 'fixed_cart', amount: '5.00' }),
      wooCoupon('ABGELAUFEN', {
        amount: '50',
        date_expires: '2020-01-01T00:00:00',
        date_expires_gmt: '2020-01-01T00:00:00',
      }),
    ],
  });
  shop = await openFakeShop(woo, 'hostile-price');
  stripe = shop.stripe;
  site = await shop.start();
});

afterAll(() => shop?.close());

/** Sends the request; returns the status and, when a session was made, what Stripe received. */
async function attempt(lines: unknown[], extra: Record<string, unknown> = {}) {
  const before = stripe.sessions.length;
  const res = await createCheckout(site.url, lines as CheckoutLine[], extra);
  const body = (await res.json()) as { id?: string; statusCode?: number; message?: string };
  const created = stripe.sessions.slice(before);
  expect(res.status).toBeLessThan(500);
  return { status: res.status, body, session: created.length === 1 ? created[0]! : null, created };
}

describe('hostile: price, quantity and coupon tampering never change what is charged', () => {
  it('an honest checkout charges the catalog prices (the reference for the cases below)', async () => {
    const { status, session } = await attempt([
      { ...EVENT, quantity: 2 },
      { ...MERCH, quantity: 1 },
    ]);
    expect(status).toBe(201);
    expect(session!.unitAmounts).toEqual([4000, 1250]);
    expect(session!.quantities).toEqual([2, 1]);
    expect(session!.amountTotal).toBe(9250);
  });

  it('a tier is charged at its own (sale) price under "Event – Tier"', async () => {
    const { status, session } = await attempt([{ ...VIP, quantity: 2 }]);
    expect(status).toBe(201);
    expect(session!.unitAmounts).toEqual([4900]);
    expect(session!.amountTotal).toBe(9800);
  });

  it.each([
    [
      'the parent without a tier, at the lowest tier price',
      { ...VIP, variationId: undefined, amount: 25 },
    ],
    ['the VIP tier at the sold-out Early Bird price', { ...VIP, amount: 25 }],
    ['a tier of another product', { ...EVENT, variationId: 905 }],
    ['the sold-out tier', { ...VIP, variationId: 904, amount: 25 }],
    ['a variation id that does not exist', { ...VIP, variationId: 999_999 }],
  ])('%s: refused, no payment session is made', async (_what, line) => {
    const { status, created } = await attempt([line]);
    expect([400, 409]).toContain(status);
    expect(created).toHaveLength(0);
  });

  it.each([
    ['a lower price', { ...EVENT, amount: 0.4 }],
    ['a price of 0', { ...EVENT, amount: 0 }],
    ['a negative price', { ...EVENT, amount: -40 }],
    ['a price in cents instead of euros', { ...EVENT, amount: 4000 }],
    ['a price as a string', { ...EVENT, amount: '1.00' }],
  ])('%s is refused, no payment session is made', async (_what, line) => {
    const { status, created } = await attempt([line]);
    expect([400, 409]).toContain(status);
    expect(created).toEqual([]);
  });

  it('a price with a fraction of a cent is compared in whole cents and charged at the catalog price', async () => {
    const { status, session } = await attempt([{ ...EVENT, amount: 39.999 }]);
    expect(status).toBe(201);
    expect(session!.unitAmounts).toEqual([4000]);
  });

  it.each([
    ['negative', -1],
    ['zero', 0],
    ['fractional', 1.5],
    ['huge', 1e9],
    ['beyond the per-line maximum', 100],
    ['not a number', '2'],
    ['NaN-like', null],
  ])('a %s quantity is refused, no payment session is made', async (_what, quantity) => {
    const { status, created } = await attempt([{ ...EVENT, quantity }]);
    expect(status).toBe(400);
    expect(created).toEqual([]);
  });

  it('a renamed line is charged under the catalog name and price', async () => {
    const { status, session } = await attempt([{ ...EVENT, name: 'Gratis-Gutschein (0 €)' }]);
    expect(status).toBe(201);
    const item = (
      session!.params.line_items as { price_data: { product_data: { name: string } } }[]
    )[0]!;
    expect(item.price_data.product_data.name).toBe('Testevent 901');
    expect(session!.unitAmounts).toEqual([4000]);
  });

  it.each([
    [
      'a 100 % discount claimed for a 10 % coupon',
      { code: 'ZEHN', discountType: 'percent', discount: 100 },
      800,
    ],
    [
      'a fixed 1000 € claimed for a 10 % coupon',
      { code: 'ZEHN', discountType: 'fixed_cart', discount: 1000 },
      800,
    ],
    [
      'a 90 % claimed for a fixed 5 € coupon',
      { code: 'FUENF', discountType: 'percent', discount: 90 },
      500,
    ],
    ['a lower-case code', { code: 'zehn', discountType: 'percent', discount: 10 }, 800],
  ])('coupon: %s gives exactly the real discount', async (_what, coupon, discountCents) => {
    const { status, session } = await attempt([{ ...EVENT, quantity: 2 }], { coupon });
    expect(status).toBe(201);
    expect(session!.unitAmounts).toEqual([4000]);
    expect(session!.couponAmountOff).toBe(discountCents);
    expect(session!.amountTotal).toBe(8000 - discountCents);
    const summary = orderSummarySchema.parse(
      await (await fetch(`${site.url}/api/checkout/session/${session!.id}`)).json(),
    );
    expect({ total: summary.total, discount: summary.discount }).toEqual({
      total: 8000 - discountCents,
      discount: discountCents,
    });
  });

  it.each([
    ['an unknown code', { code: 'GRATIS', discountType: 'percent', discount: 100 }],
    ['an expired code', { code: 'ABGELAUFEN', discountType: 'percent', discount: 50 }],
    ['a discount without a code', { discountType: 'percent', discount: 100 }],
  ])('coupon: %s is refused, no payment session is made', async (_what, coupon) => {
    const { status, created } = await attempt([EVENT], { coupon });
    expect([400, 404, 422]).toContain(status);
    expect(created).toEqual([]);
  });

  it('property: any request either is refused or is charged exactly catalog price × quantity', async () => {
    const prices: Record<number, number> = { 901: 4000, 902: 1250 };
    const line = fc.record({
      productId: fc.constantFrom(901, 902),
      name: fc.string({ minLength: 1, maxLength: 20 }),
      amount: fc.oneof(fc.constantFrom(40, 12.5), fc.double({ min: -100, max: 100, noNaN: true })),
      quantity: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.double({ min: -5, max: 200 })),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 3 }), async (lines) => {
        const { status, session, created } = await attempt(lines);
        if (status !== 201) {
          expect(created).toEqual([]);
          return;
        }
        const expected = lines.map((l) => prices[l.productId]!);
        expect(session!.unitAmounts).toEqual(expected);
        expect(session!.quantities).toEqual(lines.map((l) => l.quantity));
        for (const q of session!.quantities) {
          expect(Number.isInteger(q) && q >= 1 && q <= 99).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });
});
