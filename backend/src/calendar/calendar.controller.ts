import { createHash } from 'node:crypto';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../common/api-error.js';
import { AppConfig } from '../config/config.js';
import { EVENT_NOT_FOUND_MESSAGE } from '../products/products.controller.js';
import { matchesEtag } from '../products/http-cache.js';
import { SiteCatalog } from '../site/site-catalog.js';
import { CalendarService } from './calendar.service.js';

/** The shop's last change of each product, for the entries' SEQUENCE. */
async function modifiedById(catalog: SiteCatalog): Promise<Map<number, string | null>> {
  const products = await catalog.products();
  return new Map(products.map((p) => [p.id, p.date_modified ?? null]));
}

@Controller('events')
export class CalendarController {
  constructor(
    private readonly catalog: SiteCatalog,
    private readonly calendar: CalendarService,
  ) {}

  /** "Zum Kalender hinzufügen": GET /api/events/:slug/calendar.ics */
  @Get(':slug/calendar.ics')
  async ics(@Param('slug') slug: string, @Res() reply: FastifyReply) {
    const event = await this.catalog.event(slug);
    if (!event) throw apiError(404, EVENT_NOT_FOUND_MESSAGE);
    const modifiedAt = (await modifiedById(this.catalog)).get(event.id) ?? null;
    const ics = this.calendar.eventCalendar({ ...event, modifiedAt });
    if (!ics) throw apiError(404, 'Für dieses Event steht noch kein Termin fest.');
    const filename = `${event.slug.replace(/[^\w-]+/g, '-').slice(0, 80) || 'event'}.ics`;
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'public, max-age=300')
      .send(ics);
  }
}

/** The path of the subscribable calendar; outside /api, like robots.txt and the sitemap. */
export const EVENTS_FEED_PATH = 'events.ics';

/**
 * "Alle Termine abonnieren": GET /events.ics, every upcoming event (soonest first) with the
 * same VEVENT as the single download, so subscribing after a download updates, never
 * duplicates. Cached like the product feed: browsers and nginx reuse it briefly (nginx
 * keeps its copy one second), the catalog's own cache does the rest.
 */
@Controller()
export class EventsFeedController {
  constructor(
    private readonly catalog: SiteCatalog,
    private readonly calendar: CalendarService,
    private readonly config: AppConfig,
  ) {}

  @Get(EVENTS_FEED_PATH)
  async feed(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const [events, modified] = await Promise.all([
      this.catalog.events(),
      modifiedById(this.catalog),
    ]);
    const upcoming = events
      .filter((e) => !e.past && e.startsAt)
      .map((e) => ({ ...e, descriptionHtml: '', modifiedAt: modified.get(e.id) ?? null }));
    const ics = this.calendar.eventsCalendar(upcoming);
    const etag = `W/"${createHash('sha1').update(ics).digest('base64url')}"`;
    const maxAge = Math.min(this.config.catalogTtlSeconds, 30);
    reply
      .header('etag', etag)
      .header(
        'cache-control',
        `public, max-age=${maxAge}, stale-while-revalidate=${Math.max(maxAge, 60)}`,
      );
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', 'inline; filename="after-work-hamburg.ics"')
      .send(ics);
  }
}
