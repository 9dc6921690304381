import { Body, Controller, HttpCode, Inject, Param, Put, UseGuards } from '@nestjs/common';
import { TicketHolderService } from '../tickets/ticket-holders.service.js';
import { OrganizerGuard } from './organizer.guard.js';

/**
 * rules "Named tickets": the organizer corrects a ticket's holder (name, company) from the
 * guest list; the ticket's token and code stay as they are. Behind the dashboard's guard
 * (the cookie, no caching, `Origin` on changes).
 */
@Controller('organizer')
@UseGuards(OrganizerGuard)
export class OrganizerHoldersController {
  constructor(@Inject(TicketHolderService) private readonly holders: TicketHolderService) {}

  @Put('tickets/:ticketId/holder')
  @HttpCode(200)
  holder(@Param('ticketId') ticketId: string, @Body() body: unknown) {
    return this.holders.editByOrganizer(ticketId, body);
  }
}
