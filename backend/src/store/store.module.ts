import { Global, Inject, Module, type OnModuleInit, type Provider } from '@nestjs/common';
import { AppConfig } from '../config/config.js';
import { HealthIndicators } from '../health/health-indicators.js';
import { HoldRepository } from '../holds/hold.repository.js';
import { KyselyCheckinRepository } from './repositories/checkin.repository.js';
import { KyselyContactRepository } from './repositories/contact.repository.js';
import { KyselyHoldRepository } from './repositories/hold.repository.js';
import { KyselyJobRepository } from './repositories/job.repository.js';
import { KyselyMailboxRepository } from './repositories/mailbox.repository.js';
import { KyselyStore } from './repositories/kysely-store.js';
import { KyselyOrderRepository } from './repositories/order.repository.js';
import { KyselyPrivacyRepository } from './repositories/privacy.repository.js';
import { KyselySettingsRepository } from './repositories/settings.repository.js';
import { KyselyTicketRepository } from './repositories/ticket.repository.js';
import { KyselyWaitlistRepository } from './repositories/waitlist.repository.js';
import { KyselyWebhookEventRepository } from './repositories/webhook-event.repository.js';
import { StoreDatabase } from './store.database.js';
import {
  CheckinRepository,
  ContactRepository,
  JobRepository,
  MailboxRepository,
  OrderRepository,
  PrivacyRepository,
  SettingsRepository,
  Store,
  TicketRepository,
  WaitlistRepository,
  WebhookEventRepository,
} from './store.port.js';

/** A port bound to its Kysely adapter over the opened store. */
function adapter<T>(port: abstract new (...args: never[]) => T, make: (store: StoreDatabase) => T) {
  return { provide: port, inject: [StoreDatabase], useFactory: make } satisfies Provider;
}

const ports = [
  Store,
  OrderRepository,
  HoldRepository,
  JobRepository,
  WebhookEventRepository,
  ContactRepository,
  TicketRepository,
  SettingsRepository,
  MailboxRepository,
  CheckinRepository,
  WaitlistRepository,
  PrivacyRepository,
];

/** Opens the store and migrates it before any controller serves a request. */
@Global()
@Module({
  providers: [
    {
      provide: StoreDatabase,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => StoreDatabase.open(config.database),
    },
    adapter(Store, (store) => new KyselyStore(store)),
    adapter(OrderRepository, (store) => new KyselyOrderRepository(store.db, store.kind)),
    adapter(HoldRepository, (store) => new KyselyHoldRepository(store.db, store.kind)),
    adapter(JobRepository, (store) => new KyselyJobRepository(store.db)),
    adapter(WebhookEventRepository, (store) => new KyselyWebhookEventRepository(store.db)),
    adapter(ContactRepository, (store) => new KyselyContactRepository(store.db)),
    adapter(TicketRepository, (store) => new KyselyTicketRepository(store.db)),
    adapter(SettingsRepository, (store) => new KyselySettingsRepository(store.db)),
    adapter(MailboxRepository, (store) => new KyselyMailboxRepository(store.db)),
    adapter(CheckinRepository, (store) => new KyselyCheckinRepository(store)),
    adapter(WaitlistRepository, (store) => new KyselyWaitlistRepository(store.db, store.kind)),
    adapter(PrivacyRepository, (store) => new KyselyPrivacyRepository(store)),
  ],
  exports: [StoreDatabase, ...ports],
})
export class StoreModule implements OnModuleInit {
  constructor(
    @Inject(StoreDatabase) private readonly store: StoreDatabase,
    @Inject(HealthIndicators) private readonly health: HealthIndicators,
  ) {}

  onModuleInit(): void {
    this.health.register('store', async () => {
      await this.store.ping();
      return { ok: true, kind: this.store.kind };
    });
  }
}
