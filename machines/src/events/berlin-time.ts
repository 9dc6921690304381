export const SITE_TIME_ZONE = 'Europe/Berlin';

/** Length of an event when the catalog gives no end: the calendar file and the page's JSON-LD agree. */
export const DEFAULT_EVENT_DURATION_MS = 3 * 60 * 60 * 1000;

const HOUR_MS = 60 * 60 * 1000;

/**
 * 01:00 UTC on the last Sunday of a month (0-based): when clocks change in the EU (Directive
 * 2000/84/EC, which Germany has followed since 1996).
 */
function lastSundayAtOneUtc(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0, 1);
  return lastDay - new Date(lastDay).getUTCDay() * 24 * HOUR_MS;
}

/**
 * Offset of Berlin from UTC (ms) at an instant: +1 h in winter, +2 h in summer, from the last
 * Sunday of March to the last Sunday of October.
 *
 * Computed from the EU rule rather than asked of Intl: a page's first Intl formatter costs
 * the browser tens of milliseconds on the main thread (rules "Rendering", Total Blocking
 * Time), and server and browser cannot disagree. berlin-time.spec.ts holds this to the time
 * zone database for every instant from 1996 on; should the EU end clock changes, it fails.
 */
export function berlinOffset(instant: number): number {
  const year = new Date(instant).getUTCFullYear();
  const summer = instant >= lastSundayAtOneUtc(year, 2) && instant < lastSundayAtOneUtc(year, 9);
  return summer ? 2 * HOUR_MS : HOUR_MS;
}

/** Berlin's wall clock at an instant: year, month, day, hour, minute, second as numbers. */
export function berlinParts(instant: number): BerlinParts {
  const wall = new Date(instant + berlinOffset(instant));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    /** 0 = Sunday, as Date.getDay. */
    weekday: wall.getUTCDay(),
  };
}

export interface BerlinParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

/** The instant at which Berlin's wall clock shows the given local time. */
export function berlinWallTimeToInstant(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
): number {
  const guess = Date.UTC(year, month - 1, day, hour, minute, second);
  // Two passes settle the offset around DST switches.
  const first = guess - berlinOffset(guess);
  return guess - berlinOffset(first);
}

/** Start of the Berlin calendar day that contains `now` (rules "Events": past = before start of today). */
export function startOfBerlinDay(now: Date): Date {
  const p = berlinParts(now.getTime());
  return new Date(berlinWallTimeToInstant(p.year, p.month, p.day));
}
