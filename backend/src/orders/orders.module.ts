import { Inject, Logger, Module, type Provider } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { AppConfig } from '../config/config.js';
import { HoldsModule } from '../holds/holds.module.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { MailModule } from '../mail/mail.module.js';
import { NoticesModule } from '../notices/notices.module.js';
import { TestMailbox } from '../mail/test-mailbox.js';
import { instrumented, MetricsRegistry } from '../ops/dependency-metrics.js';
import { storeRepository, StoreModule } from '../store/store.module.js';
import { CheckoutController } from './checkout.controller.js';
import { CheckoutOptions } from './checkout.options.js';
import { CheckoutService } from './checkout.service.js';
import { ClientKeys } from './client-key.js';
import { HandoffController } from './handoff.controller.js';
import { OrderEffects } from './order-effects.js';
import { OrderJobHandlers } from './order-job-handlers.js';
import { KyselyOrderRepository } from './order.repository.js';
import { OrderService } from './order.service.js';
import { OrderRepository, WebhookEventRepository } from './orders.port.js';
import { PaymentsPort } from './payments/payments.port.js';
import { StripePaymentsAdapter } from './payments/stripe-payments.adapter.js';
import { TestPaymentsAdapter } from './payments/test-payments.adapter.js';
import { ReconciliationService } from './reconciliation.service.js';
import { TestProviderController } from './test-provider.controller.js';
import { TestProviderService } from './test-provider.service.js';
import { KyselyWebhookEventRepository } from './webhook-event.repository.js';
import { WebhookController } from './webhook.controller.js';
import { WebhookService } from './webhook.service.js';

/** The provider parseConfig chose (PAYMENT_PROVIDER, or Stripe when it has a key). */
export function createPaymentsAdapter(config: AppConfig): PaymentsPort {
  if (config.paymentProvider === 'stripe' && config.stripe) {
    return new StripePaymentsAdapter(config.stripe, config.publicUrl);
  }
  new Logger('Payments').warn(
    'Testmodus: payments run through the built-in test provider; nobody pays real money (PAYMENT_PROVIDER=test)',
  );
  return new TestPaymentsAdapter(config.publicUrl);
}

/** Stripe's calls timed and their failures counted (docs/operations.md "Betrieb: Metriken"). */
const paymentsProvider: Provider = {
  provide: PaymentsPort,
  useFactory: (config: AppConfig, metrics: MetricsRegistry) => {
    const adapter = createPaymentsAdapter(config);
    return adapter.name === 'stripe'
      ? instrumented(
          adapter,
          'stripe',
          ['createSession', 'retrieveSession', 'refund'],
          metrics.dependencies,
        )
      : adapter;
  },
  inject: [AppConfig, MetricsRegistry],
};

/**
 * Orders (docs/architecture.md, "The backend's modules"): checkout sessions, the order
 * service around the order machine, payments with their adapters, the webhook,
 * reconciliation, the order's jobs (hand-off, late-payment refund), the test provider's
 * page, buyer details and client keys. Other modules' work on an order's transitions runs
 * through `OrderEffects` (their handlers, registered by them); this module imports none of
 * them.
 */
@Module({
  imports: [CatalogModule, StoreModule, JobsModule, HoldsModule, MailModule, NoticesModule],
  controllers: [CheckoutController, WebhookController, TestProviderController, HandoffController],
  providers: [
    CheckoutOptions,
    paymentsProvider,
    OrderEffects,
    OrderService,
    OrderJobHandlers,
    ReconciliationService,
    WebhookService,
    CheckoutService,
    ClientKeys,
    TestProviderService,
    storeRepository(OrderRepository, (db, kind) => new KyselyOrderRepository(db, kind)),
    storeRepository(WebhookEventRepository, (db) => new KyselyWebhookEventRepository(db)),
  ],
  exports: [
    CheckoutOptions,
    OrderEffects,
    OrderRepository,
    OrderService,
    PaymentsPort,
    WebhookEventRepository,
  ],
})
export class OrdersModule {
  constructor(
    @Inject(TestMailbox) mailbox: TestMailbox,
    @Inject(PaymentsPort) payments: PaymentsPort,
  ) {
    // rules "E-mail": the test mailbox opens only while payments run on the test provider.
    mailbox.paymentsRunOn(payments.name);
  }
}
