import { Injectable } from '@nestjs/common';
import { Counter, Histogram, Registry } from 'prom-client';

/** The services the site calls over the network (docs/operations.md "Betrieb: Metriken"). */
export type Dependency = 'woocommerce' | 'stripe' | 'smtp';

/** Whether a thrown error means the dependency failed, rather than answered "no". */
export type FailurePredicate = (err: unknown) => boolean;

const everyError: FailurePredicate = () => true;

/**
 * The process's Prometheus registry, one per app (tests build many apps in one process):
 * modules add their gauges to it as they start (the catalog's cache age), adapters their
 * calls through `dependencies`, and AppMetrics (ops/metrics.ts) the process, HTTP, jobs and
 * store figures before serving it.
 */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();
  readonly dependencies = new DependencyMetrics(this.registry);
}

/**
 * Calls to WooCommerce, Stripe and the SMTP server: how long each operation took (retries
 * inside the adapter included, as the caller waited for them) and how often it failed. The
 * labels are the dependency and the port's method name, a fixed set per adapter: never a
 * URL, an order, an address.
 */
export class DependencyMetrics {
  private readonly duration: Histogram<'dependency' | 'operation'>;
  private readonly failures: Counter<'dependency' | 'operation'>;

  constructor(registry: Registry) {
    this.duration = new Histogram({
      name: 'dependency_request_duration_seconds',
      help: 'Time an operation on WooCommerce, Stripe or the SMTP server took, failed ones included',
      labelNames: ['dependency', 'operation'] as const,
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
    this.failures = new Counter({
      name: 'dependency_request_failures_total',
      help: 'Operations on WooCommerce, Stripe or the SMTP server that failed (errors, timeouts)',
      labelNames: ['dependency', 'operation'] as const,
      registers: [registry],
    });
  }

  /** Times `call`, counting its error as a failure unless `isFailure` says it was an answer. */
  async time<T>(
    dependency: Dependency,
    operation: string,
    call: () => Promise<T>,
    isFailure: FailurePredicate = everyError,
  ): Promise<T> {
    const labels = { dependency, operation };
    const end = this.duration.startTimer(labels);
    try {
      return await call();
    } catch (err) {
      if (isFailure(err)) this.failures.inc(labels);
      throw err;
    } finally {
      end();
    }
  }

  /** Makes sure each operation shows as a series from the start (0 failures, not none). */
  declare(dependency: Dependency, operations: readonly string[]): void {
    for (const operation of operations) this.failures.inc({ dependency, operation }, 0);
  }
}

/** Methods of `T` that return a promise: the operations an adapter's port offers. */
export type AsyncMethodOf<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof T] &
  string;

/**
 * The adapter with each of `operations` timed under its own name; every other member is the
 * adapter's own. The adapter itself knows nothing of metrics.
 */
export function instrumented<T extends object>(
  adapter: T,
  dependency: Dependency,
  operations: readonly AsyncMethodOf<T>[],
  metrics: DependencyMetrics,
  isFailure?: FailurePredicate,
): T {
  metrics.declare(dependency, operations);
  const timed = new Set<PropertyKey>(operations);
  return new Proxy(adapter, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (!timed.has(property) || typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        metrics.time(
          dependency,
          String(property),
          () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args),
          isFailure,
        );
    },
  });
}
