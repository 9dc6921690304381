import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { AttendeeAnswer, AttendeeCancelAnswer, Attendees } from '@awhh/machines';
import type { FastifyReply } from 'fastify';
import { RateLimit } from '../common/rate-limit.js';
import { OrganizerCancellations } from './organizer-cancellations.js';
import { OrganizerGuests } from './organizer-guests.js';
import { OrganizerGuard } from './organizer.guard.js';

export const RESEND_LIMIT_MESSAGE =
  'Zu viele Tickets auf einmal verschickt. Bitte warte eine Minute und versuche es dann erneut.';

/**
 * rules "The organizer": an event's guest list (search, CSV), check-in by hand and its
 * undo, a ticket mail again, a ticket or its order cancelled with a refund. Behind the
 * same guard as the dashboard (the cookie, no caching, `Origin` on changes).
 */
@Controller('organizer/events/:id')
@UseGuards(OrganizerGuard)
export class OrganizerGuestsController {
  constructor(
    @Inject(OrganizerGuests) private readonly guests: OrganizerGuests,
    @Inject(OrganizerCancellations) private readonly cancellations: OrganizerCancellations,
  ) {}

  @Get('attendees')
  list(@Param('id') id: string, @Query() query: unknown): Promise<Attendees> {
    return this.guests.list(id, query);
  }

  @Get('attendees.csv')
  @RateLimit({ name: 'organizer-csv', limit: 30, windowMs: 60_000 })
  async csv(@Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    const { filename, body } = await this.guests.csv(id);
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .send(body);
  }

  @Post('attendees/:ticketId/check-in')
  @HttpCode(200)
  @RateLimit({ name: 'organizer-check-in', limit: 120, windowMs: 60_000 })
  checkIn(@Param('id') id: string, @Param('ticketId') ticketId: string): Promise<AttendeeAnswer> {
    return this.guests.checkIn(id, ticketId);
  }

  @Delete('attendees/:ticketId/check-in')
  @RateLimit({ name: 'organizer-check-in', limit: 120, windowMs: 60_000 })
  undo(@Param('id') id: string, @Param('ticketId') ticketId: string): Promise<AttendeeAnswer> {
    return this.guests.undoCheckIn(id, ticketId);
  }

  /** Into the outbox: 202, the mail leaves with the next run of the jobs. */
  @Post('attendees/:ticketId/resend')
  @HttpCode(202)
  @RateLimit({
    name: 'organizer-resend',
    limit: 10,
    windowMs: 60_000,
    message: RESEND_LIMIT_MESSAGE,
  })
  resend(@Param('id') id: string, @Param('ticketId') ticketId: string): Promise<AttendeeAnswer> {
    return this.guests.resend(id, ticketId);
  }

  @Post('attendees/:ticketId/cancel')
  @HttpCode(200)
  @RateLimit({ name: 'organizer-cancel', limit: 30, windowMs: 60_000 })
  cancel(
    @Param('id') id: string,
    @Param('ticketId') ticketId: string,
    @Body() body: unknown,
  ): Promise<AttendeeCancelAnswer> {
    return this.cancellations.cancel(id, ticketId, body);
  }
}
