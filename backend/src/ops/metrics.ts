import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { ORDER_STATUSES } from '@awhh/machines';
import type { MetricsEndpoint } from '../config/config.js';
import type { DueJobs } from '../jobs/job.repository.js';
import type { StoreFigures } from './store-figures.js';

/** The label of a request no route matched (404s, scanners): never its raw URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The waiting list's statuses (waitlist.port.ts), shown at 0 when none is in the store. */
const WAITLIST_STATUSES = ['pending', 'confirmed', 'offered'] as const;

/**
 * One read per scrape: the registry collects every gauge at the same time, so the gauges
 * after the first join the read the first one started.
 */
function perScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => (pending ??= read().finally(() => (pending = undefined)));
}

export interface AppMetricsSources {
  /** The jobs table's due, unfinished jobs by name (every process). */
  dueJobs: (now: number) => Promise<DueJobs[]>;
  /** Orders, tickets, check-ins and the waiting list (the processes serving checkout). */
  storeFigures?: () => Promise<StoreFigures>;
}

/**
 * One process's Prometheus metrics (docs/operations.md "Betrieb: Metriken"): process and event-loop
 * metrics, HTTP requests by route template, and the jobs queue and the checkout side's
 * figures read from the store at scrape time, on the registry the modules added their own
 * to (the catalog's cache age, calls to WooCommerce, Stripe and SMTP: dependency-metrics.ts).
 *
 * Why the figures are gauges read from the store and not counters kept by the process:
 * several checkout processes share one store, each issues some of the tickets and syncs
 * some of the scans, and a restart would start a counter at 0 again. Read from the store,
 * every process reports the same, complete figure whichever process did the work and
 * however often it restarted (aggregate with `max`, not `sum`), and a refund that revokes
 * tickets, or an erasure, shows as it happened. What only a process sees (its HTTP requests,
 * its calls to WooCommerce) stays a counter of that process (aggregate with `sum`).
 */
export class AppMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status_class'>;
  private readonly duration: Histogram<'method' | 'route' | 'status_class'>;

  constructor(
    readonly registry: Registry,
    sources: AppMetricsSources,
  ) {
    collectDefaultMetrics({ register: this.registry });
    const labelNames = ['method', 'route', 'status_class'] as const;
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status class',
      labelNames,
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to response, by method, route template and status class',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.jobGauges(sources.dueJobs);
    if (sources.storeFigures) this.storeGauges(sources.storeFigures);
  }

  private jobGauges(dueJobs: AppMetricsSources['dueJobs']): void {
    const queue = perScrape(async () => {
      const now = Date.now();
      return { now, rows: await dueJobs(now) };
    });
    // `job_name`, not `job`: Prometheus gives every series its scrape job's name as `job`.
    new Gauge({
      name: 'jobs_queue_depth',
      help: 'Due, unfinished jobs in the jobs table, by job name',
      labelNames: ['job_name'] as const,
      registers: [this.registry],
      async collect() {
        const { rows } = await queue();
        this.reset();
        for (const row of rows) this.set({ job_name: row.name }, row.depth);
      },
    });
    new Gauge({
      name: 'jobs_oldest_due_age_seconds',
      help: 'How long the oldest due, unfinished job of each name has been waiting',
      labelNames: ['job_name'] as const,
      registers: [this.registry],
      async collect() {
        const { now, rows } = await queue();
        this.reset();
        for (const row of rows) {
          this.set({ job_name: row.name }, Math.max(0, (now - row.oldestDueAt) / 1000));
        }
      },
    });
  }

  /** Gauges of the store's figures (see the class comment for why not counters). */
  private storeGauges(read: () => Promise<StoreFigures>): void {
    const figures = perScrape(read);
    const registers = [this.registry];
    new Gauge({
      name: 'orders_by_state',
      help: "The site's orders by the order machine's state",
      labelNames: ['state'] as const,
      registers,
      async collect() {
        const { orders } = await figures();
        this.reset();
        for (const state of ORDER_STATUSES) this.set({ state }, orders.get(state) ?? 0);
        for (const [state, n] of orders) this.set({ state }, n);
      },
    });
    new Gauge({
      name: 'tickets_issued',
      help: 'Tickets ever issued (valid and revoked; orders made in the shop included)',
      registers,
      async collect() {
        const { tickets } = await figures();
        this.set([...tickets.values()].reduce((sum, n) => sum + n, 0));
      },
    });
    new Gauge({
      name: 'tickets_revoked',
      help: 'Tickets revoked (refunds, chargebacks, orders cancelled in the shop)',
      registers,
      async collect() {
        this.set((await figures()).tickets.get('revoked') ?? 0);
      },
    });
    new Gauge({
      name: 'tickets_checked_in',
      help: 'Tickets checked in at the door (each ticket once)',
      registers,
      async collect() {
        this.set((await figures()).checkins);
      },
    });
    new Gauge({
      name: 'waitlist_entries_by_status',
      help: 'Waiting-list entries by status (pending: not confirmed yet)',
      labelNames: ['status'] as const,
      registers,
      async collect() {
        const { waitlistEntries } = await figures();
        this.reset();
        for (const status of WAITLIST_STATUSES) {
          this.set({ status }, waitlistEntries.get(status) ?? 0);
        }
        for (const [status, n] of waitlistEntries) this.set({ status }, n);
      },
    });
    new Gauge({
      name: 'waitlist_open_offers',
      help: 'Waiting-list offers sent and not yet claimed, declined or expired',
      registers,
      async collect() {
        this.set((await figures()).openOffers);
      },
    });
  }

  /** Counts a response under its route template (Fastify's routeOptions.url). */
  observe(method: string, route: string | undefined, statusCode: number, ms: number): void {
    const labels = {
      method,
      route: route ?? UNMATCHED_ROUTE,
      status_class: `${Math.floor(statusCode / 100)}xx`,
    };
    this.requests.inc(labels);
    this.duration.observe(labels, ms / 1000);
  }
}

const metricsOfApp = new WeakMap<NestFastifyApplication, AppMetrics>();

/** Counts every response of `fastify`; call before the app is ready. */
export function registerHttpMetrics(
  app: NestFastifyApplication,
  fastify: FastifyInstance,
  metrics: AppMetrics,
): void {
  metricsOfApp.set(app, metrics);
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
    done();
  });
}

/** The app's metrics (registered by configureApp). */
export function appMetrics(app: NestFastifyApplication): AppMetrics {
  const metrics = metricsOfApp.get(app);
  if (!metrics) throw new Error('metrics are registered by configureApp');
  return metrics;
}

/**
 * Serves GET /metrics on a port of its own (METRICS_PORT, loopback unless METRICS_HOST),
 * a plain node:http server apart from Fastify: nginx proxies to the app's port only, so it
 * can never route a visitor here. Resolves once listening.
 */
export async function serveMetrics(
  metrics: AppMetrics,
  endpoint: MetricsEndpoint,
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found\n');
      return;
    }
    metrics.registry.metrics().then(
      (body) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`metrics failed: ${err instanceof Error ? err.message : String(err)}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(endpoint.port, endpoint.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** The port a metrics server listens on (its ephemeral port when started with 0). */
export function metricsPort(server: Server): number {
  return (server.address() as AddressInfo).port;
}
