import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  apiErrorSchema,
  blogPostSchema,
  blogPostSummarySchema,
  couponValidationResponseSchema,
  eventDetailSchema,
  eventSummarySchema,
  productFeedSchema,
  type EventSummary,
} from '@awhh/machines';
import { createTestApp, wooEnv } from '../support/test-app.js';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';

beforeAll(() => Logger.overrideLogger(false));

const json = <T>(res: { body: string }) => JSON.parse(res.body) as T;

describe('products API over HTTP with the embedded demo catalog', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('GET /api/woocommerce/products serves the rules §7 feed with ETag and Cache-Control', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/woocommerce/products' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(res.headers.etag).toMatch(/^W\/".+"$/);
    const feed = productFeedSchema.parse(json(res));
    expect(feed.filter((p) => p.kind === 'event').length).toBeGreaterThanOrEqual(6);
    expect(feed.filter((p) => p.kind === 'product')).toHaveLength(4);
    expect(feed[0]).not.toHaveProperty('description');
  });

  it('answers 304 to a matching If-None-Match and 200 to a stale one', async () => {
    const first = await app.inject({ method: 'GET', url: '/api/events' });
    const etag = first.headers.etag as string;
    const again = await app.inject({
      method: 'GET',
      url: '/api/events',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const list = await app.inject({
      method: 'GET',
      url: '/api/events',
      headers: { 'if-none-match': `W/"other", ${etag}` },
    });
    expect(list.statusCode).toBe(304);
    const stale = await app.inject({
      method: 'GET',
      url: '/api/events',
      headers: { 'if-none-match': 'W/"old"' },
    });
    expect(stale.statusCode).toBe(200);
  });

  it('GET /api/events lists upcoming events soonest first, then past ones latest first', async () => {
    const events = eventSummarySchema
      .array()
      .parse(json(await app.inject({ method: 'GET', url: '/api/events' })));
    const upcoming = events.filter((e) => !e.past);
    const past = events.filter((e) => e.past);
    expect(upcoming.length).toBeGreaterThanOrEqual(6);
    expect(past.length).toBeGreaterThanOrEqual(2);
    expect(events.slice(0, upcoming.length).every((e) => !e.past)).toBe(true);
    const times = (list: EventSummary[]) => list.map((e) => Date.parse(e.startsAt!));
    expect(times(upcoming)).toEqual([...times(upcoming)].sort((a, b) => a - b));
    expect(times(past)).toEqual([...times(past)].sort((a, b) => b - a));
    for (const e of past) expect(Date.parse(e.startsAt!)).toBeLessThan(Date.now());
    expect(events.some((e) => e.slug.startsWith('awhh-'))).toBe(false);
  });

  it('resolves each demo event date through the shared rule, plugin keys included', async () => {
    const events = json<EventSummary[]>(await app.inject({ method: 'GET', url: '/api/events' }));
    const bySlug = new Map(events.map((e) => [e.slug, e]));
    const berlinTime = (iso: string) =>
      new Intl.DateTimeFormat('de-DE', {
        timeZone: 'Europe/Berlin',
        hour: '2-digit',
        minute: '2-digit',
      }).format(new Date(iso));
    // FooEvents "07" + "00" + "p.m." is 19:00 Berlin time.
    expect(berlinTime(bySlug.get('soul-cocktails-kontorhaus')!.startsAt!)).toBe('19:00');
    expect(berlinTime(bySlug.get('afterwork-dachterrasse')!.startsAt!)).toBe('18:30');
    expect(berlinTime(bySlug.get('community-abend-alster')!.startsAt!)).toBe('18:00');
    expect(berlinTime(bySlug.get('jazz-und-gin-hafencity')!.startsAt!)).toBe('19:30');
    // The impossible event_date falls through to start_date (19:00).
    expect(berlinTime(bySlug.get('plattenabend-schanze')!.startsAt!)).toBe('19:00');
    expect(bySlug.get('soul-cocktails-kontorhaus')!.venue).toBe(
      'Chilehaus-Lichthof, Kontorhausviertel',
    );
  });

  it('derives availability from stock: sold out at 0, few left at 10 or less', async () => {
    const events = json<EventSummary[]>(await app.inject({ method: 'GET', url: '/api/events' }));
    const bySlug = new Map(events.map((e) => [e.slug, e]));
    expect(bySlug.get('community-abend-alster')).toMatchObject({
      availability: 'sold_out',
      available: 0,
    });
    expect(bySlug.get('speicherstadt-networking-night')).toMatchObject({
      availability: 'few_left',
      available: 7,
    });
    expect(bySlug.get('elbstrand-sundowner')).toMatchObject({
      availability: 'available',
      available: 80,
    });
  });

  it('GET /api/events/:slug gives the detail with sanitised description HTML', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/events/speicherstadt-networking-night',
    });
    expect(res.statusCode).toBe(200);
    const event = eventDetailSchema.parse(json(res));
    expect(event.descriptionHtml).toContain('<h3>Ablauf</h3>');
    expect(res.headers.etag).toBeDefined();
  });

  it('GET /api/events/:slug answers 404 JSON in German for an unknown slug', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/events/gibt-es-nicht' });
    expect(res.statusCode).toBe(404);
    expect(apiErrorSchema.parse(json(res))).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Dieses Event gibt es nicht (mehr).',
    });
  });

  it('GET /api/events/:slug does not serve merch', async () => {
    expect(
      (await app.inject({ method: 'GET', url: '/api/events/awhh-jutebeutel' })).statusCode,
    ).toBe(404);
  });

  it('GET /api/blog lists four German posts, newest first, with plain-text excerpts', async () => {
    const posts = blogPostSummarySchema
      .array()
      .parse(json(await app.inject({ method: 'GET', url: '/api/blog' })));
    expect(posts).toHaveLength(4);
    const dates = posts.map((p) => Date.parse(p.publishedAt));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    for (const post of posts) {
      expect(post.excerpt).not.toMatch(/<|&\w+;/);
      expect(post.image?.src).toMatch(/^\/media\/demo\//);
    }
  });

  it('GET /api/blog/:slug gives the post; unknown slugs are 404 JSON', async () => {
    const ok = await app.inject({ method: 'GET', url: '/api/blog/fuenf-tipps-erstes-afterwork' });
    expect(blogPostSchema.parse(json(ok)).contentHtml).toContain('<ol>');
    const missing = await app.inject({ method: 'GET', url: '/api/blog/nicht-da' });
    expect(missing.statusCode).toBe(404);
    expect(json<{ message: string }>(missing).message).toBe('Diesen Beitrag gibt es nicht (mehr).');
  });

  describe('POST /api/coupons/validate', () => {
    const validate = (payload: unknown) =>
      app.inject({ method: 'POST', url: '/api/coupons/validate', payload: payload as object });

    it.each([
      ['AFTERWORK10', undefined, { code: 'AFTERWORK10', discountType: 'percent', discount: 10 }],
      ['willkommen5', undefined, { code: 'WILLKOMMEN5', discountType: 'fixed_cart', discount: 5 }],
      ['FREIKARTE', 12, { code: 'FREIKARTE', discountType: 'percent', discount: 100 }],
      ['TEAM20', 120, { code: 'TEAM20', discountType: 'percent', discount: 20 }],
    ])('accepts %s', async (code, subtotal, expected) => {
      const res = await validate({ code, subtotal });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(couponValidationResponseSchema.parse(json(res))).toEqual(expected);
    });

    it.each([
      ['GIBTSNICHT', undefined, 404, 'Diesen Gutscheincode kennen wir nicht.'],
      ['SOMMER2024', undefined, 422, 'Dieser Gutschein ist seit dem 30.09.2024 abgelaufen.'],
      ['FRUEHBUCHER', undefined, 422, 'Dieser Gutschein ist bereits vollständig eingelöst.'],
      ['TEAM20', 99.99, 422, 'Dieser Gutschein gilt erst ab einem Bestellwert von 100,00\u00a0€.'],
    ])('refuses %s (subtotal %s) with %i', async (code, subtotal, status, message) => {
      const res = await validate({ code, subtotal });
      expect(res.statusCode).toBe(status);
      expect(apiErrorSchema.parse(json(res)).message).toBe(message);
    });
  });

  it('GET /api/health is alive and /api/health/ready reports the catalog', async () => {
    const live = await app.inject({ method: 'GET', url: '/api/health' });
    expect(json(live)).toMatchObject({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(json(ready)).toMatchObject({
      status: 'ready',
      checks: { catalog: { ok: true, adapter: 'demo', products: { state: 'fresh' } } },
    });
  });

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    const given = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'abc-123-def' },
    });
    expect(given.headers['x-request-id']).toBe('abc-123-def');
    const made = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': '<script>' },
    });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('products API over HTTP with WooCommerce', () => {
  let fake: FakeWooCommerce;
  let app: NestFastifyApplication;
  beforeEach(async () => {
    fake = await FakeWooCommerce.start();
  });
  afterEach(async () => {
    await app?.close();
    await fake.stop();
  });

  it("serves the shop's data with CMS HTML sanitised on the server", async () => {
    app = await createTestApp(wooEnv(fake));
    const feed = productFeedSchema.parse(
      json(await app.inject({ method: 'GET', url: '/api/woocommerce/products' })),
    );
    expect(feed.map((p) => p.id).sort()).toEqual([11, 12, 13, 14, 15, 21, 22]);
    expect(feed.find((p) => p.id === 11)!.short_description).toBe(
      '<p>Drinks mit Blick auf die Elbe.</p>',
    );

    const events = json<EventSummary[]>(await app.inject({ method: 'GET', url: '/api/events' }));
    // No slug → not an event page; merch is not an event.
    expect(events.map((e) => e.slug)).not.toContain('');
    expect(events.map((e) => e.slug)).not.toContain('jutebeutel');
    expect(events.find((e) => e.slug === 'jazz-gin-spezial')).toMatchObject({
      price: 0,
      available: null,
    });

    const detail = eventDetailSchema.parse(
      json(await app.inject({ method: 'GET', url: '/api/events/afterwork-im-hafen' })),
    );
    expect(detail.descriptionHtml).not.toMatch(/script|onclick|iframe|javascript:|<h1/);
    expect(detail.descriptionHtml).toContain(
      '<a href="https://example.org/karte" target="_blank" rel="noopener noreferrer">Karte</a>',
    );
    expect(detail).toMatchObject({ venue: 'Hafenbar, St. Pauli', availability: 'available' });

    const post = blogPostSchema.parse(
      json(await app.inject({ method: 'GET', url: '/api/blog/rueckblick-hafen' })),
    );
    expect(post.title).toBe('Rückblick: „Afterwork im Hafen“');
    expect(post.excerpt).toBe('So war der Abend an der Elbe …');
    expect(post.contentHtml).not.toMatch(/script|onerror/);
  });

  it('validates coupons against WooCommerce', async () => {
    app = await createTestApp(wooEnv(fake));
    const res = await app.inject({
      method: 'POST',
      url: '/api/coupons/validate',
      payload: { code: 'AfterWork10' },
    });
    expect(json(res)).toEqual({ code: 'afterwork10', discountType: 'percent', discount: 10 });
  });

  it('answers 503 in German while WooCommerce is down and nothing is cached', async () => {
    fake.mode = 'maintenance';
    app = await createTestApp(wooEnv(fake));
    const res = await app.inject({ method: 'GET', url: '/api/events' });
    expect(res.statusCode).toBe(503);
    expect(apiErrorSchema.parse(json(res)).message).toMatch(/nicht erreichbar/);
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(json(ready)).toMatchObject({ status: 'not_ready', checks: { catalog: { ok: false } } });
  });

  it('keeps serving the last good data when WooCommerce goes down (stale-if-error)', async () => {
    app = await createTestApp({ ...wooEnv(fake), CATALOG_TTL_SECONDS: '0' });
    const before = await app.inject({ method: 'GET', url: '/api/events' });
    expect(before.statusCode).toBe(200);
    fake.mode = 'maintenance';
    for (let i = 0; i < 3; i++) {
      const during = await app.inject({ method: 'GET', url: '/api/events' });
      expect(during.statusCode).toBe(200);
      expect(during.body).toBe(before.body);
    }
  });

  it('makes one upstream call for 200 concurrent cold requests', async () => {
    fake.latencyMs = 150;
    // The start-up warm-up is in flight when the requests arrive; they all join it.
    app = await createTestApp(wooEnv(fake));
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        app.inject({ method: 'GET', url: i % 2 ? '/api/events' : '/api/woocommerce/products' }),
      ),
    );
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    expect(fake.calls('/wp-json/wc/v3/products')).toBe(1);
  });
});
