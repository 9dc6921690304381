import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import type { CheckoutResponse } from '@awhh/machines';
import { RateLimit } from '../common/rate-limit.js';
import { CheckoutService } from './checkout.service.js';

export const CHECKOUT_RATE_LIMIT = {
  name: 'checkout-session',
  limit: 20,
  windowMs: 60_000,
  message:
    'Zu viele Bestellversuche in kurzer Zeit. Bitte warte eine Minute und versuche es dann erneut.',
};

@Controller('checkout')
export class CheckoutController {
  constructor(@Inject(CheckoutService) private readonly checkout: CheckoutService) {}

  @Post('session')
  @HttpCode(201)
  @RateLimit(CHECKOUT_RATE_LIMIT)
  createSession(@Body() body: unknown): Promise<CheckoutResponse> {
    return this.checkout.createSession(body);
  }

  @Get('session/:id')
  session(@Param('id') id: string) {
    return this.checkout.summary(id);
  }
}
