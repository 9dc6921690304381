import { Logger } from '@nestjs/common';
import {
  EVENT_DATE_META_KEYS,
  PLUGIN_DATE_META_KEYS,
  parseEventDate,
  resolveEventDate,
} from '@awhh/machines';
import { createCatalogAdapter } from '../../src/catalog/adapters/catalog-adapter.factory.js';
import { DemoCatalogAdapter } from '../../src/catalog/adapters/demo-catalog.adapter.js';
import { WooCommerceCatalogAdapter } from '../../src/catalog/adapters/woocommerce-catalog.adapter.js';
import { CatalogService } from '../../src/catalog/catalog.service.js';
import { HealthIndicators } from '../../src/health/health-indicators.js';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import { RECORDED_AT, recordedShop } from '../../../tests/support/woocommerce-fixtures.js';
import { testConfig } from '../support/test-app.js';

beforeAll(() => Logger.overrideLogger(false));

const order = (
  reference: string,
  productId: number,
  quantity: number,
  couponCode: string | null = null,
) => ({
  reference,
  email: null,
  lines: [{ productId, name: 'Ticket', quantity, unitAmount: 2900 }],
  couponCode,
  total: 2900 * quantity,
  currency: 'eur',
  paymentReference: `pi_${reference}`,
});

describe('CatalogService over the demo catalog', () => {
  let health: HealthIndicators;
  let sut: CatalogService;
  beforeEach(() => {
    health = new HealthIndicators();
    sut = new CatalogService(new DemoCatalogAdapter(), testConfig(), health);
  });

  it('exercises every event-date key of rules §3 and "Events", and one invalid date', async () => {
    const products = await sut.products();
    const keys = new Set(products.flatMap((p) => p.meta_data.map((m) => m.key)));
    for (const key of [...EVENT_DATE_META_KEYS, ...PLUGIN_DATE_META_KEYS])
      expect(keys).toContain(key);
    const invalid = products.filter((p) =>
      p.meta_data.some(
        (m) =>
          (EVENT_DATE_META_KEYS as readonly string[]).includes(m.key) &&
          parseEventDate(m.value) === null,
      ),
    );
    expect(invalid.length).toBeGreaterThanOrEqual(1);
    for (const p of invalid) expect(resolveEventDate(p)?.source).toBe('meta');
  });

  it('has past and upcoming events relative to today, and four merch products (one with sizes)', async () => {
    const products = await sut.products();
    const events = products.filter((p) => p.kind === 'event');
    const dates = events.map((e) => resolveEventDate(e)!.date.getTime());
    expect(events.length).toBeGreaterThanOrEqual(6);
    expect(dates.some((d) => d < Date.now())).toBe(true);
    expect(dates.some((d) => d > Date.now())).toBe(true);
    expect(products.filter((p) => p.kind === 'product')).toHaveLength(4);
  });

  it('finds a product by id', async () => {
    await expect(sut.productById(103)).resolves.toMatchObject({
      slug: 'speicherstadt-networking-night',
    });
    await expect(sut.productById(999)).resolves.toBeUndefined();
  });

  it('reduces demo stock through an order and shows it on the next read', async () => {
    expect((await sut.productById(103))?.stock_quantity).toBe(7);
    await sut.createOrder(order('cs_demo_1', 103, 3));
    await sut.products(); // stale answer, revalidation starts
    await new Promise((r) => setImmediate(r));
    expect((await sut.productById(103))?.stock_quantity).toBe(4);
  });

  it('counts coupon usage from orders; a fresh lookup sees it at once', async () => {
    const before = await sut.findCoupon('freikarte');
    await sut.createOrder(order('cs_demo_2', 101, 1, 'FREIKARTE'));
    const after = await sut.findCoupon('FREIKARTE', { fresh: true });
    expect(after!.usageCount).toBe(before!.usageCount + 1);
  });

  it('registers a readiness check that reports adapter and cache state', async () => {
    const report = await health.report();
    expect(report).toMatchObject({
      ok: true,
      checks: {
        catalog: { ok: true, adapter: 'demo', products: { state: 'fresh', generation: 1 } },
      },
    });
  });
});

describe('CatalogService over WooCommerce', () => {
  let fake: FakeWooCommerce;
  beforeEach(async () => {
    fake = await FakeWooCommerce.start({ latencyMs: 100 });
  });
  afterEach(() => fake.stop());

  const service = () =>
    new CatalogService(
      new WooCommerceCatalogAdapter(
        { url: fake.url, key: fake.key, secret: fake.secret },
        { backoffMs: 5 },
      ),
      testConfig(),
      new HealthIndicators(),
    );

  it('makes one upstream call per resource for 200 concurrent cold reads', async () => {
    const sut = service();
    await Promise.all([
      ...Array.from({ length: 100 }, () => sut.products()),
      ...Array.from({ length: 50 }, () => sut.posts()),
      ...Array.from({ length: 50 }, (_, i) =>
        sut.findCoupon(i % 2 ? 'AFTERWORK10' : 'afterwork10'),
      ),
    ]);
    expect(fake.calls('/wp-json/wc/v3/products')).toBe(1);
    expect(fake.calls('/wp-json/wp/v2/posts')).toBe(1);
    expect(fake.calls('/wp-json/wc/v3/coupons')).toBe(1);
  });

  it('is not ready while WooCommerce refuses its keys, and says why', async () => {
    const health = new HealthIndicators();
    new CatalogService(
      new WooCommerceCatalogAdapter(
        { url: fake.url, key: fake.key, secret: 'falsch' },
        { backoffMs: 5 },
      ),
      testConfig(),
      health,
    );
    const report = await health.report();
    expect(report.ok).toBe(false);
    expect(report.checks.catalog).toMatchObject({
      ok: false,
      adapter: 'woocommerce',
      products: { state: 'empty', lastError: expect.stringMatching(/401/) },
    });
  });
});

describe('CatalogService over WooCommerce with variable products (recorded shop)', () => {
  let fake: FakeWooCommerce;
  beforeEach(async () => {
    fake = await FakeWooCommerce.start({
      ...recordedShop(),
      now: () => RECORDED_AT,
      latencyMs: 100,
    });
  });
  afterEach(() => fake.stop());

  const service = (ttlSeconds = '60') =>
    new CatalogService(
      new WooCommerceCatalogAdapter(
        { url: fake.url, key: fake.key, secret: fake.secret },
        { backoffMs: 5, retries: 1 },
      ),
      testConfig({ CATALOG_TTL_SECONDS: ttlSeconds }),
      new HealthIndicators(),
    );
  const productsList = /^\/wp-json\/wc\/v3\/products$/;
  const tiers = (products: { id: number; variants?: { id: number }[] }[]) =>
    products.find((p) => p.id === 42)?.variants?.map((v) => v.id);

  it('200 concurrent cold reads: one products call and one variations call per variable product', async () => {
    const sut = service();
    const results = await Promise.all(Array.from({ length: 200 }, () => sut.products()));
    expect(new Set(results).size).toBe(1);
    expect(tiers(results[0]!)).toEqual([43, 44, 45]);
    expect(fake.calls(productsList)).toBe(1);
    expect(fake.calls('/wp-json/wc/v3/products/42/variations')).toBe(1);
    expect(fake.calls('/wp-json/wc/v3/products/28/variations')).toBe(1);
    expect(fake.calls(/\/variations$/)).toBe(2);
  });

  it('keeps the last good catalog, variants included, while the variations endpoint fails', async () => {
    const sut = service('0');
    const good = await sut.products();
    expect(tiers(good)).toEqual([43, 44, 45]);

    fake.failNext(1_000, 500, '/wp-json/wc/v3/products/42/variations');
    const failing = () => fake.calls('/wp-json/wc/v3/products/42/variations');
    const before = failing();
    // Expired (TTL 0): answered from the copy while the revalidation runs and fails (one
    // attempt and one retry).
    expect(await sut.products()).toBe(good);
    for (let i = 0; i < 100 && failing() < before + 2; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(failing()).toBe(before + 2);
    await new Promise((r) => setTimeout(r, 20));
    const during = await sut.products();
    expect(during).toBe(good);
    expect(tiers(during)).toEqual([43, 44, 45]);
    // Checkout never sells from that copy: it needs the current catalog and gets an error.
    await expect(sut.currentProducts()).rejects.toMatchObject({ kind: 'upstream', status: 500 });
  });
});

describe('createCatalogAdapter', () => {
  it('picks the demo catalog without WOOCOMMERCE_URL and WooCommerce with it', () => {
    expect(createCatalogAdapter(testConfig()).name).toBe('demo');
    const woo = testConfig({
      WOOCOMMERCE_URL: 'https://shop.example',
      WOOCOMMERCE_KEY: 'ck_x',
      WOOCOMMERCE_SECRET: 'cs_x',
    });
    expect(createCatalogAdapter(woo)).toBeInstanceOf(WooCommerceCatalogAdapter);
  });
});
