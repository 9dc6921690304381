import { Controller, Get, Header, Inject, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RateLimit } from '../../common/rate-limit.js';
import { WalletService } from './wallet.service.js';

/** rules "Wallet passes": each pass is signed on request, so a script cannot ask for thousands. */
export const WALLET_RATE_LIMIT = {
  name: 'ticket-wallet',
  limit: 30,
  windowMs: 10 * 60_000,
  message:
    'Du hast dein Ticket gerade sehr oft zur Wallet hinzugefügt. Bitte versuche es in ein paar Minuten erneut.',
};

/** rules "Wallet passes": Apple Wallet and Google Wallet for a ticket, by its token. */
@Controller('tickets')
export class WalletController {
  constructor(@Inject(WalletService) private readonly wallet: WalletService) {}

  /** Which buttons the ticket page shows; nothing secret, the same for every visitor. */
  @Get('wallet')
  @Header('cache-control', 'public, max-age=300')
  options() {
    return this.wallet.options();
  }

  @Get(':token/wallet/apple')
  @RateLimit(WALLET_RATE_LIMIT)
  async apple(@Param('token') token: string, @Res() reply: FastifyReply) {
    const { pass, filename } = await this.wallet.applePass(token);
    return reply
      .header('content-type', 'application/vnd.apple.pkpass')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .send(pass);
  }

  @Get(':token/wallet/google')
  @Header('cache-control', 'no-store')
  @Header('x-robots-tag', 'noindex')
  @RateLimit(WALLET_RATE_LIMIT)
  google(@Param('token') token: string) {
    return this.wallet.googleUrl(token);
  }

  /** The mail's link: the same save link, made when it is followed, as a redirect. */
  @Get(':token/wallet/google/save')
  @RateLimit(WALLET_RATE_LIMIT)
  async googleSave(@Param('token') token: string, @Res() reply: FastifyReply) {
    const { url } = await this.wallet.googleUrl(token);
    return reply
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .redirect(url, 303);
  }
}
