import { Injectable } from '@nestjs/common';
import { DEFAULT_EVENT_DURATION_MS, type EventDetail, SITE_TIME_ZONE } from '@awhh/machines';
import ical, { ICalEventStatus } from 'ical-generator';
import { AppConfig } from '../config/config.js';
import { absoluteUrl, plainText, SITE_NAME } from '../site/html-head.js';

/** What a calendar entry needs of an event; a ticket mail builds one from the ticket. */
export type CalendarEvent = Pick<
  EventDetail,
  'id' | 'slug' | 'name' | 'startsAt' | 'venue' | 'descriptionHtml' | 'shortDescription'
>;

/**
 * "Zum Kalender hinzufügen": one VEVENT per event. Times are written in UTC,
 * which every calendar shows in the reader's zone; X-WR-TIMEZONE names the site's zone
 * for clients that group by it. ical-generator does the escaping and 75-octet folding.
 */
@Injectable()
export class CalendarService {
  constructor(private readonly config: AppConfig) {}

  /** null when the event has no date to put in a calendar. */
  eventCalendar(event: CalendarEvent, now: Date = new Date()): string | null {
    if (!event.startsAt) return null;
    const start = new Date(event.startsAt);
    if (Number.isNaN(start.getTime())) return null;
    const url = absoluteUrl(this.config.publicUrl, `/events/${encodeURIComponent(event.slug)}`);
    const host = new URL(this.config.publicUrl).hostname;

    const calendar = ical({
      prodId: { company: SITE_NAME, product: 'Events', language: 'DE' },
      name: SITE_NAME,
      x: { 'X-WR-TIMEZONE': SITE_TIME_ZONE },
    });
    const description = [plainText(event.descriptionHtml || event.shortDescription, 2000), url]
      .filter(Boolean)
      .join('\n\n');
    calendar.createEvent({
      // Stable per event and site, so a second download updates the entry instead of duplicating it.
      id: `event-${event.id}@${host}`,
      stamp: now,
      start,
      end: new Date(start.getTime() + DEFAULT_EVENT_DURATION_MS),
      summary: event.name,
      location: event.venue ? `${event.venue}, Hamburg` : 'Hamburg',
      description,
      url,
      status: ICalEventStatus.CONFIRMED,
    });
    return calendar.toString();
  }
}
