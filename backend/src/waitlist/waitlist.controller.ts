import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Inject,
  Param,
  Post,
  UseGuards,
} from '@nestjs/common';
import { apiError } from '../common/api-error.js';
import { InternalPageGuard } from '../common/internal-page.guard.js';
import { RateLimit } from '../common/rate-limit.js';
import { WaitlistService } from './waitlist.service.js';

export const WAITLIST_RATE_LIMIT = {
  name: 'waitlist',
  limit: 5,
  windowMs: 10 * 60_000,
  message:
    'Du hast dich gerade mehrmals eingetragen. Bitte schau in dein Postfach oder versuche es in ein paar Minuten erneut.',
};

/** rules "Waiting list": every answer is personal or changes by the second, so none is cached. */
@Controller('waitlist')
export class WaitlistController {
  constructor(@Inject(WaitlistService) private readonly waitlist: WaitlistService) {}

  @Post()
  @HttpCode(202)
  @Header('cache-control', 'no-store')
  @RateLimit(WAITLIST_RATE_LIMIT)
  join(@Body() body: unknown) {
    return this.waitlist.join(body);
  }

  @Post('confirm/:token')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  confirm(@Param('token') token: string) {
    return this.waitlist.confirm(token);
  }

  @Get('offers/:token')
  @Header('cache-control', 'no-store')
  @Header('x-robots-tag', 'noindex')
  offer(@Param('token') token: string) {
    return this.waitlist.offer(token);
  }

  @Post('offers/:token/decline')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  decline(@Param('token') token: string) {
    return this.waitlist.decline(token);
  }

  @Post('unsubscribe/:token')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  unsubscribe(@Param('token') token: string) {
    return this.waitlist.unsubscribe(token);
  }

  @Get('counts')
  @Header('cache-control', 'no-store')
  @UseGuards(InternalPageGuard)
  counts() {
    return this.waitlist.counts();
  }

  @Get('availability/:productId')
  @Header('cache-control', 'no-store')
  availability(@Param('productId') productId: string) {
    if (!/^\d{1,9}$/.test(productId)) throw apiError(404, 'Dieses Angebot kennen wir nicht.');
    return this.waitlist.availability(Number(productId));
  }
}
