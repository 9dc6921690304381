import { Logger, Module, type Provider } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { AppConfig } from '../config/config.js';
import { HoldsModule } from '../holds/holds.module.js';
import { JobsModule } from '../jobs/jobs.module.js';
import { PersonalDataRetention } from '../privacy/personal-data-retention.js';
import { StoreModule } from '../store/store.module.js';
import { MailTestController } from '../tickets/mail-test.controller.js';
import { TestMailbox } from '../tickets/test-mailbox.js';
import { TicketResendService } from '../tickets/ticket-resend.service.js';
import { TicketsController } from '../tickets/tickets.controller.js';
import { TicketsModule } from '../tickets/tickets.module.js';
import { WaitlistMailer } from '../waitlist/waitlist-mailer.js';
import { WaitlistPass } from '../waitlist/waitlist-pass.js';
import { WaitlistController } from '../waitlist/waitlist.controller.js';
import { WaitlistService } from '../waitlist/waitlist.service.js';
import { WaitlistSignal } from '../waitlist/waitlist.signal.js';
import { CheckoutController } from './checkout.controller.js';
import { CheckoutOptions } from './checkout.options.js';
import { CheckoutService } from './checkout.service.js';
import { ClientKeys } from './client-key.js';
import { ContactController } from './contact/contact.controller.js';
import { ContactService } from './contact/contact.service.js';
import { OrderJobHandlers } from './order-job-handlers.js';
import { OrderService } from './order.service.js';
import { PaymentsPort } from './payments/payments.port.js';
import { StripePaymentsAdapter } from './payments/stripe-payments.adapter.js';
import { TestPaymentsAdapter } from './payments/test-payments.adapter.js';
import { ReconciliationService } from './reconciliation.service.js';
import { TestProviderController } from './test-provider.controller.js';
import { TestProviderService } from './test-provider.service.js';
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

const paymentsProvider: Provider = {
  provide: PaymentsPort,
  useFactory: createPaymentsAdapter,
  inject: [AppConfig],
};

/**
 * Checkout: sessions, webhook, orders and their reconciliation, tickets and their mail,
 * contact (docs/architecture.md).
 */
@Module({
  imports: [CatalogModule, StoreModule, TicketsModule, JobsModule, HoldsModule],
  controllers: [
    CheckoutController,
    WebhookController,
    TestProviderController,
    ContactController,
    TicketsController,
    MailTestController,
    // rules "Waiting list": served where the checkouts are, whose holds its offers share.
    WaitlistController,
  ],
  providers: [
    CheckoutOptions,
    paymentsProvider,
    OrderService,
    OrderJobHandlers,
    ReconciliationService,
    WebhookService,
    CheckoutService,
    ClientKeys,
    TestProviderService,
    ContactService,
    TicketResendService,
    TestMailbox,
    WaitlistSignal,
    WaitlistService,
    WaitlistPass,
    WaitlistMailer,
    PersonalDataRetention,
  ],
})
export class CheckoutModule {}
