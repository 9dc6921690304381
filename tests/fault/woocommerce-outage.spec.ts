import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiErrorSchema } from '@awhh/machines';
import { FakeWooCommerce, type WooMode } from '../support/fake-woocommerce.js';
import { wooCoupon, wooEvent } from '../support/woocommerce-fixtures.js';
import {
  type BackendProcess,
  clientHeaders,
  createCheckout,
  sleep,
  startBackend,
} from './support/backend-process.js';

/**
 * rules §7, rules "Errors": WooCommerce is slow and sometimes down. Once the catalog has been
 * read, visitors keep seeing it (stale-if-error); what needs WooCommerce right now (a
 * coupon re-check at checkout) answers 503 in German, never a hang or a 500.
 */

const TTL_SECONDS = 1;

let woo: FakeWooCommerce;
let site: BackendProcess;
let dataDir: string;

async function getJson(path: string): Promise<{ status: number; body: unknown; ms: number }> {
  const started = Date.now();
  const res = await fetch(site.url + path, { headers: clientHeaders() });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // The assertion below shows the raw text.
  }
  return { status: res.status, body, ms: Date.now() - started };
}

const ids = (body: unknown) => (Array.isArray(body) ? body.map((p: { id: number }) => p.id) : body);
const slugs = (body: unknown) =>
  Array.isArray(body) ? body.map((p: { slug: string }) => p.slug).sort() : body;

beforeAll(async () => {
  woo = new FakeWooCommerce({
    products: [
      wooEvent(501, { price: '19.90' }),
      wooEvent(502, { startsInDays: 30, price: '25.00' }),
    ],
    coupons: [wooCoupon('SOMMER10')],
  });
  await woo.start();
  dataDir = mkdtempSync(join(tmpdir(), 'awhh-fault-woo-'));
  site = await startBackend({
    ...woo.env,
    CATALOG_TTL_SECONDS: String(TTL_SECONDS),
    DATABASE_URL: `sqlite:${join(dataDir, 'awhh.db')}`,
    STATIC_DIR: '',
  });
});

afterAll(async () => {
  await site?.kill('SIGTERM');
  await woo?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('fault: WooCommerce down, slow or answering garbage', () => {
  let goodFeed: unknown;
  let goodEvents: unknown;
  let goodBlog: unknown;

  it('fills the cache from a healthy WooCommerce first', async () => {
    const feed = await getJson('/api/woocommerce/products');
    expect(feed.status).toBe(200);
    expect(ids(feed.body)).toEqual(expect.arrayContaining([501, 502]));
    goodFeed = ids(feed.body);
    const events = await getJson('/api/events');
    expect(events.status).toBe(200);
    goodEvents = slugs(events.body);
    expect(goodEvents).toEqual(['testevent-501', 'testevent-502']);
    const blog = await getJson('/api/blog');
    expect(blog.status).toBe(200);
    goodBlog = slugs(blog.body);
  });

  it.each<WooMode>(['down', 'error', 'garbage'])(
    'WooCommerce %s: the last good catalog is still served, quickly',
    async (mode) => {
      woo.mode = mode;
      await sleep(TTL_SECONDS * 1000 + 300);
      // Twice: the first request after expiry starts the revalidation, the second
      // sees its failure.
      for (let round = 0; round < 2; round += 1) {
        const feed = await getJson('/api/woocommerce/products');
        expect({ status: feed.status, ids: ids(feed.body) }).toEqual({
          status: 200,
          ids: goodFeed,
        });
        expect(feed.ms).toBeLessThan(2_000);
        const events = await getJson('/api/events');
        expect({ status: events.status, slugs: slugs(events.body) }).toEqual({
          status: 200,
          slugs: goodEvents,
        });
        const event = await getJson('/api/events/testevent-501');
        expect(event.status).toBe(200);
        const blog = await getJson('/api/blog');
        expect({ status: blog.status, slugs: slugs(blog.body) }).toEqual({
          status: 200,
          slugs: goodBlog,
        });
        await sleep(500);
      }
      woo.mode = 'ok';
    },
    30_000,
  );

  it.each<WooMode>(['down', 'error', 'garbage'])(
    'WooCommerce %s: a checkout with a coupon (re-checked live) answers 503 with a German message',
    async (mode) => {
      woo.mode = mode;
      const started = Date.now();
      const res = await createCheckout(
        site.url,
        [{ productId: 501, name: 'Testevent 501', amount: 19.9, quantity: 1 }],
        { coupon: { code: 'SOMMER10', discountType: 'percent', discount: 10 } },
      );
      const body = apiErrorSchema.parse(await res.json());
      woo.mode = 'ok';
      expect(res.status).toBe(503);
      expect(body.statusCode).toBe(503);
      expect(body.message).toMatch(/[äöüß]|bitte|später|erreichbar/i);
      expect(Date.now() - started).toBeLessThan(30_000);
    },
    45_000,
  );

  it.each<WooMode>(['down', 'error', 'garbage'])(
    'WooCommerce %s: a checkout without a coupon answers 503 too; it never sells from the stale copy',
    async (mode) => {
      woo.mode = mode;
      // Past the TTL the pages keep the last good copy, checkout needs current prices.
      await sleep(TTL_SECONDS * 1000 + 200);
      const res = await createCheckout(site.url, [
        { productId: 501, name: 'Testevent 501', amount: 19.9, quantity: 1 },
      ]);
      const body = apiErrorSchema.parse(await res.json());
      woo.mode = 'ok';
      expect(res.status).toBe(503);
      expect(body.message).toMatch(/Warenkorb bleibt gespeichert/);
    },
    45_000,
  );

  it('WooCommerce back: the catalog follows the organizer again', async () => {
    woo.mode = 'ok';
    woo.products = [...woo.products, wooEvent(503, { startsInDays: 40 })];
    await sleep(TTL_SECONDS * 1000 + 300);
    const deadline = Date.now() + 10_000;
    let last: unknown;
    while (Date.now() < deadline) {
      last = ids((await getJson('/api/woocommerce/products')).body);
      if (Array.isArray(last) && last.includes(503)) break;
      await sleep(300);
    }
    expect(last).toEqual(expect.arrayContaining([501, 502, 503]));
  });
});
