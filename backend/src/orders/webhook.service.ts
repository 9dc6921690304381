import { Inject, Injectable } from '@nestjs/common';
import { apiError } from '../common/api-error.js';
import { WebhookEventRepository } from './orders.port.js';
import { CheckoutOptions } from './checkout.options.js';
import { type EventOutcome, OrderService } from './order.service.js';
import { PaymentsPort } from './payments/payments.port.js';
import { TestPaymentsAdapter } from './payments/test-payments.adapter.js';

/** What the webhook test page shows of an event: type, time and outcome, no personal data. */
export interface RecentEvent {
  type: string;
  receivedAt: string;
  outcome: string;
}

/**
 * The entry every payment event goes through, from Stripe's webhook or the test provider
 * (rules "Webhook"): the adapter verifies the signature and speaks the neutral event,
 * the order service applies it.
 */
@Injectable()
export class WebhookService {
  constructor(
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
    @Inject(OrderService) private readonly orders: OrderService,
    @Inject(WebhookEventRepository) private readonly events: WebhookEventRepository,
    @Inject(CheckoutOptions) private readonly options: CheckoutOptions,
  ) {}

  /** Verifies and applies a delivery; WebhookSignatureError when forged or stale. */
  deliver(rawBody: Buffer | string, signature: string): Promise<EventOutcome> {
    return this.orders.receive(this.payments.parseWebhook(rawBody, signature));
  }

  /** rules "Test pages": recent webhook events (type, time, outcome). */
  async recent(): Promise<{ mode: string; events: RecentEvent[] }> {
    const events = await this.events.recent(this.options.recentEventsLimit, 'payments');
    return {
      mode: this.payments.name,
      events: events.map((e) => ({
        type: e.type,
        receivedAt: new Date(e.receivedAt).toISOString(),
        outcome: e.outcome,
      })),
    };
  }

  /** Test mode only: a correctly signed test event through the real pipeline. */
  async sendTest(): Promise<{ type: string; outcome: EventOutcome }> {
    if (!(this.payments instanceof TestPaymentsAdapter)) {
      throw apiError(404, 'Test-Ereignisse gibt es nur im Testmodus.');
    }
    const { payload, signature } = this.payments.testEvent();
    const delivery = this.payments.parseWebhook(payload, signature);
    return { type: delivery.label, outcome: await this.orders.receive(delivery) };
  }
}
