import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { EventSummary } from '@awhh/machines';
import ICAL from 'ical.js';
import { createTestApp, wooEnv } from '../support/test-app.js';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';

beforeAll(() => Logger.overrideLogger(false));

function vevents(text: string): ICAL.Event[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
}

const sequenceOf = (e: ICAL.Event) => Number(e.component.getFirstPropertyValue('sequence'));

describe('GET /events.ics with the embedded demo catalog', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('lists every upcoming event, soonest first, and no past one, for a calendar parser', async () => {
    const res = await app.inject({ method: 'GET', url: '/events.ics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+, stale-while-revalidate/);
    for (const line of res.body.split('\r\n'))
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

    const events = JSON.parse(
      (await app.inject({ method: 'GET', url: '/api/events' })).body,
    ) as EventSummary[];
    const upcoming = events.filter((e) => !e.past && e.startsAt);
    expect(upcoming.length).toBeGreaterThanOrEqual(6);
    const entries = vevents(res.body);
    expect(entries.map((e) => e.summary)).toEqual(upcoming.map((e) => e.name));
    expect(entries.map((e) => e.startDate.toJSDate().getTime())).toEqual(
      upcoming.map((e) => Date.parse(e.startsAt!)),
    );
    expect(new Set(entries.map((e) => e.uid)).size).toBe(entries.length);
    for (const entry of entries) expect(sequenceOf(entry)).toBeGreaterThan(0);

    // The single download carries the same UID and SEQUENCE: subscribing updates it.
    const first = upcoming[0]!;
    const single = await app.inject({
      method: 'GET',
      url: `/api/events/${first.slug}/calendar.ics`,
    });
    const [one] = vevents(single.body);
    expect(one!.uid).toBe(entries[0]!.uid);
    expect(sequenceOf(one!)).toBe(sequenceOf(entries[0]!));
  });

  it('answers 304 to its ETag and the same bytes to a second request', async () => {
    const first = await app.inject({ method: 'GET', url: '/events.ics' });
    const again = await app.inject({ method: 'GET', url: '/events.ics' });
    expect(again.body).toBe(first.body);
    const cached = await app.inject({
      method: 'GET',
      url: '/events.ics',
      headers: { 'if-none-match': first.headers.etag as string },
    });
    expect(cached.statusCode).toBe(304);
  });

  it('is not an API route', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/events.ics' });
    expect(res.statusCode).not.toBe(200);
  });
});

describe('GET /events.ics with WooCommerce', () => {
  let fake: FakeWooCommerce;
  let app: NestFastifyApplication;
  beforeEach(async () => {
    fake = await FakeWooCommerce.start();
    app = await createTestApp({ ...wooEnv(fake), CATALOG_TTL_SECONDS: '0' });
  });
  afterEach(async () => {
    await app?.close();
    await fake.stop();
  });

  it('keeps the UID and raises SEQUENCE when the shop changes an event', async () => {
    const before = vevents((await app.inject({ method: 'GET', url: '/events.ics' })).body);
    const entry = before.find((e) => e.summary === 'Afterwork im Hafen')!;
    expect(entry).toBeDefined();
    const product = fake.products.find((p) => p.slug === 'afterwork-im-hafen')!;
    const earlier = Date.parse(`${product.date_modified}Z`);
    // The organizer renames the evening; WooCommerce moves date_modified forward.
    product.name = 'Afterwork im Hafen – mit Live-Band';
    product.date_modified = new Date(earlier + 3_600_000).toISOString().slice(0, 19);

    // The catalog refreshes behind the last copy (stale-while-revalidate): ask until it has.
    let after = before;
    for (let i = 0; i < 40 && after.some((e) => e.summary === 'Afterwork im Hafen'); i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      after = vevents((await app.inject({ method: 'GET', url: '/events.ics' })).body);
    }
    const changed = after.find((e) => e.uid === entry.uid)!;
    expect(changed.summary).toBe('Afterwork im Hafen – mit Live-Band');
    expect(sequenceOf(changed)).toBe(sequenceOf(entry) + 3600);
    // The other entries are untouched.
    const others = (list: ICAL.Event[]) =>
      list.filter((e) => e.uid !== entry.uid).map((e) => [e.uid, sequenceOf(e)]);
    expect(others(after)).toEqual(others(before));
  });
});
