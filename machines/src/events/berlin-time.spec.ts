import fc from 'fast-check';
import {
  berlinOffset,
  berlinParts,
  berlinWallTimeToInstant,
  SITE_TIME_ZONE,
  startOfBerlinDay,
} from './berlin-time.js';

/** The time zone database's answer, as Intl gives it. */
const reference = new Intl.DateTimeFormat('en-US', {
  timeZone: SITE_TIME_ZONE,
  hourCycle: 'h23',
  weekday: 'short',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function tzdbParts(instant: number) {
  const parts = Object.fromEntries(
    reference.formatToParts(new Date(instant)).map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS.indexOf(parts.weekday!),
  };
}

const HOUR = 60 * 60 * 1000;
const since1996 = Date.UTC(1996, 0, 1);
const until2100 = Date.UTC(2100, 0, 1);

describe('Berlin\'s wall clock (rules "Event page": dates in Europe/Berlin)', () => {
  it('agrees with the time zone database at any instant from 1996 on', () => {
    fc.assert(
      fc.property(fc.integer({ min: since1996, max: until2100 }), (instant) => {
        expect(berlinParts(instant)).toEqual(tzdbParts(instant));
      }),
      { numRuns: 5000 },
    );
  });

  it('switches to summer time and back at 01:00 UTC on the last Sundays of March and October', () => {
    for (let year = 1996; year <= 2060; year += 1) {
      for (const month of [2, 9]) {
        // Every hour of the last week of the month, on both sides of the change.
        const start = Date.UTC(year, month, 24);
        for (let instant = start; instant < Date.UTC(year, month + 1, 1); instant += HOUR) {
          for (const at of [instant - 1, instant]) {
            expect(berlinParts(at)).toEqual(tzdbParts(at));
          }
        }
      }
    }
  });

  it('is one hour ahead in winter and two in summer', () => {
    expect(berlinOffset(Date.parse('2026-12-04T18:00:00Z'))).toBe(HOUR);
    expect(berlinOffset(Date.parse('2026-06-12T17:00:00Z'))).toBe(2 * HOUR);
    expect(berlinOffset(Date.parse('2026-03-29T00:59:59Z'))).toBe(HOUR);
    expect(berlinOffset(Date.parse('2026-03-29T01:00:00Z'))).toBe(2 * HOUR);
    expect(berlinOffset(Date.parse('2026-10-25T00:59:59Z'))).toBe(2 * HOUR);
    expect(berlinOffset(Date.parse('2026-10-25T01:00:00Z'))).toBe(HOUR);
  });

  it('turns a wall time back into the instant that shows it', () => {
    fc.assert(
      fc.property(fc.integer({ min: since1996, max: until2100 }), (instant) => {
        const p = berlinParts(instant);
        const back = berlinWallTimeToInstant(p.year, p.month, p.day, p.hour, p.minute, p.second);
        // The hour repeated in October has two instants; either shows the same wall time.
        expect(berlinParts(back)).toEqual(berlinParts(Math.floor(instant / 1000) * 1000));
      }),
    );
  });

  it('starts the Berlin day at local midnight', () => {
    expect(startOfBerlinDay(new Date('2026-12-04T22:30:00Z')).toISOString()).toBe(
      '2026-12-03T23:00:00.000Z',
    );
    expect(startOfBerlinDay(new Date('2026-06-12T21:59:59Z')).toISOString()).toBe(
      '2026-06-11T22:00:00.000Z',
    );
  });
});
