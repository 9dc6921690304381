import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricsEndpoint } from '../config/config.js';
import type { DueJobs } from '../jobs/job.repository.js';

/** The label of a request no route matched (404s, scanners): never its raw URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * One process's Prometheus metrics (README "Metriken"): process and event-loop metrics, HTTP
 * requests by route template, and the jobs queue read from the store at scrape time.
 */
export class AppMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status_class'>;
  private readonly duration: Histogram<'method' | 'route' | 'status_class'>;

  constructor(dueJobs: (now: number) => Promise<DueJobs[]>) {
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
    // One query per scrape for both gauges: the registry collects them at the same time,
    // so the second one joins the query the first one started.
    let pending: Promise<{ now: number; rows: DueJobs[] }> | undefined;
    const queue = () =>
      (pending ??= (async () => {
        const now = Date.now();
        return { now, rows: await dueJobs(now) };
      })().finally(() => (pending = undefined)));
    new Gauge({
      name: 'jobs_queue_depth',
      help: 'Due, unfinished jobs in the jobs table, by job name',
      labelNames: ['job'] as const,
      registers: [this.registry],
      async collect() {
        const { rows } = await queue();
        this.reset();
        for (const row of rows) this.set({ job: row.name }, row.depth);
      },
    });
    new Gauge({
      name: 'jobs_oldest_due_age_seconds',
      help: 'How long the oldest due, unfinished job of each name has been waiting',
      labelNames: ['job'] as const,
      registers: [this.registry],
      async collect() {
        const { now, rows } = await queue();
        this.reset();
        for (const row of rows) {
          this.set({ job: row.name }, Math.max(0, (now - row.oldestDueAt) / 1000));
        }
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
