import { Body, Controller, Get, Header, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RateLimit } from '../common/rate-limit.js';
import { TicketHolderService } from './ticket-holders.service.js';
import { TicketResendService } from './ticket-resend.service.js';
import { TicketSigner } from './ticket-signer.js';
import { TicketService } from './ticket.service.js';

export const RESEND_RATE_LIMIT = {
  name: 'ticket-resend',
  limit: 5,
  windowMs: 10 * 60_000,
  message:
    'Du hast deine Tickets gerade mehrmals angefordert. Bitte schau in dein Postfach oder versuche es in ein paar Minuten erneut.',
};

/** rules "Named tickets": naming a ticket; per client address, generous for a group's names. */
export const HOLDER_RATE_LIMIT = {
  name: 'ticket-holder',
  limit: 30,
  windowMs: 10 * 60_000,
  message:
    'Du hast gerade sehr viele Namen geändert. Bitte versuche es in ein paar Minuten erneut.',
};

/** rules "Named tickets": passing tickets on, each a new token and two mails. */
export const TRANSFER_RATE_LIMIT = {
  name: 'ticket-transfer',
  limit: 5,
  windowMs: 10 * 60_000,
  message:
    'Du hast gerade mehrere Tickets weitergegeben. Bitte versuche es in ein paar Minuten erneut.',
};

/**
 * rules "Tickets and the door": the ticket page's data, its PDF, the door's key and the
 * resend; rules "Named tickets": naming a ticket and passing it on, with its own token.
 */
@Controller('tickets')
export class TicketsController {
  constructor(
    @Inject(TicketService) private readonly tickets: TicketService,
    @Inject(TicketSigner) private readonly signer: TicketSigner,
    @Inject(TicketResendService) private readonly resendService: TicketResendService,
    @Inject(TicketHolderService) private readonly holders: TicketHolderService,
  ) {}

  @Get('public-key')
  @Header('cache-control', 'public, max-age=300')
  publicKey() {
    return this.signer.publicJwk();
  }

  @Post('resend')
  @HttpCode(202)
  @RateLimit(RESEND_RATE_LIMIT)
  resend(@Body() body: unknown) {
    return this.resendService.resend(body);
  }

  @Get(':token')
  @Header('cache-control', 'no-store')
  @Header('x-robots-tag', 'noindex')
  async ticket(@Param('token') token: string) {
    return (await this.tickets.byToken(token)).ticket;
  }

  @Post(':token/holder')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  @RateLimit(HOLDER_RATE_LIMIT)
  holder(@Param('token') token: string, @Body() body: unknown) {
    return this.holders.nameByToken(token, body);
  }

  @Post(':token/transfer')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  @RateLimit(TRANSFER_RATE_LIMIT)
  transfer(@Param('token') token: string, @Body() body: unknown) {
    return this.holders.transfer(token, body);
  }

  @Get(':token/pdf')
  async pdf(@Param('token') token: string, @Res() reply: FastifyReply) {
    const { pdf, filename } = await this.tickets.pdf(token);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .send(pdf);
  }
}
