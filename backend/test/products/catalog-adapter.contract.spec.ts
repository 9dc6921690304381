import {
  blogPostSchema,
  parseEventDate,
  productFeedSchema,
  resolveEventDate,
  type Product,
} from '@awhh/machines';
import { DemoCatalogAdapter } from '../../src/catalog/adapters/demo-catalog.adapter.js';
import { WooCommerceCatalogAdapter } from '../../src/catalog/adapters/woocommerce-catalog.adapter.js';
import type { CatalogPort, OrderHandOff } from '../../src/catalog/catalog.port.js';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';

interface Harness {
  sut: CatalogPort;
  /** A coupon code the catalog has, in upper case. */
  knownCoupon: string;
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
      close: async () => {},
    }),
  ],
  [
    'woocommerce',
    async () => {
      const fake = await FakeWooCommerce.start();
      const sut = new WooCommerceCatalogAdapter(
        { url: fake.url, key: fake.key, secret: fake.secret },
        { timeoutMs: 2_000, backoffMs: 5 },
      );
      return { sut, knownCoupon: 'AFTERWORK10', close: () => fake.close() };
    },
  ],
];

// One contract for every adapter of the catalog port (STYLE: shared contract spec).
describe.each(adapters)('catalog port contract: %s adapter', (_name, make) => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await make();
  });
  afterEach(() => harness.close());

  it('lists products in the feed shape of SPEC §7 with prices as numbers', async () => {
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
    await expect(harness.sut.findCoupon('AFTERWORK')).resolves.toBeNull();
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
    const product = (await harness.sut.listProducts()).find((p: Product) => p.kind === 'event')!;
    const first = await harness.sut.createOrder(order('cs_test_1', product.id));
    const again = await harness.sut.createOrder(order('cs_test_1', product.id));
    const other = await harness.sut.createOrder(order('cs_test_2', product.id));
    expect(first.id).not.toBe('');
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
  });

  it('names itself for readiness reports', () => {
    expect(['demo', 'woocommerce']).toContain(harness.sut.name);
  });
});
