import { Controller, Get, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { apiError } from '../common/api-error.js';
import { EVENT_NOT_FOUND_MESSAGE } from '../products/products.controller.js';
import { SiteCatalog } from '../site/site-catalog.js';
import { CalendarService } from './calendar.service.js';

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
    const ics = this.calendar.eventCalendar(event);
    if (!ics) throw apiError(404, 'Für dieses Event steht noch kein Termin fest.');
    const filename = `${event.slug.replace(/[^\w-]+/g, '-').slice(0, 80) || 'event'}.ics`;
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'public, max-age=300')
      .send(ics);
  }
}
