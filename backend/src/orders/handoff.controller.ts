import { Controller, Get, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { apiError } from '../common/api-error.js';
import { InternalPageGuard } from '../common/internal-page.guard.js';
import { maskSecrets } from '../common/log-masking.js';
import { RateLimit } from '../common/rate-limit.js';
import { OrderService } from './order.service.js';
import { OrderRepository } from './orders.port.js';
import { PaymentsPort } from './payments/payments.port.js';

const LISTED = 20;

/**
 * rules "Hand-off refused" on /webhook-test: the orders WooCommerce refused ("Übergabe
 * fehlgeschlagen", with WooCommerce's message, masked like the logs), and in test mode a
 * button that hands one off again (in production: `npm run handoff:retry -- <order>`).
 */
@Controller('checkout/handoffs')
@UseGuards(InternalPageGuard)
export class HandoffController {
  constructor(
    @Inject(OrderRepository) private readonly orders: OrderRepository,
    @Inject(OrderService) private readonly orderService: OrderService,
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
  ) {}

  @Get('refused')
  async refused() {
    const refused = await this.orders.refusedHandOffs(LISTED);
    return {
      orders: refused.map((r) => ({
        orderId: r.orderId,
        state: 'Übergabe fehlgeschlagen',
        reason: maskSecrets(r.reason),
        at: new Date(r.at).toISOString(),
      })),
    };
  }

  @Post(':orderId/retry')
  @HttpCode(202)
  @RateLimit({ name: 'handoff-retry', limit: 10, windowMs: 60_000 })
  async retry(@Param('orderId') orderId: string) {
    if (this.payments.name !== 'test') {
      throw apiError(404, 'Die Übergabe lässt sich hier nur im Testmodus wiederholen.');
    }
    const result = await this.orderService.retryHandOff(orderId);
    if (!result || !result.retried) {
      throw apiError(404, 'Zu dieser Bestellung gibt es keine fehlgeschlagene Übergabe.');
    }
    return { retried: true };
  }
}
