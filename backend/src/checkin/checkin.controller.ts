import { Body, Controller, Get, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { CheckinService } from './checkin.service.js';
import { DoorCodeGuard } from './door-code.guard.js';

/**
 * DESIGN "Tickets and the door": the API of /einlass, all behind the door code
 * (`Authorization: Bearer <code>`). The guard marks every answer no-store.
 */
@Controller('checkin')
@UseGuards(DoorCodeGuard)
export class CheckinController {
  constructor(@Inject(CheckinService) private readonly checkin: CheckinService) {}

  @Get('events')
  events() {
    return this.checkin.events();
  }

  @Get('events/:eventId/tickets')
  tickets(@Param('eventId') eventId: string) {
    return this.checkin.tickets(eventId);
  }

  @Post('scans')
  @HttpCode(200)
  scans(@Body() body: unknown) {
    return this.checkin.sync(body);
  }
}
