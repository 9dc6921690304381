import { SITE_TIME_ZONE } from '@awhh/machines';

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

function toDate(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** "Freitag, 5. Dezember 2026" (Europe/Berlin, DESIGN). */
export function formatLongDate(iso: string | null | undefined): string | null {
  const d = toDate(iso);
  return d ? longDate.format(d) : null;
}

/** "19:00 Uhr". */
export function formatTime(iso: string | null | undefined): string | null {
  const d = toDate(iso);
  return d ? `${time.format(d)} Uhr` : null;
}

export function formatShortDate(iso: string | null | undefined): string | null {
  const d = toDate(iso);
  return d ? shortDate.format(d) : null;
}

/** ["05.", "Dez."] for the date badge on event cards. */
export function formatDayMonth(
  iso: string | null | undefined,
): { day: string; month: string } | null {
  const d = toDate(iso);
  if (!d) return null;
  const parts = dayMonth.formatToParts(d);
  return {
    day: parts.find((p) => p.type === 'day')?.value ?? '',
    month: parts.find((p) => p.type === 'month')?.value ?? '',
  };
}
