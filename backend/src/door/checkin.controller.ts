import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Req,
  UseGuards,
} from '@nestjs/common';
import { CheckinService } from './checkin.service.js';
import { DoorCodeGuard, DoorCodeOnly, type DoorRequest } from './door-code.guard.js';
import { DoorSessions } from './door-session.js';

/**
 * rules "Tickets and the door": the API of /einlass, all behind the door code or a door
 * session (`Authorization: Bearer <code or session>`). The guard marks every answer no-store.
 */
@Controller('checkin')
@UseGuards(DoorCodeGuard)
export class CheckinController {
  constructor(
    @Inject(CheckinService) private readonly checkin: CheckinService,
    @Inject(DoorSessions) private readonly sessions: DoorSessions,
  ) {}

  /** The right code for a door session, so the device never sends the code again. */
  @Post('session')
  @DoorCodeOnly()
  session(@Body() body: unknown) {
    return this.sessions.issue((body as { device?: unknown } | null | undefined)?.device);
  }

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
  async scans(@Body() body: unknown, @Req() request: DoorRequest) {
    const answer = await this.checkin.sync(body);
    // The organizer's list of devices shows the name the door staff gave this one.
    const scans = (body as { scans: { device?: unknown }[] }).scans;
    if (request.doorSession) await this.sessions.named(request.doorSession, scans.at(-1)?.device);
    return answer;
  }
}
