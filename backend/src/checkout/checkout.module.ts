import { Logger, Module, type Provider } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { AppConfig } from '../config/config.js';
import { StoreModule } from '../store/store.module.js';
import { CheckoutController } from './checkout.controller.js';
import { CheckoutOptions } from './checkout.options.js';
import { CheckoutService } from './checkout.service.js';
import { ContactController, ContactService } from './contact/contact.controller.js';
import { OrderEventsService } from './order-events.service.js';
import { OutboxWorker } from './outbox.worker.js';
import { PaymentsPort } from './payments/payments.port.js';
import { StripePaymentsAdapter } from './payments/stripe-payments.adapter.js';
import { TestPaymentsAdapter } from './payments/test-payments.adapter.js';
import { TestProviderController } from './test-provider.controller.js';
import { WebhookController } from './webhook.controller.js';

/** Stripe when STRIPE_SECRET_KEY is set (parseConfig already demanded the webhook secret). */
export function createPaymentsAdapter(config: AppConfig): PaymentsPort {
  if (config.stripe) return new StripePaymentsAdapter(config.stripe, config.publicUrl);
  new Logger('Payments').warn(
    'STRIPE_SECRET_KEY is not set: payments run through the built-in test provider (Testmodus)',
  );
  return new TestPaymentsAdapter(config.publicUrl);
}

const paymentsProvider: Provider = {
  provide: PaymentsPort,
  useFactory: createPaymentsAdapter,
  inject: [AppConfig],
};

/** Checkout: sessions, webhook, orders, contact (DESIGN "Architecture"). */
@Module({
  imports: [CatalogModule, StoreModule],
  controllers: [CheckoutController, WebhookController, TestProviderController, ContactController],
  providers: [
    CheckoutOptions,
    paymentsProvider,
    OutboxWorker,
    OrderEventsService,
    CheckoutService,
    ContactService,
  ],
})
export class CheckoutModule {}
