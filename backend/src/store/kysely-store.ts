import { Logger } from '@nestjs/common';
import type { StoreDatabase, StoreDb, StoreKind } from './store.database.js';
import { type CommitHooks, type RepositoryPort, Store, type Transaction } from './store.port.js';

/**
 * Makes a port's Kysely adapter over a connection: the pool's (with `COMMITTED` hooks), or
 * one transaction's (its hooks run after its commit).
 */
export type RepositoryFactory<R> = (db: StoreDb, kind: StoreKind, hooks: CommitHooks) => R;

/**
 * Write transactions over the store's database. The modules bind their repositories' ports
 * at start-up (`bind`); a transaction makes a port's adapter over its connection when it
 * is first asked for it, and knows no port it was not given.
 */
export class KyselyStore extends Store {
  private readonly factories = new Map<RepositoryPort<unknown>, RepositoryFactory<unknown>>();
  private readonly logger = new Logger('Store');

  constructor(private readonly database: StoreDatabase) {
    super();
  }

  bind<R>(port: RepositoryPort<R>, make: RepositoryFactory<R>): void {
    this.factories.set(port, make);
  }

  async write<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    // Per attempt: a transaction the database retries starts with none.
    let committed: Map<string, () => void> = new Map();
    let unkeyed = 0;
    const result = await this.database.write((trx) => {
      committed = new Map();
      const hooks: CommitHooks = {
        afterCommit: (after, key) => {
          committed.set(key ?? `#${(unkeyed += 1)}`, after);
        },
      };
      const bound = new Map<RepositoryPort<unknown>, unknown>();
      return work({
        ...hooks,
        get: <R>(port: RepositoryPort<R>): R => {
          if (!bound.has(port)) {
            const make = this.factories.get(port);
            if (!make) throw new Error(`no repository is bound for ${port.name}`);
            bound.set(port, make(trx, this.database.kind, hooks));
          }
          return bound.get(port) as R;
        },
      });
    });
    for (const after of committed.values()) {
      try {
        after();
      } catch (err) {
        // The write stands; a reaction that failed is one the next poll or pass makes up.
        this.logger.error({ msg: 'after-commit reaction failed', error: String(err) });
      }
    }
    return result;
  }
}
