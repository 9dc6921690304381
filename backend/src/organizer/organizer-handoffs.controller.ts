import { Controller, Get, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import type { OrganizerHandoffs } from '@awhh/machines';
import { apiError } from '../common/api-error.js';
import { maskSecrets } from '../common/log-masking.js';
import { RateLimit } from '../common/rate-limit.js';
import { OrderService } from '../orders/order.service.js';
import { OrderRepository } from '../orders/orders.port.js';
import { OrganizerGuard } from './organizer.guard.js';

/** How many refused hand-offs the dashboard lists (newest first). */
const LISTED = 50;
/** An order id as the site makes them, before the store is asked. */
const ORDER_ID = /^[A-Za-z0-9_-]{1,80}$/;
export const NO_REFUSED_HANDOFF_MESSAGE =
  'Zu dieser Bestellung gibt es keine fehlgeschlagene Übergabe an den Shop.';

/**
 * rules "Hand-off refused": the organizer is told on the dashboard too, not only by mail,
 * and hands an order to WooCommerce again with one action once the cause is fixed in the
 * shop (the same `handoff.retry` as `npm run handoff:retry`). Behind the dashboard's guard.
 */
@Controller('organizer')
@UseGuards(OrganizerGuard)
export class OrganizerHandoffsController {
  constructor(
    @Inject(OrderRepository) private readonly orders: OrderRepository,
    @Inject(OrderService) private readonly orderService: OrderService,
  ) {}

  @Get('handoffs')
  async refused(): Promise<OrganizerHandoffs> {
    const refused = await this.orders.refusedHandOffs(LISTED);
    return {
      orders: refused.map((r) => ({
        orderId: r.orderId,
        // WooCommerce's message, masked as the logs mask it.
        reason: maskSecrets(r.reason),
        at: new Date(r.at).toISOString(),
      })),
    };
  }

  @Post('handoffs/:orderId/retry')
  @HttpCode(202)
  @RateLimit({ name: 'organizer-handoff-retry', limit: 20, windowMs: 60_000 })
  async retry(@Param('orderId') orderId: string): Promise<{ retried: true }> {
    if (!ORDER_ID.test(orderId)) throw apiError(404, NO_REFUSED_HANDOFF_MESSAGE);
    const result = await this.orderService.retryHandOff(orderId);
    if (!result || !result.retried) throw apiError(404, NO_REFUSED_HANDOFF_MESSAGE);
    return { retried: true };
  }
}
