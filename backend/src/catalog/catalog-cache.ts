import type { LoggerService } from '@nestjs/common';

/** rules "Errors": WooCommerce down → the last good data is served for up to a day. */
export const STALE_IF_ERROR_MS = 24 * 60 * 60 * 1000;
/** After a failed refresh, wait this long before asking upstream again. */
export const ERROR_RETRY_MS = 5_000;

export type CacheState = 'empty' | 'fresh' | 'stale' | 'expired';

export interface CacheStatus {
  state: CacheState;
  fetchedAt: string | null;
  ageSeconds: number | null;
  refreshing: boolean;
  lastError: string | null;
  lastErrorAt: string | null;
  /** Bumps on every successful load; responses derived from the value key on it. */
  generation: number;
}

export interface CachedResourceOptions {
  name: string;
  ttlMs: number;
  logger: LoggerService;
  staleIfErrorMs?: number;
  errorRetryMs?: number;
  clock?: () => number;
}

/**
 * One cached upstream resource: TTL, single-flight (any number of concurrent misses make
 * one call), stale-while-revalidate (a stale value is answered at once while one refresh
 * runs) and stale-if-error (a failed refresh keeps the last good value for up to 24 h).
 * Kept by hand: lru-cache's fetch() has single-flight and stale-while-revalidate, but not
 * a bounded stale-if-error window with an error backoff, nor the generation counter the
 * serialised responses are memoised on; and one value per resource needs no LRU.
 */
export class CachedResource<T> {
  private value: T | undefined;
  private fetchedAt = 0;
  private inflight: Promise<T> | null = null;
  private lastError: Error | null = null;
  private lastErrorAt = 0;
  private invalidated = false;
  /** When the value was last invalidated, and when the load in flight (if any) started. */
  private invalidatedAt = Number.NEGATIVE_INFINITY;
  private inflightStartedAt = Number.NEGATIVE_INFINITY;
  /** When the load of the value kept started: an older load finishing later never replaces it. */
  private valueStartedAt = Number.NEGATIVE_INFINITY;
  private generationCount = 0;
  private readonly clock: () => number;
  private readonly staleIfErrorMs: number;
  private readonly errorRetryMs: number;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly options: CachedResourceOptions,
  ) {
    this.clock = options.clock ?? Date.now;
    this.staleIfErrorMs = options.staleIfErrorMs ?? STALE_IF_ERROR_MS;
    this.errorRetryMs = options.errorRetryMs ?? ERROR_RETRY_MS;
  }

  get generation(): number {
    return this.generationCount;
  }

  /** The value, loading it when there is none; a stale value triggers a background refresh. */
  async get(): Promise<T> {
    const now = this.clock();
    if (this.value === undefined) {
      // Nothing to serve and upstream just failed: answer with that failure for a few
      // seconds instead of sending every visitor's request on to a broken WooCommerce.
      if (this.lastError && !this.inflight && now - this.lastErrorAt < this.errorRetryMs) {
        throw this.lastError;
      }
      return this.refresh();
    }
    const age = now - this.fetchedAt;
    if (age < this.options.ttlMs && !this.invalidated) return this.value;
    if (age < this.staleIfErrorMs) {
      if (!this.inflight && now - this.lastErrorAt >= this.errorRetryMs) {
        // Errors are recorded and logged in refresh(); the caller gets the stale value.
        this.refresh().catch(() => undefined);
      }
      return this.value;
    }
    // Older than the stale-if-error window: the caller waits for fresh data.
    return this.refresh();
  }

  /**
   * Forces one upstream call (joined by concurrent callers) and returns its result. A load
   * that started before the last `invalidate` is not joined: what changed upstream may be
   * missing from it (docs/ledger.md "A sale counts once"), so a new one starts.
   */
  refresh(): Promise<T> {
    if (this.inflight && this.inflightStartedAt > this.invalidatedAt) return this.inflight;
    const startedAt = this.clock();
    const run = (async () => {
      try {
        const value = await this.load();
        if (startedAt < this.valueStartedAt) return this.value ?? value;
        this.value = value;
        this.valueStartedAt = startedAt;
        this.fetchedAt = this.clock();
        this.invalidated = this.invalidatedAt > startedAt;
        this.generationCount += 1;
        this.lastError = null;
        return value;
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        this.lastError = error;
        this.lastErrorAt = this.clock();
        if (this.value !== undefined && this.clock() - this.fetchedAt < this.staleIfErrorMs) {
          this.options.logger.warn({
            msg: 'catalog refresh failed; serving last good data',
            resource: this.options.name,
            ageSeconds: Math.round((this.clock() - this.fetchedAt) / 1000),
            err: error.message,
          });
        } else {
          this.options.logger.error({
            msg: 'catalog load failed',
            resource: this.options.name,
            err: error.message,
          });
        }
        throw error;
      } finally {
        if (this.inflightStartedAt === startedAt) this.inflight = null;
      }
    })();
    this.inflight = run;
    this.inflightStartedAt = startedAt;
    return run;
  }

  /**
   * Marks the value stale (e.g. stock changed by an order); the next get revalidates, with
   * a load that starts after this call.
   */
  invalidate(): void {
    this.invalidated = true;
    this.invalidatedAt = this.clock();
  }

  status(): CacheStatus {
    const now = this.clock();
    const has = this.value !== undefined;
    const age = has ? now - this.fetchedAt : null;
    let state: CacheState = 'empty';
    if (age !== null) {
      state =
        age < this.options.ttlMs && !this.invalidated
          ? 'fresh'
          : age < this.staleIfErrorMs
            ? 'stale'
            : 'expired';
    }
    return {
      state,
      fetchedAt: has ? new Date(this.fetchedAt).toISOString() : null,
      ageSeconds: age === null ? null : Math.round(age / 1000),
      refreshing: this.inflight !== null,
      lastError: this.lastError?.message ?? null,
      lastErrorAt: this.lastError ? new Date(this.lastErrorAt).toISOString() : null,
      generation: this.generationCount,
    };
  }
}
