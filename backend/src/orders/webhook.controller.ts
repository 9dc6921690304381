import {
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  Post,
  type RawBodyRequest,
  Req,
  UseGuards,
} from '@nestjs/common';
import { apiError } from '../common/api-error.js';
import { InternalPageGuard } from '../common/internal-page.guard.js';
import { RateLimit } from '../common/rate-limit.js';
import { WebhookSignatureError } from './payments/payments.port.js';
import { WebhookService } from './webhook.service.js';

@Controller('checkout/webhook')
export class WebhookController {
  constructor(@Inject(WebhookService) private readonly webhooks: WebhookService) {}

  /** Stripe's webhook (rules "Webhook"): the signature covers the exact bytes received. */
  @Post()
  @HttpCode(200)
  async receive(
    @Req() request: RawBodyRequest<{ rawBody?: Buffer }>,
    @Headers('stripe-signature') signature: string | undefined,
  ) {
    if (!request.rawBody || !signature) {
      throw apiError(400, 'Dieser Webhook-Aufruf ist nicht signiert.');
    }
    try {
      const outcome = await this.webhooks.deliver(request.rawBody, signature);
      return { received: true, outcome };
    } catch (err) {
      if (err instanceof WebhookSignatureError) {
        throw apiError(400, 'Die Signatur dieses Webhook-Aufrufs ist ungültig oder abgelaufen.');
      }
      throw err;
    }
  }

  /** For the webhook test page: type, time and outcome only, no personal data. */
  @Get('events')
  @UseGuards(InternalPageGuard)
  recent() {
    return this.webhooks.recent();
  }

  /** Test mode only: a correctly signed test event through the real pipeline. */
  @Post('test')
  @HttpCode(200)
  @UseGuards(InternalPageGuard)
  @RateLimit({ name: 'webhook-test', limit: 10, windowMs: 60_000 })
  async sendTest() {
    return { received: true, ...(await this.webhooks.sendTest()) };
  }
}
