import {
  blogPostSchema,
  parseEventDate,
  productFeedSchema,
  resolveEventDate,
  type Product,
} from '@awhh/machines';
import { DemoCatalogAdapter } from '../../src/catalog/adapters/demo-catalog.adapter.js';
import { WooCommerceCatalogAdapter } from '../../src/catalog/adapters/woocommerce-catalog.adapter.js';
import { isVariable, type CatalogPort, type OrderHandOff } from '../../src/catalog/catalog.port.js';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import { RECORDED_AT, recordedShop } from '../../../tests/support/woocommerce-fixtures.js';

interface Harness {
  sut: CatalogPort;
  /** A coupon code the catalog has, in upper case. */
  knownCoupon: string;
  /** The start of a longer coupon code, itself no code. */
  couponPrefix: string;
  /** A variable event: its tiers, one sold out, one on sale. */
  tieredEvent: { id: number; soldOut: number; onSale: number };
  /** Variable merch (sizes). */
  sizedMerch: { id: number };
  close(): Promise<void>;
}

const order = (reference: string, productId: number): OrderHandOff => ({
  reference,
  email: 'gast@example.org',
  lines: [{ productId, name: 'Ticket', quantity: 2, unitAmount: 2490 }],
  couponCode: null,
  total: 4980,
  currency: 'eur',
  paymentReference: `pi_${reference}`,
});

const adapters: [string, () => Promise<Harness>][] = [
  [
    'demo',
    async () => ({
      sut: new DemoCatalogAdapter(),
      knownCoupon: 'AFTERWORK10',
      couponPrefix: 'AFTERWORK',
      tieredEvent: { id: 109, soldOut: 1091, onSale: 1093 },
      sizedMerch: { id: 204 },
      close: async () => {},
    }),
  ],
  [
    'woocommerce (recorded shop)',
    async () => {
      const fake = await FakeWooCommerce.start({ ...recordedShop(), now: () => RECORDED_AT });
      const sut = new WooCommerceCatalogAdapter(
        { url: fake.url, key: fake.key, secret: fake.secret },
        { timeoutMs: 2_000, backoffMs: 5 },
      );
      return {
        sut,
        knownCoupon: 'HAFEN20',
        couponPrefix: 'HAFEN',
        tieredEvent: { id: 42, soldOut: 43, onSale: 45 },
        sizedMerch: { id: 28 },
        close: () => fake.stop(),
      };
    },
  ],
];

// One contract for every adapter of the catalog port: a new adapter meets every check.
describe.each(adapters)('catalog port contract: %s adapter', (_name, make) => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await make();
  });
  afterEach(() => harness.close());

  it('lists products in the feed shape of rules §7 with prices as numbers', async () => {
    const products = await harness.sut.listProducts();
    expect(products.length).toBeGreaterThan(0);
    expect(() => productFeedSchema.parse(products)).not.toThrow();
    for (const product of products) {
      expect(Number.isInteger(product.id)).toBe(true);
      for (const price of [product.price, product.regular_price]) {
        if (price !== undefined) expect(typeof price).toBe('number');
      }
      expect(Array.isArray(product.meta_data)).toBe(true);
    }
  });

  it('marks events and gives each a resolvable date through the shared rule', async () => {
    const events = (await harness.sut.listProducts()).filter((p) => p.kind === 'event');
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(resolveEventDate(event)).not.toBeNull();
  });

  it('finds coupons case-insensitively with numeric amounts, and null for unknown codes', async () => {
    const upper = await harness.sut.findCoupon(harness.knownCoupon);
    const lower = await harness.sut.findCoupon(harness.knownCoupon.toLowerCase());
    expect(upper).not.toBeNull();
    expect(lower?.code.toLowerCase()).toBe(harness.knownCoupon.toLowerCase());
    expect(typeof upper?.amount).toBe('number');
    expect(upper?.discountType).toBe('percent');
    await expect(harness.sut.findCoupon('GIBTSNICHT')).resolves.toBeNull();
  });

  it('does not treat a longer code containing the given one as a match', async () => {
    await expect(harness.sut.findCoupon(harness.couponPrefix)).resolves.toBeNull();
  });

  it('lists posts with a slug, a title, HTML and a parseable date', async () => {
    const posts = await harness.sut.listPosts();
    expect(posts.length).toBeGreaterThan(0);
    for (const post of posts) {
      expect(post.slug).not.toBe('');
      expect(post.title).not.toMatch(/&#?\w+;/);
      expect(typeof post.contentHtml).toBe('string');
      expect(parseEventDate(post.publishedAt)).not.toBeNull();
      expect(() =>
        blogPostSchema.parse({ ...post, excerpt: '', contentHtml: post.contentHtml }),
      ).not.toThrow();
    }
  });

  it('hands off an order idempotently by reference', async () => {
    const product = (await harness.sut.listProducts()).find(
      (p: Product) => p.kind === 'event' && p.type !== 'variable',
    )!;
    const first = await harness.sut.createOrder(order('cs_test_1', product.id));
    const again = await harness.sut.createOrder(order('cs_test_1', product.id));
    const other = await harness.sut.createOrder(order('cs_test_2', product.id));
    expect(first.id).not.toBe('');
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
  });

  // rules "Everything the shop sells": a variable product is bought as one of its variations.
  it('gives variable products purchasable variants with attributes, numeric prices and stock', async () => {
    const products = await harness.sut.listProducts();
    const variable = products.filter(isVariable);
    expect(variable.map((p) => p.id)).toEqual(
      expect.arrayContaining([harness.tieredEvent.id, harness.sizedMerch.id]),
    );
    for (const product of variable) {
      const variants = product.variants ?? [];
      expect(variants.length).toBeGreaterThan(0);
      expect([...(product.variations ?? [])].sort()).toEqual(variants.map((v) => v.id).sort());
      for (const variant of variants) {
        expect(Number.isInteger(variant.id)).toBe(true);
        expect(variant.purchasable).toBe(true);
        expect(variant.attributes.length).toBeGreaterThan(0);
        for (const attribute of variant.attributes) {
          expect(attribute.name).not.toBe('');
          expect(attribute.option).not.toBe('');
        }
        expect(typeof variant.price).toBe('number');
        expect(typeof variant.regular_price).toBe('number');
        expect(variant.stock_quantity === null || Number.isInteger(variant.stock_quantity)).toBe(
          true,
        );
      }
      // The parent is shaped as WooCommerce shapes it: the lowest variation price.
      expect(product.price).toBe(Math.min(...variants.map((v) => v.price!)));
    }
    const merch = variable.find((p) => p.id === harness.sizedMerch.id)!;
    expect(merch.kind).toBe('product');
    expect(merch.variants!.every((v) => v.attributes[0]!.name === 'Größe')).toBe(true);
  });

  it('shows a tier on sale with its sale and regular price, and a sold-out tier at 0', async () => {
    const event = (await harness.sut.listProducts()).find((p) => p.id === harness.tieredEvent.id)!;
    expect(event).toMatchObject({ kind: 'event', type: 'variable' });
    const onSale = event.variants!.find((v) => v.id === harness.tieredEvent.onSale)!;
    expect(onSale).toMatchObject({ on_sale: true, sale_price: onSale.price });
    expect(onSale.sale_price!).toBeLessThan(onSale.regular_price!);
    const soldOut = event.variants!.find((v) => v.id === harness.tieredEvent.soldOut)!;
    expect(soldOut).toMatchObject({ stock_quantity: 0, stock_status: 'outofstock' });
  });

  it('gives simple products no variants', async () => {
    const simple = (await harness.sut.listProducts()).filter((p) => !isVariable(p));
    expect(simple.length).toBeGreaterThan(0);
    for (const product of simple) expect(product.variants ?? []).toEqual([]);
  });

  it('accepts a variation line in the hand-off and counts it against that tier', async () => {
    const tier = async () =>
      (await harness.sut.listProducts())
        .find((p) => p.id === harness.tieredEvent.id)!
        .variants!.find((v) => v.id === harness.tieredEvent.onSale)!;
    const before = (await tier()).stock_quantity!;
    const { id } = await harness.sut.createOrder({
      ...order('cs_tier_1', harness.tieredEvent.id),
      lines: [
        {
          productId: harness.tieredEvent.id,
          variationId: harness.tieredEvent.onSale,
          name: 'Ticket – VIP',
          quantity: 1,
          unitAmount: 4900,
        },
      ],
      total: 4900,
    });
    expect(id).not.toBe('');
    expect((await tier()).stock_quantity).toBe(before - 1);
  });

  it('a paid order beyond the stock takes it below zero, as the shop does, and the tier is sold out', async () => {
    const tier = async () =>
      (await harness.sut.listProducts())
        .find((p) => p.id === harness.tieredEvent.id)!
        .variants!.find((v) => v.id === harness.tieredEvent.onSale)!;
    const before = (await tier()).stock_quantity!;
    await harness.sut.createOrder({
      ...order('cs_tier_over', harness.tieredEvent.id),
      lines: [
        {
          productId: harness.tieredEvent.id,
          variationId: harness.tieredEvent.onSale,
          name: 'Ticket – VIP',
          quantity: before + 1,
          unitAmount: 4900,
        },
      ],
      total: 4900 * (before + 1),
    });
    // docs/ledger.md: a returned place sold before its refund is counted once, not freed twice.
    expect(await tier()).toMatchObject({ stock_quantity: -1, stock_status: 'outofstock' });
  });

  it('names itself for readiness reports', () => {
    expect(['demo', 'woocommerce']).toContain(harness.sut.name);
  });
});
