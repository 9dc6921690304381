import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { CheckoutResponse } from '@awhh/machines';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimit } from '../common/rate-limit.js';
import { CheckoutService, TooManyOpenCheckouts } from './checkout.service.js';

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
  async createSession(
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CheckoutResponse> {
    try {
      // The client as TRUST_PROXY lets Fastify resolve it: a limit per address.
      return await this.checkout.createSession(body, request.ip);
    } catch (err) {
      if (err instanceof TooManyOpenCheckouts) {
        reply.header('retry-after', String(err.retryAfterSeconds));
      }
      throw err;
    }
  }

  @Get('session/:id')
  session(@Param('id') id: string) {
    return this.checkout.summary(id);
  }
}
