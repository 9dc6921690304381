import type { MetaData } from '../schemas/wire.schemas.js';
import { berlinWallTimeToInstant, startOfBerlinDay } from './berlin-time.js';

/** rules §3: meta keys that can carry an event date, in priority order. */
export const EVENT_DATE_META_KEYS = [
  'event_date',
  'event_start_date',
  'start_date',
  'date',
  'event_datetime',
] as const;

/** rules "Events": keys of the common event plugins, read after the keys of rules §3. */
export const FOOEVENTS_DATE_KEY = 'WooCommerceEventsDateMySQLFormat';
export const EVENTS_CALENDAR_DATE_KEY = '_EventStartDate';
export const PLUGIN_DATE_META_KEYS = [FOOEVENTS_DATE_KEY, EVENTS_CALENDAR_DATE_KEY] as const;
export const VENUE_META_KEYS = ['WooCommerceEventsLocation', 'location', 'venue'] as const;

/** The fields of a feed product that the next-event rule reads (rules §3). */
export interface DatedProduct {
  slug?: unknown;
  date_created?: string | null;
  date_modified?: string | null;
  meta_data?: readonly MetaData[] | null;
  /** Set by the catalog: merchandise ("product") is never an event. */
  kind?: 'event' | 'product';
  categories?: readonly { slug: string }[] | null;
}

/** WooCommerce categories that mark a product as an event even without date meta. */
export const EVENT_CATEGORY_SLUGS = ['events', 'event', 'veranstaltungen', 'tickets', 'afterwork'];

export type EventDateSource = 'meta' | 'plugin' | 'date_created' | 'date_modified';

export interface ResolvedEventDate {
  date: Date;
  source: EventDateSource;
  key: string;
}

const MYSQL_OR_ISO_LOCAL =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;
const GERMAN_DATE = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?:\s*Uhr)?)?$/;

function validWallTime(y: number, mo: number, d: number, h: number, mi: number, s: number) {
  const probe = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return (
    probe.getUTCFullYear() === y &&
    probe.getUTCMonth() === mo - 1 &&
    probe.getUTCDate() === d &&
    h < 24 &&
    mi < 60 &&
    s < 60
  );
}

/**
 * rules §5: a date counts only if it parses as a valid date. Values without a time zone
 * are Berlin wall time (how WordPress and the event plugins store them); strings with an
 * offset or "Z" are instants; numbers are Unix timestamps (seconds or milliseconds).
 * WordPress meta may wrap the value in an array; objects never parse.
 */
export function parseEventDate(value: unknown): Date | null {
  if (Array.isArray(value)) return value.length > 0 ? parseEventDate(value[0]) : null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return null;
    const ms = value < 1e11 ? value * 1000 : value;
    const date = new Date(ms);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '') return null;

  const local = MYSQL_OR_ISO_LOCAL.exec(text);
  if (local) {
    const [y, mo, d, h = 0, mi = 0, s = 0] = local.slice(1).map((p) => (p ? Number(p) : 0));
    if (!validWallTime(y!, mo!, d!, h, mi, s)) return null;
    return new Date(berlinWallTimeToInstant(y!, mo!, d!, h, mi, s));
  }
  const german = GERMAN_DATE.exec(text);
  if (german) {
    const [d, mo, y, h = 0, mi = 0] = german.slice(1).map((p) => (p ? Number(p) : 0));
    if (!validWallTime(y!, mo!, d!, h, mi, 0)) return null;
    return new Date(berlinWallTimeToInstant(y!, mo!, d!, h, mi, 0));
  }
  // Only full ISO 8601 instants beyond this point; Date.parse's lenient guesses
  // ("1", "Dezember") would turn junk into dates.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(text)) {
    return null;
  }
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms);
}

export function metaValue(product: DatedProduct, key: string): unknown {
  return product.meta_data?.find((m) => m?.key === key)?.value;
}

function metaText(product: DatedProduct, key: string): string {
  const value = metaValue(product, key);
  const scalar = Array.isArray(value) ? value[0] : value;
  return typeof scalar === 'string' || typeof scalar === 'number' ? String(scalar).trim() : '';
}

/** FooEvents keeps the day and the time in separate keys ("19", "30", "p.m."). */
function fooEventsDate(product: DatedProduct): Date | null {
  const day = parseEventDate(metaValue(product, FOOEVENTS_DATE_KEY));
  if (!day) return null;
  const hourText = metaText(product, 'WooCommerceEventsHour');
  if (hourText === '') return day;
  let hour = Number(hourText);
  const minute = Number(metaText(product, 'WooCommerceEventsMinutes') || '0');
  const period = metaText(product, 'WooCommerceEventsPeriod').toLowerCase().replace(/\./g, '');
  if (!Number.isInteger(hour) || !Number.isInteger(minute) || hour > 23 || minute > 59) return day;
  if (period === 'pm' && hour < 12) hour += 12;
  if (period === 'am' && hour === 12) hour = 0;
  return new Date(day.getTime() + (hour * 60 + minute) * 60_000);
}

/**
 * rules §4: the first date-bearing meta key (priority order) whose value is a valid date;
 * then the plugin keys (rules "Events"); else the creation date, then the modification date.
 */
export function resolveEventDate(product: DatedProduct): ResolvedEventDate | null {
  for (const key of EVENT_DATE_META_KEYS) {
    const date = parseEventDate(metaValue(product, key));
    if (date) return { date, source: 'meta', key };
  }
  const foo = fooEventsDate(product);
  if (foo) return { date: foo, source: 'plugin', key: FOOEVENTS_DATE_KEY };
  const tec = parseEventDate(metaValue(product, EVENTS_CALENDAR_DATE_KEY));
  if (tec) return { date: tec, source: 'plugin', key: EVENTS_CALENDAR_DATE_KEY };
  const created = parseEventDate(product.date_created);
  if (created) return { date: created, source: 'date_created', key: 'date_created' };
  const modified = parseEventDate(product.date_modified);
  if (modified) return { date: modified, source: 'date_modified', key: 'date_modified' };
  return null;
}

/** True when the product carries any event-date key, valid or not (it is an event, not merch). */
export function hasEventDateMeta(product: DatedProduct): boolean {
  const keys = [...EVENT_DATE_META_KEYS, ...PLUGIN_DATE_META_KEYS] as readonly string[];
  return (product.meta_data ?? []).some((m) => keys.includes(m?.key));
}

/**
 * rules "Events": an event is a product that carries an event-date
 * key or sits in an events category; everything else (shirts, tote bags) is merchandise.
 */
export function isEventProduct(product: DatedProduct): boolean {
  if (product.kind) return product.kind === 'event';
  return (
    hasEventDateMeta(product) ||
    (product.categories ?? []).some((c) => EVENT_CATEGORY_SLUGS.includes(c.slug.toLowerCase()))
  );
}

export function venueOf(product: DatedProduct): string | null {
  for (const key of VENUE_META_KEYS) {
    const text = metaText(product, key);
    if (text) return text;
  }
  return null;
}

/** rules §5: only a non-empty text slug counts. */
export function hasValidSlug<P extends DatedProduct>(product: P): product is P & { slug: string } {
  return typeof product.slug === 'string' && product.slug.trim() !== '';
}

/** rules "Events": an event dated before the start of today (Europe/Berlin) is past. */
export function isPastEvent(date: Date, now: Date): boolean {
  return date.getTime() < startOfBerlinDay(now).getTime();
}

export interface DatedEvent<P> {
  product: P & { slug: string };
  date: Date;
}

/**
 * rules §4: products with a valid slug, sorted ascending by event date. Ties keep the
 * feed's order (a stable sort), so the organiser's order decides between equal dates.
 */
export function sortByEventDate<P extends DatedProduct>(products: readonly P[]): DatedEvent<P>[] {
  const dated: DatedEvent<P>[] = [];
  for (const product of products) {
    // Merchandise never counts, whatever its creation date (it would otherwise fall back
    // to date_created and become "next" on the day it is created).
    if (!product || !hasValidSlug(product) || product.kind === 'product') continue;
    const resolved = resolveEventDate(product);
    if (resolved) dated.push({ product, date: resolved.date });
  }
  return dated.sort((a, b) => a.date.getTime() - b.date.getTime());
}

/** rules §4: the first upcoming entry is the next event; past events never count. */
export function selectNextEvent<P extends DatedProduct>(
  products: readonly P[],
  now: Date = new Date(),
): DatedEvent<P> | null {
  return sortByEventDate(products).find((entry) => !isPastEvent(entry.date, now)) ?? null;
}

/** rules §4: /events/{slug} of the next event, or / when there is none. */
export function nextEventLink(products: readonly DatedProduct[], now: Date = new Date()): string {
  const next = selectNextEvent(products, now);
  return next ? `/events/${encodeURIComponent(next.product.slug.trim())}` : '/';
}
