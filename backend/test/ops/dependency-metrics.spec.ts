import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Registry } from 'prom-client';
import { CatalogError } from '../../src/catalog/catalog.errors.js';
import { CatalogService } from '../../src/catalog/catalog.service.js';
import { instrumentedCatalog } from '../../src/catalog/adapters/catalog-adapter.factory.js';
import { DemoCatalogAdapter } from '../../src/catalog/adapters/demo-catalog.adapter.js';
import type { CatalogPort } from '../../src/catalog/catalog.port.js';
import {
  DependencyMetrics,
  instrumented,
  MetricsRegistry,
} from '../../src/ops/dependency-metrics.js';
import { appMetrics } from '../../src/ops/metrics.js';
import { createTestApp, wooEnv } from '../support/test-app.js';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';

/** The dependency metrics' text (a products process on an empty in-memory store has no jobs table). */
async function dependencyText(registry: Registry): Promise<string> {
  const names = ['dependency_request_duration_seconds', 'dependency_request_failures_total'];
  return (await Promise.all(names.map((name) => registry.getSingleMetricAsString(name)))).join(
    '\n',
  );
}

/** The value of one series, or undefined when it is not there. */
async function sample(registry: Registry, series: string): Promise<number | undefined> {
  const text = await dependencyText(registry);
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const WOO_FAILURES = (operation: string) =>
  `dependency_request_failures_total{dependency="woocommerce",operation="${operation}"}`;
const WOO_CALLS = (operation: string) =>
  `dependency_request_duration_seconds_count{dependency="woocommerce",operation="${operation}"}`;

describe('calls to WooCommerce, Stripe and SMTP (docs/operations.md "Betrieb: Metriken")', () => {
  it('times each operation and counts its failures, leaving the adapter its own members', async () => {
    const registry = new Registry();
    const metrics = new DependencyMetrics(registry);
    const adapter = {
      name: 'smtp',
      sent: 0,
      async send(ok: boolean): Promise<number> {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (!ok) throw new Error('421 Service not available');
        return ++this.sent;
      },
    };
    const wrapped = instrumented(adapter, 'smtp', ['send'], metrics);
    const send = 'dependency_request_duration_seconds_count{dependency="smtp",operation="send"}';
    const failed = 'dependency_request_failures_total{dependency="smtp",operation="send"}';
    // Declared up front: an alert on the failures' rate has a series from the start.
    expect(await sample(registry, failed)).toBe(0);

    expect(await wrapped.send(true)).toBe(1);
    await expect(wrapped.send(false)).rejects.toThrow('421');
    expect(wrapped.name).toBe('smtp');
    expect(adapter.sent).toBe(1);
    expect(await sample(registry, send)).toBe(2);
    expect(await sample(registry, failed)).toBe(1);
    const sum = await sample(
      registry,
      'dependency_request_duration_seconds_sum{dependency="smtp",operation="send"}',
    );
    expect(sum).toBeGreaterThanOrEqual(0.035);
  });

  it("does not count a hand-off WooCommerce refused as WooCommerce failing (the shop's answer)", async () => {
    const metrics = new MetricsRegistry();
    const shop = Object.assign(new DemoCatalogAdapter(), { name: 'woocommerce' }) as CatalogPort;
    let refuse = true;
    shop.createOrder = () =>
      Promise.reject(
        refuse
          ? new CatalogError('refused', 'coupon usage limit reached', 400)
          : new CatalogError('timeout', 'no answer within 10000 ms'),
      );
    const wrapped = instrumentedCatalog(shop, metrics);
    await expect(wrapped.createOrder({} as never)).rejects.toThrow('usage limit');
    expect(await sample(metrics.registry, WOO_CALLS('createOrder'))).toBe(1);
    expect(await sample(metrics.registry, WOO_FAILURES('createOrder'))).toBe(0);
    refuse = false;
    await expect(wrapped.createOrder({} as never)).rejects.toThrow('no answer');
    expect(await sample(metrics.registry, WOO_FAILURES('createOrder'))).toBe(1);
  });

  it('leaves the demo catalog alone: it is no dependency', async () => {
    const metrics = new MetricsRegistry();
    const demo = new DemoCatalogAdapter();
    expect(instrumentedCatalog(demo, metrics)).toBe(demo);
    expect(await dependencyText(metrics.registry)).not.toContain('woocommerce');
  });

  it("wraps the checkout side's Stripe and SMTP adapters, and neither test stand-in", async () => {
    const stripeAndSmtp = await createTestApp({
      MODULES: 'checkout',
      STRIPE_SECRET_KEY: 'sk_test_metriken',
      STRIPE_WEBHOOK_SECRET: 'whsec_metriken',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MAIL_FROM: 'After Work Hamburg <tickets@example.org>',
    });
    const standIns = await createTestApp({ MODULES: 'checkout' });
    try {
      const wired = await dependencyText(appMetrics(stripeAndSmtp).registry);
      for (const operation of ['createSession', 'retrieveSession', 'refund']) {
        expect(wired).toContain(
          `dependency_request_failures_total{dependency="stripe",operation="${operation}"} 0`,
        );
      }
      expect(wired).toContain(
        'dependency_request_failures_total{dependency="smtp",operation="send"} 0',
      );
      expect(await dependencyText(appMetrics(standIns).registry)).not.toMatch(/stripe|smtp/);
    } finally {
      await stripeAndSmtp.close();
      await standIns.close();
    }
  });

  describe('on the app, against a fake WooCommerce', () => {
    let fake: FakeWooCommerce;
    let app: NestFastifyApplication;

    beforeAll(async () => {
      fake = await FakeWooCommerce.start();
      app = await createTestApp(wooEnv(fake));
    });

    afterAll(async () => {
      await app.close();
      await fake.stop();
    });

    it("labels WooCommerce's calls by operation and counts a failed one", async () => {
      const catalog = app.get(CatalogService);
      await catalog.products();
      const { registry } = appMetrics(app);
      expect(await sample(registry, WOO_CALLS('listProducts'))).toBeGreaterThanOrEqual(1);
      expect(await sample(registry, WOO_FAILURES('findCoupon'))).toBe(0);

      // A wrong key is not retried: one failed call.
      fake.failNext(1, 401, '/wp-json/wc/v3/coupons');
      await expect(catalog.findCoupon('SOMMER10', { fresh: true })).rejects.toThrow();
      expect(await sample(registry, WOO_FAILURES('findCoupon'))).toBe(1);

      const text = await dependencyText(registry);
      expect(text).not.toContain(fake.url);
      expect(text).not.toMatch(/SOMMER10|sommer10/);
    });
  });
});
