import { Controller, Delete, Get, Header, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { RateLimit } from '../common/rate-limit.js';
import { TicketReturns } from './ticket-returns.service.js';

/** rules "Giving a ticket back": offering and taking back, per client address. */
export const RETURN_RATE_LIMIT = {
  name: 'ticket-return',
  limit: 10,
  windowMs: 10 * 60_000,
  message:
    'Du hast dein Ticket gerade mehrmals zurückgegeben und zurückgenommen. Bitte versuche es in ein paar Minuten erneut.',
};

/** rules "Giving a ticket back": the ticket page's "Ticket zurückgeben" and its undo. */
@Controller('tickets')
export class TicketReturnsController {
  constructor(@Inject(TicketReturns) private readonly returns: TicketReturns) {}

  @Get(':token/return')
  @Header('cache-control', 'no-store')
  @Header('x-robots-tag', 'noindex')
  view(@Param('token') token: string) {
    return this.returns.view(token);
  }

  @Post(':token/return')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  @RateLimit(RETURN_RATE_LIMIT)
  offer(@Param('token') token: string) {
    return this.returns.offer(token);
  }

  @Delete(':token/return')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  @RateLimit(RETURN_RATE_LIMIT)
  withdraw(@Param('token') token: string) {
    return this.returns.withdraw(token);
  }
}
