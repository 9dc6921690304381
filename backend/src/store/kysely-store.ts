import type { StoreDatabase, StoreDb, StoreKind } from './store.database.js';
import { type RepositoryPort, Store, type Transaction } from './store.port.js';

/** Makes a port's Kysely adapter over a connection: the pool's, or one transaction's. */
export type RepositoryFactory<R> = (db: StoreDb, kind: StoreKind) => R;

/**
 * Write transactions over the store's database. The modules bind their repositories' ports
 * at start-up (`bind`); a transaction makes a port's adapter over its connection when it
 * is first asked for it, and knows no port it was not given.
 */
export class KyselyStore extends Store {
  private readonly factories = new Map<RepositoryPort<unknown>, RepositoryFactory<unknown>>();

  constructor(private readonly database: StoreDatabase) {
    super();
  }

  bind<R>(port: RepositoryPort<R>, make: RepositoryFactory<R>): void {
    this.factories.set(port, make);
  }

  write<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.database.write((trx) => {
      const bound = new Map<RepositoryPort<unknown>, unknown>();
      return work({
        get: <R>(port: RepositoryPort<R>): R => {
          if (!bound.has(port)) {
            const make = this.factories.get(port);
            if (!make) throw new Error(`no repository is bound for ${port.name}`);
            bound.set(port, make(trx, this.database.kind));
          }
          return bound.get(port) as R;
        },
      });
    });
  }
}
