import { berlinOffset, berlinParts, SITE_TIME_ZONE } from '../events/berlin-time.js';

// DESIGN: dates in German, Europe/Berlin. One definition for the pages React renders and
// the HTML the server writes before any script runs, so the two can never differ.

const longDate = new Intl.DateTimeFormat('de-DE', {
  timeZone: SITE_TIME_ZONE,
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});
const time = new Intl.DateTimeFormat('de-DE', {
  timeZone: SITE_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
});
const shortDate = new Intl.DateTimeFormat('de-DE', {
  timeZone: SITE_TIME_ZONE,
  day: '2-digit',
  month: 'short',
  year: 'numeric',
});
const dayMonth = new Intl.DateTimeFormat('de-DE', {
  timeZone: SITE_TIME_ZONE,
  day: '2-digit',
  month: 'short',
});
type DateInput = string | Date | null | undefined;

function toDate(value: DateInput): Date | null {
  if (!value) return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** "Freitag, 5. Dezember 2026". */
export function formatLongDate(value: DateInput): string | null {
  const d = toDate(value);
  return d ? longDate.format(d) : null;
}

/** "19:00 Uhr". */
export function formatTime(value: DateInput): string | null {
  const d = toDate(value);
  return d ? `${time.format(d)} Uhr` : null;
}

/** "05. Dez. 2026". */
export function formatShortDate(value: DateInput): string | null {
  const d = toDate(value);
  return d ? shortDate.format(d) : null;
}

/** { day: "05", month: "Dez." } for the date badge on event cards. */
export function formatDayMonth(value: DateInput): { day: string; month: string } | null {
  const d = toDate(value);
  if (!d) return null;
  const parts = dayMonth.formatToParts(d);
  return {
    day: parts.find((p) => p.type === 'day')?.value ?? '',
    month: parts.find((p) => p.type === 'month')?.value ?? '',
  };
}

/** "Freitag, 5. Dezember 2026, 19:00 Uhr" for descriptions and previews. */
export function formatDateTime(value: DateInput): string | null {
  const date = formatLongDate(value);
  return date ? `${date}, ${formatTime(value)}` : null;
}

/** ISO 8601 with Berlin's offset ("2026-06-12T19:00:00+02:00"), as schema.org shows it. */
export function berlinIso(date: Date): string {
  const p = berlinParts(date.getTime());
  const two = (n: number | undefined) => String(n).padStart(2, '0');
  const offsetMinutes = Math.round(berlinOffset(date.getTime()) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = `${sign}${two(Math.floor(Math.abs(offsetMinutes) / 60))}:${two(Math.abs(offsetMinutes) % 60)}`;
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}:${two(p.second)}${offset}`;
}
