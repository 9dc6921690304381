import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestCertificate } from '../../../tests/support/test-certificate.js';
import { couponTerms } from '@awhh/machines';
import { Logger } from '@nestjs/common';
import { resolveEventDate } from '@awhh/machines';
import {
  ORDER_REFERENCE_META_KEY,
  WooCommerceCatalogAdapter,
} from '../../src/catalog/adapters/woocommerce-catalog.adapter.js';
import { CatalogError } from '../../src/catalog/catalog.errors.js';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import {
  manyProducts,
  RECORDED_AT,
  recordedShop,
  wooVariable,
} from '../../../tests/support/woocommerce-fixtures.js';

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
  afterEach(() => fake.stop());

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
    // The recorded answer to a wrong secret (WooCommerce 11).
    expect((err as Error).message).toMatch(/woocommerce_rest_authentication_error/);
    expect((err as Error).message).toMatch(/WOOCOMMERCE_KEY and WOOCOMMERCE_SECRET/);
    expect(fake.calls('/wp-json/wc/v3/products')).toBe(1);
  });

  it("a refusal without WooCommerce's authentication error does not blame the keys: over plain HTTP WooCommerce never reads them", async () => {
    fake.failNext(1, 401, '/wp-json/wc/v3/products');
    const err = await adapter()
      .listProducts()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'auth', status: 401 });
    expect((err as Error).message).toMatch(/only over HTTPS/);
    expect((err as Error).message).not.toMatch(/Check WOOCOMMERCE_KEY/);
  });

  it('a shop whose certificate comes from a CA Node does not know: the error names the certificate and NODE_EXTRA_CA_CERTS', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'awhh-shop-tls-'));
    const cert = makeTestCertificate(dir);
    const server = createHttpsServer(
      { cert: readFileSync(cert.certFile), key: readFileSync(cert.keyFile) },
      (_req, res) => res.end('[]'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const sut = new WooCommerceCatalogAdapter(
        { url: `https://127.0.0.1:${port}`, key: fake.key, secret: fake.secret },
        { retries: 0 },
      );
      const err = await sut.listProducts().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CatalogError);
      expect((err as Error).message).toMatch(/TLS certificate was refused/);
      expect((err as Error).message).toMatch(/NODE_EXTRA_CA_CERTS/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
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
    await fake.stop();
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
    await expect(sut.findCoupon('TEAM20')).resolves.toEqual(
      couponTerms({ code: 'team20', discountType: 'percent', amount: 20, minimumAmount: 100 }),
    );
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
    const posted = fake.requests.filter((r) => r.method === 'POST');
    expect(posted).toHaveLength(1);
    expect(posted[0]!.body).toMatchObject({
      set_paid: true,
      status: 'processing',
      transaction_id: 'pi_123',
      billing: { email: 'gast@example.org' },
      line_items: [{ product_id: 11, quantity: 2 }],
      coupon_lines: [{ code: 'afterwork10' }],
      meta_data: expect.arrayContaining([{ key: ORDER_REFERENCE_META_KEY, value: 'cs_test_abc' }]),
    });
    expect(fake.orders).toHaveLength(1);
    // The shop's own total agrees with the site's: 10 % off 2 × 24,90 €.
    expect(fake.orders[0]).toMatchObject({
      id: Number(first.id),
      status: 'processing',
      total: '44.82',
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

describe('WooCommerce catalog adapter: variable products (recorded shop)', () => {
  let fake: FakeWooCommerce;
  const adapter = (options = {}) =>
    new WooCommerceCatalogAdapter(
      { url: fake.url, key: fake.key, secret: fake.secret },
      { timeoutMs: 1_000, backoffMs: 5, ...options },
    );
  const variationsPath = (id: number) => `/wp-json/wc/v3/products/${id}/variations`;

  beforeEach(async () => {
    fake = await FakeWooCommerce.start({ ...recordedShop(), now: () => RECORDED_AT });
  });
  afterEach(() => fake.stop());

  it("reads the variations of every variable product, and only of those, in the organizer's order", async () => {
    const products = await adapter().listProducts();
    const byId = new Map(products.map((p) => [p.id, p]));
    expect(fake.calls(/\/variations$/)).toBe(2);
    expect(fake.calls(variationsPath(42))).toBe(1);
    expect(fake.calls(variationsPath(28))).toBe(1);
    const request = fake.requests.find((r) => r.path === variationsPath(42))!;
    expect(request.query.get('per_page')).toBe('100');
    expect(request.authorized).toBe(true);

    expect(byId.get(42)).toMatchObject({ type: 'variable', price: 25, variations: [43, 44, 45] });
    expect(
      byId.get(42)!.variants!.map((v) => [v.id, v.attributes, v.price, v.stock_quantity]),
    ).toEqual([
      // The endpoint lists the newest first; the parent's options say Early Bird, Regulär, VIP.
      [43, [{ name: 'Ticket', option: 'Early Bird' }], 25, 0],
      [44, [{ name: 'Ticket', option: 'Regulär' }], 35, 40],
      [45, [{ name: 'Ticket', option: 'VIP' }], 49, 4],
    ]);
    expect(byId.get(28)!.variants!.map((v) => v.attributes[0]!.option)).toEqual(['M', 'L']);
    expect(byId.get(15)?.variants).toBeUndefined();
  });

  it('follows the pages of a product with more than 100 variations', async () => {
    const many = wooVariable(
      900,
      { name: 'Großes Festival', slug: 'grosses-festival', attribute: 'Platz' },
      Array.from({ length: 150 }, (_, i) => ({
        id: 1000 + i,
        option: `Platz ${i + 1}`,
        price: '30.00',
        stock_quantity: 1,
      })),
    );
    fake.products = [...fake.products, many.product];
    fake.variations = [...fake.variations, ...many.variations];
    const products = await adapter().listProducts();
    const festival = products.find((p) => p.id === 900)!;
    expect(festival.variants).toHaveLength(150);
    expect(new Set(festival.variants!.map((v) => v.id)).size).toBe(150);
    const pages = fake.requests
      .filter((r) => r.path === variationsPath(900))
      .map((r) => r.query.get('page'));
    expect(pages.sort()).toEqual(['1', '2']);
  });

  it('gives variations with manage_stock "parent" the parent\'s stock', async () => {
    const shared = wooVariable(
      910,
      {
        name: 'Gemeinsames Kontingent',
        slug: 'gemeinsames-kontingent',
        attribute: 'Ticket',
        manage_stock: true,
        stock_quantity: 12,
      },
      [
        { id: 911, option: 'Regulär', price: '20.00', manage_stock: 'parent' },
        { id: 912, option: 'Ermäßigt', price: '15.00', manage_stock: 'parent' },
      ],
    );
    fake.products = [shared.product];
    fake.variations = shared.variations;
    const [product] = await adapter().listProducts();
    expect(product!.stock_quantity).toBe(12);
    expect(product!.variants!.map((v) => [v.id, v.stock_quantity, v.sharesParentStock])).toEqual([
      [911, 12, true],
      [912, 12, true],
    ]);
  });

  it('hands off a variation line with its variation_id; the shop names it "Parent - Option"', async () => {
    const { id } = await adapter().createOrder({
      reference: 'cs_tier',
      email: 'gast@example.org',
      lines: [
        {
          productId: 42,
          variationId: 45,
          name: 'Sommer-Afterwork – VIP',
          quantity: 2,
          unitAmount: 4900,
        },
      ],
      couponCode: null,
      total: 9800,
      currency: 'eur',
      paymentReference: 'pi_tier',
    });
    const posted = fake.requests.find((r) => r.method === 'POST')!.body;
    expect(posted).toMatchObject({
      line_items: [{ product_id: 42, variation_id: 45, quantity: 2 }],
    });
    expect(fake.orders.find((o) => String(o.id) === id)!.line_items[0]).toMatchObject({
      name: 'Sommer-Afterwork auf der MS Hamburg - VIP',
      variation_id: 45,
      total: '98.00',
    });
    expect(fake.variationsOf(42).find((v) => v.id === 45)?.stock_quantity).toBe(2);
  });

  it('rules "Hand-off refused": the shop\'s 400 for an expired coupon is a refusal with its message, posted once, its draft deleted', async () => {
    const err = await adapter()
      .createOrder({
        reference: 'cs_expired',
        email: null,
        lines: [{ productId: 15, name: 'After Work Speicherstadt', quantity: 1, unitAmount: 2900 }],
        couponCode: 'abgelaufen',
        total: 2465,
        currency: 'eur',
        paymentReference: 'pi_expired',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogError);
    expect(err).toMatchObject({ kind: 'refused', status: 400 });
    // In German for the organizer, WooCommerce's own words (entities decoded) beside it.
    expect((err as Error).message).toBe(
      'Der Gutschein „abgelaufen“ ist abgelaufen. (WooCommerce: „Coupon "abgelaufen" has expired.“)',
    );
    expect(fake.calls('/wp-json/wc/v3/orders', 'POST')).toBe(1);
    expect(fake.orders.map((o) => o.id)).toEqual([39, 40, 41]);
    // The draft WooCommerce left (data.new_draft_order_id) is gone.
    expect(fake.drafts).toHaveLength(0);
  });
});
