export const SITE_TIME_ZONE = 'Europe/Berlin';

/** Length of an event when the catalog gives no end: the calendar file and the page's JSON-LD agree. */
export const DEFAULT_EVENT_DURATION_MS = 3 * 60 * 60 * 1000;

const partsFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: SITE_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Berlin's wall clock at an instant: year, month, day, hour, minute, second as numbers. */
export function berlinParts(instant: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of partsFormat.formatToParts(new Date(instant))) {
    if (part.type !== 'literal') out[part.type] = Number(part.value);
  }
  return out;
}

/** Offset of Berlin from UTC (ms) at an instant: +1 h in winter, +2 h in summer. */
export function berlinOffset(instant: number): number {
  const p = berlinParts(instant);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return asUtc - Math.floor(instant / 1000) * 1000;
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

/** Start of the Berlin calendar day that contains `now` (DESIGN: past = before start of today). */
export function startOfBerlinDay(now: Date): Date {
  const p = berlinParts(now.getTime());
  return new Date(berlinWallTimeToInstant(p.year!, p.month!, p.day!));
}
