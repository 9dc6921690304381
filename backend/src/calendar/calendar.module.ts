import { Module } from '@nestjs/common';
import { SITE_CATALOG_IMPORTS, siteCatalogProvider } from '../site/site-catalog.provider.js';
import { CalendarController } from './calendar.controller.js';
import { CalendarService } from './calendar.service.js';

/** Part of the products side: nginx routes /api/events/* there. */
@Module({
  imports: [...SITE_CATALOG_IMPORTS],
  controllers: [CalendarController],
  providers: [siteCatalogProvider, CalendarService],
})
export class CalendarModule {}
