/**
 * The store's own port (docs/architecture.md, "The backend's modules"): write transactions
 * and the shared settings. Each module keeps its repositories' port beside its code
 * (`orders/orders.port.ts`, `holds/holds.port.ts`, …) and its Kysely adapters in its own
 * folder; only those adapters and the migrations hold SQL.
 */

/** A repository's port: the abstract class its adapters extend, also its injection token. */
export type RepositoryPort<R> = abstract new (...args: never[]) => R;

/**
 * One write transaction. Code reaches its module's repositories in it by their port,
 * `tx.get(OrderRepository)`, each bound to the transaction's connection; a module's
 * repositories are bound by the module itself (`storeRepository` in `store.module.ts`), so
 * the store knows no module and a transaction hands nobody the others' repositories.
 */
export interface Transaction extends CommitHooks {
  get<R>(port: RepositoryPort<R>): R;
}

/**
 * What happens once a write is durable: a repository or its caller registers it, the store
 * runs it after the commit (never after a rollback), once per `key`. Outside a transaction
 * (a repository on the store's pool, where every statement commits itself) it runs at once.
 * This is the one way reactions leave a transaction: the job runner is woken, places that
 * came free are published (docs/architecture.md, "After the commit").
 */
export interface CommitHooks {
  afterCommit(work: () => void, key?: string): void;
}

/** The hooks of a repository on the store's pool: each statement has committed already. */
export const COMMITTED: CommitHooks = {
  afterCommit: (work) => work(),
};

export abstract class Store {
  /**
   * Runs `work` in one transaction that holds the write lock from its first statement,
   * so a read-then-write (capacity check, state transition) cannot interleave with
   * another; everything `work` wrote is undone when it throws.
   */
  abstract write<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}

/** Values made once and shared by every process: the first writer wins, everyone reads its value. */
export abstract class SettingsRepository {
  abstract get(key: string): Promise<string | undefined>;
  /** Stores `value` unless the key exists; returns the value stored under the key either way. */
  abstract putIfAbsent(key: string, value: string, now: number): Promise<string>;
  /** Stores `value` under the key, replacing what was there (a value that changes: a version). */
  abstract put(key: string, value: string, now: number): Promise<void>;
}
