import { Injectable } from '@nestjs/common';
import { DEFAULT_EVENT_DURATION_MS, type EventDetail, SITE_TIME_ZONE } from '@awhh/machines';
import ical, { type ICalCalendar, ICalEventStatus } from 'ical-generator';
import { AppConfig } from '../config/config.js';
import { absoluteUrl, plainText, SITE_NAME } from '../site/html-head.js';

/** What a calendar entry needs of an event; a ticket mail builds one from the ticket. */
export type CalendarEvent = Pick<
  EventDetail,
  'id' | 'slug' | 'name' | 'startsAt' | 'venue' | 'descriptionHtml' | 'shortDescription'
> & {
  /** The shop's last change of the product (WooCommerce `date_modified`), when known. */
  modifiedAt?: string | null;
};

/** SEQUENCE counts from here (seconds); a 32-bit integer lasts until 2088. */
const SEQUENCE_EPOCH_MS = Date.UTC(2020, 0, 1);

/** A WooCommerce date without a zone (`date_modified` is shop-local) read as UTC. */
function modifiedTime(modifiedAt: string | null | undefined): number | null {
  if (!modifiedAt) return null;
  const zoned = /(?:[zZ]|[+-]\d\d:?\d\d)$/.test(modifiedAt);
  const time = Date.parse(zoned ? modifiedAt : `${modifiedAt}Z`);
  return Number.isNaN(time) ? null : time;
}

/**
 * RFC 5545 SEQUENCE: a subscribed calendar replaces an entry only when its SEQUENCE is
 * higher. WooCommerce moves `date_modified` forward on every save of the product, so the
 * seconds since 2020 from it rise with every change of the event, need no counter in the
 * store, and are the same in every products process (several behind nginx, or a restart).
 * Without the date the entry keeps 0.
 */
export function eventSequence(modifiedAt: string | null | undefined): number {
  const time = modifiedTime(modifiedAt);
  return time === null ? 0 : Math.max(0, Math.floor((time - SEQUENCE_EPOCH_MS) / 1000));
}

/**
 * "Zum Kalender hinzufügen" and the subscribable `/events.ics`: one VEVENT per event, built
 * in one place. Times are written in UTC, which every calendar shows in the reader's zone;
 * X-WR-TIMEZONE names the site's zone for clients that group by it. ical-generator does
 * the escaping and 75-octet folding.
 */
@Injectable()
export class CalendarService {
  constructor(private readonly config: AppConfig) {}

  /** null when the event has no date to put in a calendar. */
  eventCalendar(event: CalendarEvent, now: Date = new Date()): string | null {
    const calendar = this.calendar();
    return this.addEvent(calendar, event, now) ? calendar.toString() : null;
  }

  /** Every event with a date, in the order given (the subscription `/events.ics`). */
  eventsCalendar(events: readonly CalendarEvent[], now: Date = new Date()): string {
    const calendar = this.calendar();
    calendar.description(`Alle kommenden Termine von ${SITE_NAME}`);
    // Clients that honour it look again every few hours.
    calendar.ttl(6 * 60 * 60);
    for (const event of events) this.addEvent(calendar, event, now);
    return calendar.toString();
  }

  private calendar(): ICalCalendar {
    return ical({
      prodId: { company: SITE_NAME, product: 'Events', language: 'DE' },
      name: SITE_NAME,
      x: { 'X-WR-TIMEZONE': SITE_TIME_ZONE },
    });
  }

  private addEvent(calendar: ICalCalendar, event: CalendarEvent, now: Date): boolean {
    if (!event.startsAt) return false;
    const start = new Date(event.startsAt);
    if (Number.isNaN(start.getTime())) return false;
    const url = absoluteUrl(this.config.publicUrl, `/events/${encodeURIComponent(event.slug)}`);
    const host = new URL(this.config.publicUrl).hostname;
    const description = [plainText(event.descriptionHtml || event.shortDescription, 2000), url]
      .filter(Boolean)
      .join('\n\n');
    const modified = modifiedTime(event.modifiedAt);
    calendar.createEvent({
      // Stable per event and site, so a second download or the subscription's next look
      // updates the entry instead of duplicating it.
      id: `event-${event.id}@${host}`,
      sequence: eventSequence(event.modifiedAt),
      // The last revision of the entry when the shop names it, so the same catalog gives
      // the same bytes in every process.
      stamp: modified === null ? now : new Date(modified),
      ...(modified === null ? {} : { lastModified: new Date(modified) }),
      start,
      end: new Date(start.getTime() + DEFAULT_EVENT_DURATION_MS),
      summary: event.name,
      location: event.venue ? `${event.venue}, Hamburg` : 'Hamburg',
      description,
      url,
      status: ICalEventStatus.CONFIRMED,
    });
    return true;
  }
}
