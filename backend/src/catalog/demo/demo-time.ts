import { berlinParts, berlinWallTimeToInstant } from '@awhh/machines';

/** A Berlin wall-clock time, `dayOffset` days from today (demo dates move with the calendar). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

export function wallTimeFromToday(
  now: Date,
  dayOffset: number,
  hour: number,
  minute: number,
): WallTime {
  const today = berlinParts(now.getTime());
  const shifted = new Date(Date.UTC(today.year, today.month - 1, today.day + dayOffset));
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour,
    minute,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

export const formats = {
  /** WordPress / MySQL: "2026-06-12 19:00:00" (site time). */
  mysql: (t: WallTime) =>
    `${t.year}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:00`,
  mysqlDay: (t: WallTime) => `${t.year}-${pad(t.month)}-${pad(t.day)}`,
  /** ISO local without zone: "2026-06-12T19:00". */
  isoLocal: (t: WallTime) =>
    `${t.year}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}`,
  /** An instant in UTC: "2026-06-12T17:00:00.000Z". */
  isoInstant: (t: WallTime) => new Date(instant(t)).toISOString(),
  /** German editors type "12.06.2026 19:00". */
  german: (t: WallTime) =>
    `${pad(t.day)}.${pad(t.month)}.${t.year} ${pad(t.hour)}:${pad(t.minute)}`,
  unixSeconds: (t: WallTime) => Math.floor(instant(t) / 1000),
};

export function instant(t: WallTime): number {
  return berlinWallTimeToInstant(t.year, t.month, t.day, t.hour, t.minute);
}

/** WooCommerce's date_created format: site time without zone, seconds precision. */
export function wooDate(t: WallTime): string {
  return `${formats.mysqlDay(t)}T${pad(t.hour)}:${pad(t.minute)}:00`;
}
