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
import { ShopWebhookService } from './shop-webhook.service.js';

@Controller('webhooks/woocommerce')
export class ShopWebhookController {
  constructor(@Inject(ShopWebhookService) private readonly webhooks: ShopWebhookService) {}

  /**
   * WooCommerce's webhooks (rules "WooCommerce webhooks"): the signature covers the exact
   * bytes received; the body limit is the app's.
   */
  @Post()
  @HttpCode(200)
  @RateLimit({ name: 'woocommerce-webhook', limit: 600, windowMs: 60_000 })
  async receive(
    @Req() request: RawBodyRequest<{ rawBody?: Buffer }>,
    @Headers('x-wc-webhook-signature') signature: string | undefined,
    @Headers('x-wc-webhook-topic') topic: string | undefined,
    @Headers('x-wc-webhook-delivery-id') deliveryId: string | undefined,
    @Headers('x-wc-webhook-id') webhookId: string | undefined,
  ) {
    if (!request.rawBody) {
      throw apiError(401, 'Die Signatur dieses Webhook-Aufrufs fehlt oder ist ungültig.');
    }
    const outcome = await this.webhooks.deliver(request.rawBody, {
      signature,
      topic,
      deliveryId,
      webhookId,
    });
    return { received: true, outcome };
  }

  /**
   * For the webhook test page: topic, time and outcome of each delivery and each change the
   * sweep applied, and the sweep's last run (times and counts); no personal data.
   */
  @Get('events')
  @UseGuards(InternalPageGuard)
  recent() {
    return this.webhooks.recent();
  }
}
