import { Logger } from '@nestjs/common';
import { resolveEventDate } from '@awhh/machines';
import {
  ORDER_REFERENCE_META_KEY,
  WooCommerceCatalogAdapter,
} from '../../src/catalog/adapters/woocommerce-catalog.adapter.js';
import { CatalogError } from '../../src/catalog/catalog.errors.js';
import { FakeWooCommerce, manyProducts } from '../support/fake-woocommerce.js';

beforeAll(() => Logger.overrideLogger(false));

describe('WooCommerce catalog adapter against the fake REST server', () => {
  let fake: FakeWooCommerce;
  const adapter = (options = {}, secret?: string) =>
    new WooCommerceCatalogAdapter(
      { url: fake.url, key: fake.key, secret: secret ?? fake.secret },
      { timeoutMs: 1_000, backoffMs: 5, ...options },
    );

  beforeEach(async () => {
    fake = await FakeWooCommerce.start();
  });
  afterEach(() => fake.close());

  it('asks for published products, 100 per page, with basic auth', async () => {
    await adapter().listProducts();
    const request = fake.requests.find((r) => r.path === '/wp-json/wc/v3/products')!;
    expect(request.authorized).toBe(true);
    expect(request.query.get('status')).toBe('publish');
    expect(request.query.get('per_page')).toBe('100');
  });

  it('follows X-WP-TotalPages and returns every product', async () => {
    fake.products = manyProducts(250);
    const products = await adapter().listProducts();
    expect(products).toHaveLength(250);
    expect(new Set(products.map((p) => p.id)).size).toBe(250);
    expect(fake.calls('/wp-json/wc/v3/products')).toBe(3);
  });

  it('normalises messy data: string and empty prices, entities, any meta value type', async () => {
    const products = await adapter().listProducts();
    const byId = new Map(products.map((p) => [p.id, p]));

    expect(byId.get(11)).toMatchObject({
      price: 24.9,
      regular_price: 24.9,
      kind: 'event',
      stock_quantity: 80,
    });
    expect(byId.get(21)).toMatchObject({
      price: 12.5,
      regular_price: 14.9,
      sale_price: 12.5,
      kind: 'product',
    });

    const jazz = byId.get(14)!;
    expect(jazz.name).toBe('Jazz & Gin – Spezial');
    expect(jazz.price).toBeUndefined();
    expect(jazz.stock_quantity).toBeNull();
    expect(jazz.meta_data.find((m) => m.key === 'event_date')?.value).toEqual({
      date: 'kein Datum',
    });
    expect(jazz.meta_data.find((m) => m.key === 'capacity')?.value).toBe(120);
    // Invalid object and text dates fall through to the array-wrapped start_date.
    expect(resolveEventDate(jazz)?.key).toBe('start_date');

    const calendar = byId.get(13)!;
    expect(calendar.meta_data.map((m) => m.key)).toEqual(['_EventStartDate']);
    expect(calendar).toMatchObject({ stock_status: 'outofstock', kind: 'event' });

    expect(byId.get(15)?.kind).toBe('event');
    expect(byId.get(22)?.slug).toBe('');
    expect(byId.get(22)?.price).toBeUndefined();
    expect(byId.has(23)).toBe(false);
    expect(byId.get(11)?.images[0]).toEqual({
      src: 'https://shop.example/wp-content/uploads/hafen.jpg',
      alt: 'Hafen & Kräne',
    });
  });

  it('skips entries that are not products instead of failing the whole list', async () => {
    fake.products = [...fake.products, { id: 'x' }, { name: 'ohne id' }] as never[];
    const products = await adapter().listProducts();
    expect(products.length).toBeGreaterThan(0);
  });

  it('reports wrong keys as an auth error naming the variables, without retrying', async () => {
    const err = await adapter({}, 'cs_wrong')
      .listProducts()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogError);
    expect(err).toMatchObject({ kind: 'auth', status: 401 });
    expect((err as Error).message).toMatch(/woocommerce_rest_cannot_view/);
    expect((err as Error).message).toMatch(/WOOCOMMERCE_KEY and WOOCOMMERCE_SECRET/);
    expect(fake.calls('/wp-json/wc/v3/products')).toBe(1);
  });

  it('reports a wrong site URL as not found', async () => {
    const sut = new WooCommerceCatalogAdapter(
      { url: `${fake.url}/falsch`, key: fake.key, secret: fake.secret },
      { backoffMs: 5 },
    );
    await expect(sut.listProducts()).rejects.toMatchObject({ kind: 'not_found', status: 404 });
  });

  it('retries GETs with backoff after 5xx and succeeds', async () => {
    fake.failNext(2, 503, '/wp-json/wc/v3/products');
    const products = await adapter({ retries: 2 }).listProducts();
    expect(products.length).toBeGreaterThan(0);
    expect(fake.calls('/wp-json/wc/v3/products')).toBe(3);
  });

  it('gives up after the retries with a clear upstream error (HTML error page included)', async () => {
    fake.failNext(10, 500, '/wp-json/wc/v3/products', true);
    const err = await adapter({ retries: 2 })
      .listProducts()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'upstream', status: 500 });
    expect((err as Error).message).toMatch(/critical error/);
    expect(fake.calls('/wp-json/wc/v3/products')).toBe(3);
  });

  it('times out a slow answer and retries it', async () => {
    fake.slow('/wp-json/wc/v3/products', 400);
    const started = Date.now();
    const err = await adapter({ timeoutMs: 100, retries: 1 })
      .listProducts()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'timeout' });
    expect((err as Error).message).toMatch(/within 100 ms/);
    expect(fake.calls('/wp-json/wc/v3/products')).toBe(2);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('reports an unreachable server as a network error', async () => {
    const url = fake.url;
    await fake.close();
    const sut = new WooCommerceCatalogAdapter(
      { url, key: 'k', secret: 's' },
      { retries: 0, timeoutMs: 500 },
    );
    await expect(sut.listProducts()).rejects.toMatchObject({ kind: 'network' });
    fake = await FakeWooCommerce.start();
  });

  it('reads posts without WooCommerce credentials, with featured image and author', async () => {
    const posts = await adapter().listPosts();
    const request = fake.requests.find((r) => r.path === '/wp-json/wp/v2/posts')!;
    expect(request.hasAuthHeader).toBe(false);
    expect(request.query.get('_embed')).toContain('wp:featuredmedia');
    const post = posts.find((p) => p.slug === 'rueckblick-hafen')!;
    expect(post.title).toBe('Rückblick: „Afterwork im Hafen“');
    expect(post.image).toEqual({
      src: 'https://shop.example/wp-content/uploads/rueckblick.jpg',
      alt: 'Gäste an der Bar',
    });
    expect(post.author).toBe('Lena Hoffmann');
    expect(posts.find((p) => p.slug === 'tipps')).toMatchObject({ image: null, author: null });
  });

  it('refuses to create an order when it cannot check for an earlier one', async () => {
    fake.failNext(5, 503, '/wp-json/wc/v3/orders', false, 'GET');
    await expect(
      adapter({ retries: 1 }).createOrder({
        reference: 'cs_y',
        email: null,
        lines: [{ productId: 11, name: 'x', quantity: 1, unitAmount: 2490 }],
        couponCode: null,
        total: 2490,
        currency: 'eur',
        paymentReference: 'pi_y',
      }),
    ).rejects.toMatchObject({ kind: 'upstream' });
    expect(fake.calls('/wp-json/wc/v3/orders', 'POST')).toBe(0);
  });

  it('normalises coupons: string amounts, "0.00" minimum means none, expiry kept', async () => {
    const sut = adapter();
    await expect(sut.findCoupon('TEAM20')).resolves.toEqual({
      code: 'team20',
      discountType: 'percent',
      amount: 20,
      expiresAt: null,
      usageLimit: null,
      usageCount: 0,
      minimumAmount: 100,
    });
    await expect(sut.findCoupon('willkommen5')).resolves.toMatchObject({
      minimumAmount: null,
      amount: 5,
    });
    await expect(sut.findCoupon('sommer2024')).resolves.toMatchObject({
      expiresAt: '2024-09-30T00:00:00',
    });
  });

  it('creates a paid order with lines, coupon and reference, and never posts it twice', async () => {
    const sut = adapter();
    const handOff = {
      reference: 'cs_test_abc',
      email: 'gast@example.org',
      lines: [{ productId: 11, name: 'Afterwork im Hafen', quantity: 2, unitAmount: 2490 }],
      couponCode: 'afterwork10',
      total: 4482,
      currency: 'eur',
      paymentReference: 'pi_123',
    };
    const first = await sut.createOrder(handOff);
    const second = await sut.createOrder(handOff);
    expect(second).toEqual(first);
    expect(fake.calls('/wp-json/wc/v3/orders', 'POST')).toBe(1);
    expect(fake.orders[0]).toMatchObject({
      set_paid: true,
      status: 'processing',
      transaction_id: 'pi_123',
      billing: { email: 'gast@example.org' },
      line_items: [{ product_id: 11, quantity: 2 }],
      coupon_lines: [{ code: 'afterwork10' }],
      meta_data: expect.arrayContaining([{ key: ORDER_REFERENCE_META_KEY, value: 'cs_test_abc' }]),
    });
  });

  it('does not retry an order POST that failed (it may have been created)', async () => {
    fake.failNext(1, 502, '/wp-json/wc/v3/orders', false, 'POST');
    const sut = adapter({ retries: 1 });
    await expect(
      sut.createOrder({
        reference: 'cs_x',
        email: null,
        lines: [{ productId: 11, name: 'x', quantity: 1, unitAmount: 2490 }],
        couponCode: null,
        total: 2490,
        currency: 'eur',
        paymentReference: 'pi_x',
      }),
    ).rejects.toMatchObject({ kind: 'upstream', status: 502 });
    expect(fake.calls('/wp-json/wc/v3/orders', 'POST')).toBe(1);
  });
});
