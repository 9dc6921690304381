import { berlinOffset, berlinParts, type BerlinParts } from '../events/berlin-time.js';

// rules "Event page": dates in German, Europe/Berlin. One definition for the pages React
// renders and the HTML the server writes before any script runs, so the two can never
// differ. Written out rather than asked of Intl.DateTimeFormat (Total Blocking Time: see
// docs/decisions/0004-dates-without-intl.md); dates.spec.ts holds every form to Intl's
// de-DE output.

const WEEKDAYS = ['Sonntag', 'Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag'];
const MONTHS = [
  'Januar',
  'Februar',
  'März',
  'April',
  'Mai',
  'Juni',
  'Juli',
  'August',
  'September',
  'Oktober',
  'November',
  'Dezember',
];
/** CLDR's abbreviated German months: a dot only where letters were left out. */
const SHORT_MONTHS = [
  'Jan.',
  'Feb.',
  'März',
  'Apr.',
  'Mai',
  'Juni',
  'Juli',
  'Aug.',
  'Sept.',
  'Okt.',
  'Nov.',
  'Dez.',
];

const two = (n: number) => String(n).padStart(2, '0');

type DateInput = string | Date | null | undefined;

function toDate(value: DateInput): Date | null {
  if (!value) return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

function berlin(value: DateInput): BerlinParts | null {
  const d = toDate(value);
  return d ? berlinParts(d.getTime()) : null;
}

/** "Freitag, 5. Dezember 2026". */
export function formatLongDate(value: DateInput): string | null {
  const p = berlin(value);
  return p ? `${WEEKDAYS[p.weekday]}, ${p.day}. ${MONTHS[p.month - 1]} ${p.year}` : null;
}

/** "19:00", Berlin's clock (the door's log and verdicts). */
export function formatClock(value: DateInput): string | null {
  const p = berlin(value);
  return p ? `${two(p.hour)}:${two(p.minute)}` : null;
}

/** "19:00 Uhr". */
export function formatTime(value: DateInput): string | null {
  const clock = formatClock(value);
  return clock ? `${clock} Uhr` : null;
}

/** "05.12.2026", as in running text about a coupon's expiry. */
export function formatNumericDate(value: DateInput): string | null {
  const p = berlin(value);
  return p ? `${two(p.day)}.${two(p.month)}.${p.year}` : null;
}

/** "05. Dez. 2026". */
export function formatShortDate(value: DateInput): string | null {
  const p = berlin(value);
  return p ? `${two(p.day)}. ${SHORT_MONTHS[p.month - 1]} ${p.year}` : null;
}

/** { day: "05", month: "Dez." } for the date badge on event cards. */
export function formatDayMonth(value: DateInput): { day: string; month: string } | null {
  const p = berlin(value);
  return p ? { day: two(p.day), month: SHORT_MONTHS[p.month - 1]! } : null;
}

/** "Freitag, 5. Dezember 2026, 19:00 Uhr" for descriptions and previews. */
export function formatDateTime(value: DateInput): string | null {
  const date = formatLongDate(value);
  return date ? `${date}, ${formatTime(value)}` : null;
}

/** ISO 8601 with Berlin's offset ("2026-06-12T19:00:00+02:00"), as schema.org shows it. */
export function berlinIso(date: Date): string {
  const p = berlinParts(date.getTime());
  const offsetMinutes = Math.round(berlinOffset(date.getTime()) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = `${sign}${two(Math.floor(Math.abs(offsetMinutes) / 60))}:${two(Math.abs(offsetMinutes) % 60)}`;
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}:${two(p.second)}${offset}`;
}
