import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import { recordedShop } from '../../../tests/support/woocommerce-fixtures.js';
import {
  RECORDED_WEBHOOK_SECRET,
  WEBHOOK_RECORDINGS as REC,
  type WooWebhookRecording,
} from '../../../tests/support/woocommerce-webhooks.js';
import { CATALOG_VERSION_POLL_MS } from '../../src/catalog/catalog-version.js';
import { createTestDatabase, DATABASES, waitFor } from '../support/checkout-test-app.js';
import { createTestApp, wooEnv } from '../support/test-app.js';

jest.setTimeout(60_000);

// rules "WooCommerce webhooks", docs/decisions/0014: a product change WooCommerce delivers
// to one process reaches every process within 5 seconds. Two processes on one store, as
// in production: the checkout process receives the delivery, the products process (its
// catalog cached for an hour) serves the new price.

/** The recorded shop's simple event "After Work Speicherstadt", 29 €. */
const EVENT = 15;

describe.each(DATABASES)('catalog changes reach every process (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let shop: FakeWooCommerce;
  let products: NestFastifyApplication;
  let checkout: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    shop = await FakeWooCommerce.start(recordedShop());
    const env = {
      ...wooEnv(shop),
      DATABASE_URL: db.url,
      // Only the version can explain a change seen within the test.
      CATALOG_TTL_SECONDS: '3600',
      WOOCOMMERCE_WEBHOOK_SECRET: RECORDED_WEBHOOK_SECRET,
    };
    checkout = await createTestApp({ ...env, MODULES: 'checkout' });
    products = await createTestApp({ ...env, MODULES: 'products' });
  });
  afterEach(async () => {
    await products?.close();
    await checkout?.close();
    await shop.stop();
  });

  async function priceOnProducts(): Promise<number | undefined> {
    const res = await products.inject({ method: 'GET', url: '/api/woocommerce/products' });
    expect(res.statusCode).toBe(200);
    const list = res.json() as { id: number; price: number }[];
    return list.find((p) => p.id === EVENT)?.price;
  }

  function deliver(delivery: WooWebhookRecording) {
    return checkout.inject({
      method: 'POST',
      url: '/api/webhooks/woocommerce',
      headers: Object.fromEntries(
        Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v]),
      ),
      payload: delivery.rawBody,
    });
  }

  it('rules "WooCommerce webhooks": a signed product delivery to the checkout process; the products process serves the new price within 5 s', async () => {
    expect(await priceOnProducts()).toBe(29);
    shop.products.find((p) => p.id === EVENT)!.price = '31.00';
    // The products process keeps its cached catalog: no delivery, no change.
    await new Promise((r) => setTimeout(r, CATALOG_VERSION_POLL_MS + 500));
    expect(await priceOnProducts()).toBe(29);

    const res = await deliver(REC.productUpdatedVariationStock);
    expect(res.statusCode).toBe(200);
    expect(res.json().outcome).toBe('catalog_changed');
    const sent = Date.now();
    await waitFor(async () => (await priceOnProducts()) === 31, 5_000);
    expect(Date.now() - sent).toBeLessThan(5_000);
  });

  it('rules "WooCommerce webhooks": a delivery whose signature is wrong changes nothing anywhere', async () => {
    expect(await priceOnProducts()).toBe(29);
    shop.products.find((p) => p.id === EVENT)!.price = '31.00';
    const forged = {
      ...REC.productUpdatedVariationStock,
      headers: {
        ...REC.productUpdatedVariationStock.headers,
        'X-WC-Webhook-Signature': 'AAAA',
      },
    };
    expect((await deliver(forged)).statusCode).toBe(401);
    await new Promise((r) => setTimeout(r, CATALOG_VERSION_POLL_MS + 500));
    expect(await priceOnProducts()).toBe(29);
  });
});
