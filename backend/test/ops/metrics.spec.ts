import type { Server } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app.factory.js';
import { AppConfig } from '../../src/config/config.js';
import { JobRepository } from '../../src/jobs/jobs.port.js';
import { appMetrics, metricsPort, serveMetrics } from '../../src/ops/metrics.js';
import { createTestDatabase, DATABASES } from '../orders/support/checkout-test-app.js';

const TOKEN = 'eyJ0aWNrZXQiOiJtZXRyaWNzIn0.c2lnbmF0dXJlLW5pY2h0LWltLWxhYmVs';

function config(env: NodeJS.ProcessEnv = {}): AppConfig {
  return AppConfig.fromEnv({
    DATABASE_URL: 'sqlite::memory:',
    STATIC_DIR: 'off',
    LOG_LEVEL: 'warn',
    CHECKIN_CODE: 'TUER-METRIKEN-2026',
    ...env,
  });
}

describe.each(DATABASES)('Prometheus metrics (README "Metriken", %s)', (kind) => {
  let database: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = await createApp(config({ DATABASE_URL: database.url }), { accessLog: false });
    // Port 0: an ephemeral port, as the exporter is started by main.ts with METRICS_PORT.
    server = await serveMetrics(appMetrics(app), { port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${metricsPort(server)}/metrics`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await app.close();
    await database.drop();
  });

  it('labels requests by route template, never by the token in the URL', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/tickets/${TOKEN}` });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    await app.inject({ method: 'GET', url: `/api/kein-solcher-pfad/${TOKEN}` });

    const scrape = await fetch(url);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toContain('text/plain');
    const body = await scrape.text();
    const statusClass = `${Math.floor(res.statusCode / 100)}xx`;
    expect(body).toContain(
      `http_requests_total{method="GET",route="/api/tickets/:token",status_class="${statusClass}"} 1`,
    );
    expect(body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/tickets\/:token",status_class="4xx"\} 1/,
    );
    expect(body).toContain(
      `http_requests_total{method="GET",route="unmatched",status_class="4xx"} 1`,
    );
    expect(body).not.toContain(TOKEN);
    expect(body).not.toContain('kein-solcher-pfad');
    // Process and event-loop metrics.
    expect(body).toContain('process_cpu_seconds_total');
    expect(body).toContain('nodejs_eventloop_lag_seconds');
  });

  it('shows the jobs queue depth and its oldest due job age per job name', async () => {
    const jobs = app.get(JobRepository, { strict: false });
    // No handler carries this name, so the runner leaves the jobs in the queue.
    await jobs.enqueue({ name: 'metrics-probe', key: 'a', payload: null }, Date.now() - 120_000);
    await jobs.enqueue({ name: 'metrics-probe', key: 'b', payload: null }, Date.now());

    const body = await (await fetch(url)).text();
    expect(body).toContain('jobs_queue_depth{job="metrics-probe"} 2');
    const age = /jobs_oldest_due_age_seconds\{job="metrics-probe"\} ([\d.]+)/.exec(body);
    expect(Number(age?.[1])).toBeGreaterThanOrEqual(119);
    expect(Number(age?.[1])).toBeLessThan(600);
  });

  it('answers nothing but /metrics', async () => {
    expect((await fetch(url.replace('/metrics', '/api/health'))).status).toBe(404);
  });
});

describe('METRICS_PORT', () => {
  it('defaults to 9464 on loopback', () => {
    expect(config().metrics).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(config({ METRICS_PORT: '9500', METRICS_HOST: '0.0.0.0' }).metrics).toEqual({
      port: 9500,
      host: '0.0.0.0',
    });
  });

  it('is switched off by "off" or 0', () => {
    expect(config({ METRICS_PORT: 'off' }).metrics).toBeNull();
    expect(config({ METRICS_PORT: '0' }).metrics).toBeNull();
  });

  it('names the variable when it is no port', () => {
    expect(() => config({ METRICS_PORT: 'neun' })).toThrow(
      'Invalid configuration: METRICS_PORT must be a port from 1 to 65535, or 0 or off for none (got "neun")',
    );
  });
});
