import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import {
  type Recording,
  type WooCoupon,
  wooProduct,
  wooVariable,
} from '../../../tests/support/woocommerce-fixtures.js';

// rules "Coupons": the fake WooCommerce applies a coupon to an order as the recorded shop
// did (tests/support/woocommerce-11/orders.coupon.*, the second recording): which lines it
// discounts, how it spreads the discount, the order's total, and the 400 with WooCommerce's
// message when it refuses. The hand-off's tests trust the fake's totals because of this.

const DIR = join(__dirname, '../../../tests/support/woocommerce-11');
const load = (name: string) =>
  JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8')) as Recording;
const coupon = (name: string) => (load(`coupons.code-${name}`).body as WooCoupon[])[0]!;

/** The second recorded shop (its README): simple event 11, variable event 12, T-shirt 13, bag 14. */
function secondShop(coupons: WooCoupon[]) {
  const event = wooVariable(
    12,
    { name: 'Sommer-Afterwork auf der MS Hamburg', attribute: 'Ticketart' },
    [
      { id: 15, option: 'Early Bird', price: '29.00' },
      { id: 16, option: 'Regulär', price: '39.00' },
      { id: 17, option: 'VIP', price: '49.00' },
    ],
  );
  const shirt = wooVariable(
    13,
    { name: 'AWHH T-Shirt', attribute: 'Größe' },
    ['S', 'M', 'L', 'XL'].map((option, i) => ({ id: 18 + i, option, price: '25.00' })),
  );
  return {
    products: [
      wooProduct(11, { name: 'After Work Speicherstadt', price: '29.00' }),
      event.product,
      shirt.product,
      wooProduct(14, { name: 'AWHH Stoffbeutel', price: '12.00' }),
    ],
    variations: [...event.variations, ...shirt.variations],
    coupons,
    posts: [],
    orders: [],
  };
}

const BEFORE = [
  'NURVIP',
  'OHNEMERCH',
  'NURKARLA',
  'EINMALIG',
  'ALLEIN',
  'DECKEL',
  'MIN60',
  'HAFEN20',
];

const cases: [order: string, coupons: string[]][] = [
  ['NURVIP-on-vip-and-shirt', BEFORE],
  ['NURVIP-on-regular-only', BEFORE],
  ['OHNEMERCH-on-ticket-and-shirt', BEFORE],
  ['OHNEMERCH-on-merch-only', BEFORE],
  ['NURKARLA-as-karla', BEFORE],
  ['NURKARLA-as-otto', BEFORE],
  ['EINMALIG-first', BEFORE],
  ['EINMALIG-second', BEFORE.map((c) => (c === 'EINMALIG' ? 'EINMALIG.after-use' : c))],
  ['DECKEL-subtotal-39', BEFORE],
  ['DECKEL-subtotal-117', BEFORE],
  ['MIN60-subtotal-39', BEFORE],
  ['ALLEIN-plus-HAFEN20', BEFORE],
  ['HAFEN20-plus-ALLEIN', BEFORE],
];

type Line = {
  product_id: number;
  variation_id: number;
  quantity: number;
  subtotal: string;
  total: string;
};
type Order = {
  total: string;
  discount_total: string;
  line_items: Line[];
  coupon_lines: { code: string; discount: string }[];
};

const lines = (order: Order) =>
  order.line_items.map((l) => [l.product_id, l.variation_id, l.quantity, l.subtotal, l.total]);
const couponLines = (order: Order) => order.coupon_lines.map((c) => [c.code, c.discount]);

describe('fake WooCommerce applies coupons as the recorded shop (rules "Coupons")', () => {
  let fake: FakeWooCommerce | undefined;
  afterEach(async () => {
    await fake?.stop();
  });

  async function post(body: unknown) {
    const res = await fetch(`${fake!.url}/wp-json/wc/v3/orders`, {
      method: 'POST',
      headers: {
        authorization: 'Basic ' + Buffer.from(`${fake!.key}:${fake!.secret}`).toString('base64'),
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it.each(cases)('orders.coupon.%s', async (name, coupons) => {
    fake = await FakeWooCommerce.start(secondShop(coupons.map(coupon)));
    const recording = load(`orders.coupon.${name}`);
    const got = await post(recording.request.body);
    expect(got.status).toBe(recording.status);
    if (recording.status !== 201) {
      const { code, message } = recording.body as { code: string; message: string };
      expect(got.body).toMatchObject({ code, message });
      return;
    }
    const recorded = recording.body as Order;
    const created = got.body as unknown as Order;
    expect(created.total).toBe(recorded.total);
    expect(created.discount_total).toBe(recorded.discount_total);
    expect(lines(created)).toEqual(lines(recorded));
    expect(couponLines(created)).toEqual(couponLines(recorded));
  });

  it('takes the line subtotals the request names and spreads the coupon from them, overwriting a posted total', async () => {
    fake = await FakeWooCommerce.start(secondShop([coupon('NURVIP')]));
    // The VIP tier sold at 44 € at the checkout, 49 € in the shop now.
    const got = await post({
      set_paid: true,
      line_items: [
        { product_id: 12, variation_id: 17, quantity: 2, subtotal: '88.00', total: '1.00' },
        { product_id: 13, variation_id: 20, quantity: 1, subtotal: '25.00', total: '25.00' },
      ],
      coupon_lines: [{ code: 'nurvip' }],
    });
    expect(got.status).toBe(201);
    const order = got.body as unknown as Order;
    expect(lines(order)).toEqual([
      [12, 17, 2, '88.00', '44.00'],
      [13, 20, 1, '25.00', '25.00'],
    ]);
    expect(order).toMatchObject({ total: '69.00', discount_total: '44.00' });
  });

  it('keeps posted line totals without a coupon, and a PUT of line totals sets the order total without spreading the coupon again', async () => {
    fake = await FakeWooCommerce.start(secondShop([coupon('HAFEN20')]));
    const plain = await post({
      set_paid: true,
      line_items: [{ product_id: 11, quantity: 1, subtotal: '29.00', total: '20.00' }],
    });
    expect(plain.body).toMatchObject({ total: '20.00', discount_total: '9.00' });

    const created = await post({
      set_paid: true,
      line_items: [{ product_id: 11, quantity: 1 }],
      coupon_lines: [{ code: 'hafen20' }],
    });
    const order = created.body as unknown as Order & { id: number; line_items: { id: number }[] };
    expect(order.total).toBe('23.20');
    const res = await fetch(`${fake.url}/wp-json/wc/v3/orders/${order.id}`, {
      method: 'PUT',
      headers: {
        authorization: 'Basic ' + Buffer.from(`${fake.key}:${fake.secret}`).toString('base64'),
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        line_items: [{ id: order.line_items[0]!.id, subtotal: '29.00', total: '24.65' }],
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      total: '24.65',
      discount_total: '4.35',
      coupon_lines: [expect.objectContaining({ code: 'hafen20' })],
    });
  });
});
