import { Global, Inject, Module, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/config.js';
import { HealthIndicators } from '../health/health-indicators.js';
import { StoreDatabase } from './store.database.js';

/** Opens the store and migrates it before any controller serves a request. */
@Global()
@Module({
  providers: [
    {
      provide: StoreDatabase,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => StoreDatabase.open(config.database),
    },
  ],
  exports: [StoreDatabase],
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
