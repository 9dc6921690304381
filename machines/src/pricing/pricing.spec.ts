import fc from 'fast-check';
import {
  cartLineCents,
  cartTotals,
  couponLinesKey,
  discountCents,
  formatCents,
  formatEuro,
  lineTotalCents,
  MAX_LINE_QUANTITY,
  normalizePrice,
  normalizeQuantity,
  orderTotals,
  subtotalCents,
  toCents,
  totalCents,
} from './pricing.js';

describe('rules §3 cart item normalisation', () => {
  it('rules §3: a price that is not numeric is treated as 0', () => {
    for (const price of ['abc', '', '  ', null, undefined, {}, [], Number.NaN, Infinity, true]) {
      expect(normalizePrice(price)).toBe(0);
    }
  });

  it('rules §3: numeric prices and numeric strings keep their value', () => {
    expect(normalizePrice(12.5)).toBe(12.5);
    expect(normalizePrice('39.90')).toBe(39.9);
    expect(normalizePrice(' 5 ')).toBe(5);
  });

  it('negative prices cannot be charged and count as 0', () => {
    expect(normalizePrice(-3)).toBe(0);
  });

  it('rules §3: quantity is a whole number with default 1', () => {
    expect(normalizeQuantity(undefined)).toBe(1);
    expect(normalizeQuantity('x')).toBe(1);
    expect(normalizeQuantity(2.9)).toBe(2);
    expect(normalizeQuantity('3')).toBe(3);
    expect(normalizeQuantity(0)).toBe(0);
  });
});

describe('rules §9 totals', () => {
  const items = [
    { price: 12.5, quantity: 2 },
    { price: 0.1, quantity: 3 },
  ];

  it('rules §9: subtotal is the sum of price times quantity over all lines', () => {
    expect(subtotalCents(items)).toBe(2500 + 30);
  });

  it('rules §9: a percent coupon discounts subtotal times discount/100', () => {
    expect(discountCents(10_000, { discountType: 'percent', discount: 15 })).toBe(1500);
  });

  it('rules §9: any other coupon type is a fixed amount', () => {
    expect(discountCents(10_000, { discountType: 'fixed_cart', discount: 5 })).toBe(500);
    expect(discountCents(10_000, { discountType: 'whatever', discount: 7.5 })).toBe(750);
  });

  it('rules §9: total is subtotal minus discount', () => {
    expect(cartTotals(items, { discountType: 'fixed_cart', discount: 5 }).total).toBe(2030);
  });

  it('rules §9 and "Deliberate deviations": the total is clamped at 0, never negative', () => {
    const totals = cartTotals([{ price: 10, quantity: 1 }], {
      discountType: 'fixed',
      discount: 50,
    });
    expect(totals).toEqual({ subtotal: 1000, discount: 1000, total: 0, itemCount: 1 });
  });

  it('computes in integer cents, so 0.1 + 0.2 is exactly 30 cents', () => {
    expect(
      subtotalCents([
        { price: 0.1, quantity: 1 },
        { price: 0.2, quantity: 1 },
      ]),
    ).toBe(30);
  });

  it('formats money de-DE in EUR ("12,50 €")', () => {
    expect(formatCents(1250)).toBe('12,50\u00a0€');
    expect(formatEuro(1234.5)).toBe('1.234,50\u00a0€');
    expect(formatCents(-1250)).toBe('-12,50\u00a0€');
    expect(formatCents(0)).toBe('0,00\u00a0€');
  });

  it('formats any amount of cents exactly as Intl de-DE EUR does', () => {
    const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });
    fc.assert(
      fc.property(
        // Up to a hundred billion euros: beyond, cents / 100 as a double loses the cent.
        fc.oneof(
          fc.integer({ min: -1_000_000, max: 1_000_000 }),
          fc.integer({ min: -1e13, max: 1e13 }),
        ),
        (cents) => {
          expect(formatCents(cents)).toBe(euro.format(cents / 100));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('pricing properties', () => {
  const line = fc.record({
    price: fc.oneof(
      fc.double({ min: 0, max: 10_000, noNaN: true }),
      fc.constantFrom('abc', '', '12.50'),
    ),
    quantity: fc.integer({ min: 1, max: 99 }),
  });
  const coupon = fc.option(
    fc.record({
      discountType: fc.constantFrom('percent', 'fixed_cart', 'fixed_product', ''),
      discount: fc.double({ min: -100, max: 100_000, noNaN: true }),
    }),
    { nil: null },
  );

  it('totals are whole cents, never negative, and the discount never exceeds the subtotal', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), coupon, (raw, c) => {
        const items = raw.map((l) => ({ price: normalizePrice(l.price), quantity: l.quantity }));
        const t = cartTotals(items, c);
        expect(Number.isInteger(t.subtotal) && Number.isInteger(t.discount)).toBe(true);
        expect(t.total).toBeGreaterThanOrEqual(0);
        expect(t.discount).toBeLessThanOrEqual(t.subtotal);
        expect(t.total).toBe(t.subtotal - t.discount);
      }),
    );
  });

  it('the subtotal of two carts together is the sum of their subtotals', () => {
    fc.assert(
      fc.property(fc.array(line), fc.array(line), (a, b) => {
        const norm = (ls: typeof a) =>
          ls.map((l) => ({ price: normalizePrice(l.price), quantity: l.quantity }));
        expect(subtotalCents([...norm(a), ...norm(b)])).toBe(
          subtotalCents(norm(a)) + subtotalCents(norm(b)),
        );
      }),
    );
  });

  it('a percent coupon never discounts more than the subtotal', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        (sub, pct) => {
          expect(
            discountCents(sub, { discountType: 'percent', discount: pct }),
          ).toBeLessThanOrEqual(sub);
        },
      ),
    );
  });

  it('toCents rounds to whole cents', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), (euros) => {
        expect(Number.isInteger(toCents(euros))).toBe(true);
      }),
    );
  });
});

describe('money in one place (integer cents shared by cart, checkout, success and server)', () => {
  it('a line total is unit price × quantity in cents', () => {
    expect(lineTotalCents({ unitAmount: 4900, quantity: 2 })).toBe(9800);
    expect(lineTotalCents(cartLineCents({ price: 24.9, quantity: 3 }))).toBe(7470);
  });

  it('the server totals of priced lines equal the cart totals of the same lines', () => {
    const coupon = fc.option(
      fc.record({
        discountType: fc.constantFrom('percent', 'fixed_cart'),
        discount: fc.integer({ min: 0, max: 20_000 }).map((n) => n / 100),
      }),
      { nil: null },
    );
    const item = fc.record({
      price: fc.integer({ min: 0, max: 100_000 }).map((n) => n / 100),
      quantity: fc.integer({ min: 1, max: MAX_LINE_QUANTITY }),
    });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 8 }), coupon, (items, c) => {
        const { itemCount: _count, ...cart } = cartTotals(items, c);
        expect(orderTotals(items.map(cartLineCents), c)).toEqual(cart);
        expect(cart.total).toBe(totalCents(cart.subtotal, cart.discount));
        expect(cart.total).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

describe('rules "Coupons": the server\'s discount in the cart', () => {
  const lines = [
    { id: '1090:1093', productId: 1090, variationId: 1093, name: 'VIP', price: 49, quantity: 1 },
    {
      id: '1090:1091',
      productId: 1090,
      variationId: 1091,
      name: 'Regulär',
      price: 25,
      quantity: 1,
    },
  ];
  const nurvip = { code: 'NURVIP', discountType: 'percent', discount: 50 };

  it('uses the figure the server computed for these lines, in any order', () => {
    const coupon = {
      ...nurvip,
      discountCents: 2450,
      linesKey: couponLinesKey([...lines].reverse()),
    };
    expect(cartTotals(lines, coupon)).toMatchObject({ discount: 2450, total: 4950 });
    expect(discountCents(7400, coupon)).toBe(2450);
  });

  it('never a figure for other lines: until the server answers, the plain estimate', () => {
    const coupon = { ...nurvip, discountCents: 2450, linesKey: couponLinesKey(lines.slice(0, 1)) };
    expect(cartTotals(lines, coupon).discount).toBe(cartTotals(lines, nurvip).discount);
  });

  it('never more than the subtotal', () => {
    expect(discountCents(1000, { ...nurvip, discountCents: 2450 })).toBe(1000);
  });
});
