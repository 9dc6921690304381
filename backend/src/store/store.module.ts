import {
  Inject,
  type InjectionToken,
  Module,
  type OnModuleInit,
  type Provider,
} from '@nestjs/common';
import { AppConfig } from '../config/config.js';
import { HealthIndicators } from '../health/health-indicators.js';
import { KyselyStore, type RepositoryFactory } from './kysely-store.js';
import { KyselySettingsRepository } from './settings.repository.js';
import { StoreDatabase, type StoreDb, type StoreKind } from './store.database.js';
import {
  type CommitHooks,
  COMMITTED,
  type RepositoryPort,
  SettingsRepository,
  Store,
} from './store.port.js';

/**
 * A module's repository: its port bound to the Kysely adapter over the store's pool (for
 * reads outside a transaction), and bound for the store's transactions, where the module's
 * code reaches it as `tx.get(port)`. Listed in the providers of the module that owns the
 * port, which imports StoreModule.
 */
export function storeRepository<R>(port: RepositoryPort<R>, make: RepositoryFactory<R>): Provider {
  return {
    provide: port,
    inject: [StoreDatabase, Store],
    useFactory: (database: StoreDatabase, store: Store) => {
      if (store instanceof KyselyStore) store.bind(port, make);
      return make(database.db, database.kind, COMMITTED);
    },
  };
}

/**
 * As `storeRepository`, for an adapter that needs one of its module's providers (what it
 * tells after the commit, such as the job runner's signal).
 */
export function storeRepositoryWith<R, D>(
  port: RepositoryPort<R>,
  dependency: InjectionToken<D>,
  make: (db: StoreDb, kind: StoreKind, hooks: CommitHooks, dependency: D) => R,
): Provider {
  return {
    provide: port,
    inject: [StoreDatabase, Store, dependency],
    useFactory: (database: StoreDatabase, store: Store, value: D) => {
      const bound: RepositoryFactory<R> = (db, kind, hooks) => make(db, kind, hooks, value);
      if (store instanceof KyselyStore) store.bind(port, bound);
      return bound(database.db, database.kind, COMMITTED);
    },
  };
}

/** A port whose adapter runs its own transactions (the door's sync, erasure): never in `tx`. */
export function storeAdapter<R>(
  port: RepositoryPort<R>,
  make: (store: StoreDatabase) => R,
): Provider {
  return { provide: port, inject: [StoreDatabase], useFactory: make };
}

/**
 * Opens the store and migrates it before any controller serves a request. A products-only
 * process reads one setting of it (the catalog's version, docs/decisions/0014) and leaves
 * the schema to the checkout processes, which own every table.
 */
@Module({
  providers: [
    {
      provide: StoreDatabase,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        StoreDatabase.open(config.database, { migrate: config.modules !== 'products' }),
    },
    {
      provide: Store,
      inject: [StoreDatabase],
      useFactory: (db: StoreDatabase) => new KyselyStore(db),
    },
    storeAdapter(SettingsRepository, (store) => new KyselySettingsRepository(store.db)),
  ],
  exports: [StoreDatabase, Store, SettingsRepository],
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
