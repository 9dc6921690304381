import fc from 'fast-check';
import { berlinWallTimeToInstant, startOfBerlinDay } from './berlin-time.js';
import {
  EVENT_DATE_META_KEYS,
  isEventProduct,
  nextEventLink,
  parseEventDate,
  resolveEventDate,
  selectNextEvent,
  sortByEventDate,
  venueOf,
  type DatedProduct,
} from './next-event.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const meta = (key: string, value: unknown) => ({ key, value });
const product = (
  slug: unknown,
  metaData: { key: string; value: unknown }[] = [],
  created = '2026-01-01T10:00:00',
) => ({
  slug,
  date_created: created,
  date_modified: '2026-02-01T10:00:00',
  meta_data: metaData,
});

describe('rules §4/§5 next event', () => {
  it('rules §3: event date meta keys in priority order', () => {
    expect(EVENT_DATE_META_KEYS).toEqual([
      'event_date',
      'event_start_date',
      'start_date',
      'date',
      'event_datetime',
    ]);
  });

  it.each(EVENT_DATE_META_KEYS.map((k) => [k]))('rules §4: %s carries the event date', (key) => {
    const resolved = resolveEventDate(product('a', [meta(key, '2026-12-04 19:00')]));
    expect(resolved?.key).toBe(key);
    expect(resolved?.date.toISOString()).toBe('2026-12-04T18:00:00.000Z');
  });

  it('rules §4: the first key in priority order with a valid date wins', () => {
    const p = product('a', [
      meta('event_datetime', '2026-12-10T20:00:00+01:00'),
      meta('start_date', '2026-12-08'),
      meta('event_date', 'bald'),
    ]);
    expect(resolveEventDate(p)?.key).toBe('start_date');
  });

  it('rules §5: an invalid event date does not count; the creation date is used', () => {
    const p = product(
      'a',
      [meta('event_date', '2026-02-31'), meta('date', 'morgen')],
      '2026-12-01T09:00:00',
    );
    expect(resolveEventDate(p)).toMatchObject({ source: 'date_created' });
  });

  it('rules §4: without a valid creation date the modification date is used', () => {
    const p = {
      slug: 'a',
      date_created: 'kaputt',
      date_modified: '2026-12-02T09:00:00',
      meta_data: [],
    };
    expect(resolveEventDate(p)).toMatchObject({ source: 'date_modified' });
  });

  it('rules "Events": FooEvents and The Events Calendar keys are read after the §3 keys', () => {
    const foo = product('f', [
      meta('WooCommerceEventsDateMySQLFormat', '2026-12-05'),
      meta('WooCommerceEventsHour', '07'),
      meta('WooCommerceEventsMinutes', '30'),
      meta('WooCommerceEventsPeriod', 'p.m.'),
    ]);
    expect(resolveEventDate(foo)).toMatchObject({ source: 'plugin' });
    expect(resolveEventDate(foo)!.date.toISOString()).toBe('2026-12-05T18:30:00.000Z');
    const tec = product('t', [meta('_EventStartDate', '2026-07-01 18:00:00')]);
    expect(resolveEventDate(tec)!.date.toISOString()).toBe('2026-07-01T16:00:00.000Z');
    const both = product('b', [meta('_EventStartDate', '2026-07-01'), meta('date', '2026-08-01')]);
    expect(resolveEventDate(both)!.key).toBe('date');
  });

  it('rules "Events": messy meta values (arrays, numbers, objects) never crash', () => {
    expect(parseEventDate(['2026-12-04'])).not.toBeNull();
    expect(parseEventDate(1796400000)).toEqual(new Date(1796400000 * 1000));
    expect(parseEventDate({ date: '2026-12-04' })).toBeNull();
    expect(parseEventDate(null)).toBeNull();
    expect(parseEventDate('04.12.2026 19:00')!.toISOString()).toBe('2026-12-04T18:00:00.000Z');
    expect(parseEventDate('1')).toBeNull();
  });

  it('rules §4: the product list is sorted ascending by event date', () => {
    const list = [
      product('c', [meta('event_date', '2026-12-20')]),
      product('a', [meta('event_date', '2026-12-01')]),
      product('b', [meta('event_date', '2026-12-10')]),
    ];
    expect(sortByEventDate(list).map((e) => e.product.slug)).toEqual(['a', 'b', 'c']);
  });

  it('rules §4: the first entry is the next event, linked as /events/{slug}', () => {
    const list = [
      product('spaeter', [meta('event_date', '2026-12-20')]),
      product('bald', [meta('event_date', '2026-12-01')]),
    ];
    expect(selectNextEvent(list, NOW)?.product.slug).toBe('bald');
    expect(nextEventLink(list, NOW)).toBe('/events/bald');
  });

  it('rules §4: the link is / when there is no event', () => {
    expect(nextEventLink([], NOW)).toBe('/');
  });

  it.each([[''], ['   '], [null], [42], [undefined]])(
    'rules §5: only products with a non-empty text slug count (%p)',
    (slug) => {
      expect(nextEventLink([product(slug, [meta('event_date', '2026-12-01')])], NOW)).toBe('/');
    },
  );

  it('rules "Events": past events are excluded from the next-event link', () => {
    const list = [
      product('vorbei', [meta('event_date', '2026-11-01')]),
      product('kommt', [meta('event_date', '2026-12-01')]),
    ];
    expect(nextEventLink(list, NOW)).toBe('/events/kommt');
    expect(nextEventLink([list[0]!], NOW)).toBe('/');
  });

  it('rules "Events": an event earlier today still counts (past means before the start of today, Berlin)', () => {
    const lateEvening = new Date('2026-11-22T22:30:00Z'); // 23:30 in Berlin
    const list = [product('heute', [meta('event_date', '2026-11-22 18:00')])];
    expect(nextEventLink(list, lateEvening)).toBe('/events/heute');
    const afterMidnight = new Date('2026-11-22T23:30:00Z'); // 00:30 next day in Berlin
    expect(nextEventLink(list, afterMidnight)).toBe('/');
  });

  it('rules "Events": merchandise never becomes the next event, even on the day it is created', () => {
    const shirt = { ...product('shirt', [], '2026-11-22T09:00:00'), kind: 'product' as const };
    const event = {
      ...product('kommt', [meta('event_date', '2026-12-01')]),
      kind: 'event' as const,
    };
    expect(nextEventLink([shirt, event], NOW)).toBe('/events/kommt');
    expect(nextEventLink([shirt], NOW)).toBe('/');
  });

  it('rules "Events": an event is a product with event-date meta or in an events category', () => {
    expect(isEventProduct(product('a', [meta('date', 'kaputt')]))).toBe(true);
    expect(isEventProduct({ ...product('b'), categories: [{ slug: 'Veranstaltungen' }] })).toBe(
      true,
    );
    expect(isEventProduct({ ...product('c'), categories: [{ slug: 'merch' }] })).toBe(false);
    expect(isEventProduct({ ...product('d', [meta('date', '2026-12-01')]), kind: 'product' })).toBe(
      false,
    );
  });

  it('rules "Events": venue from WooCommerceEventsLocation, location or venue', () => {
    expect(venueOf(product('a', [meta('venue', 'Elbphilharmonie Plaza')]))).toBe(
      'Elbphilharmonie Plaza',
    );
    expect(venueOf(product('a', [meta('WooCommerceEventsLocation', ['Tower Bar'])]))).toBe(
      'Tower Bar',
    );
    expect(venueOf(product('a'))).toBeNull();
  });
});

describe('next-event properties', () => {
  const dayOffset = fc.integer({ min: -400, max: 400 });
  const junk = fc.oneof(
    fc.constantFrom('', 'bald', '2026-13-01', '31.02.2026', 'NaN'),
    fc.object(),
    fc.constant(null),
  );
  const isoDay = (offset: number) =>
    new Date(NOW.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const arbProduct = fc.record({
    slug: fc.oneof(fc.stringMatching(/^[a-z]{1,8}$/), fc.constantFrom('', null)),
    offset: dayOffset,
    key: fc.constantFrom(...EVENT_DATE_META_KEYS),
    junkFirst: fc.option(junk, { nil: undefined }),
  });
  const toProduct = (p: {
    slug: unknown;
    offset: number;
    key: string;
    junkFirst?: unknown;
  }): DatedProduct =>
    product(
      p.slug,
      [
        ...(p.junkFirst === undefined ? [] : [meta('event_date', p.junkFirst)]),
        meta(p.key === 'event_date' ? 'event_start_date' : p.key, isoDay(p.offset)),
      ],
      '2020-01-01T00:00:00',
    );

  it('the sorted list is ascending and only holds products with a text slug', () => {
    fc.assert(
      fc.property(fc.array(arbProduct, { maxLength: 30 }), (raw) => {
        const sorted = sortByEventDate(raw.map(toProduct));
        for (let i = 1; i < sorted.length; i++) {
          expect(sorted[i - 1]!.date.getTime()).toBeLessThanOrEqual(sorted[i]!.date.getTime());
        }
        for (const e of sorted)
          expect(typeof e.product.slug === 'string' && e.product.slug !== '').toBe(true);
      }),
    );
  });

  it('the next event is the earliest upcoming one; invalid dates fall through to the next key', () => {
    fc.assert(
      fc.property(fc.array(arbProduct, { maxLength: 30 }), (raw) => {
        const products = raw.map(toProduct);
        const next = selectNextEvent(products, NOW);
        const upcoming = raw.filter(
          (p) => typeof p.slug === 'string' && p.slug !== '' && p.offset >= 0,
        );
        if (upcoming.length === 0) {
          expect(next).toBeNull();
          return;
        }
        const earliest = Math.min(...upcoming.map((p) => p.offset));
        expect(next).not.toBeNull();
        expect(next!.date.getTime()).toBe(berlinMidnight(isoDay(earliest)));
      }),
    );
  });

  it('ties keep the feed order (stable), so the result does not depend on sort internals', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 1, maxLength: 10 }),
        (slugs) => {
          const products = slugs.map((s) => product(s, [meta('event_date', '2026-12-24 18:00')]));
          expect(selectNextEvent(products, NOW)!.product.slug).toBe(slugs[0]);
        },
      ),
    );
  });

  it('the start of the Berlin day is midnight in Berlin, also across DST', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true }),
        (d) => {
          const start = startOfBerlinDay(d);
          expect(start.getTime()).toBeLessThanOrEqual(d.getTime());
          expect(d.getTime() - start.getTime()).toBeLessThan(25 * 3_600_000);
          const hm = new Intl.DateTimeFormat('de-DE', {
            timeZone: 'Europe/Berlin',
            hour: '2-digit',
            minute: '2-digit',
          }).format(start);
          expect(hm).toBe('00:00');
        },
      ),
    );
  });
});

function berlinMidnight(isoDate: string): number {
  const [y, m, d] = isoDate.split('-').map(Number);
  return berlinWallTimeToInstant(y!, m!, d!);
}
