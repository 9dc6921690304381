import { Module } from '@nestjs/common';
import { excludeFromApiPrefix } from '../common/api-prefix.js';
import { SITE_CATALOG_IMPORTS, siteCatalogProvider } from '../site/site-catalog.provider.js';
import {
  CalendarController,
  EVENTS_FEED_PATH,
  EventsFeedController,
} from './calendar.controller.js';
import { CalendarService } from './calendar.service.js';

// The subscription lives at the site's root (/events.ics), not under /api.
excludeFromApiPrefix(EVENTS_FEED_PATH);

/** Part of the products side: nginx routes /api/events/* and /events.ics there. */
@Module({
  imports: [...SITE_CATALOG_IMPORTS],
  controllers: [CalendarController, EventsFeedController],
  providers: [siteCatalogProvider, CalendarService],
})
export class CalendarModule {}
