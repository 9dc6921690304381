import type { Server } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app.factory.js';
import { AppConfig } from '../../src/config/config.js';
import { JobRepository } from '../../src/jobs/jobs.port.js';
import { appMetrics, metricsPort, serveMetrics } from '../../src/ops/metrics.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import { createTestDatabase, DATABASES } from '../support/checkout-test-app.js';

const TOKEN = 'eyJ0aWNrZXQiOiJtZXRyaWNzIn0.c2lnbmF0dXJlLW5pY2h0LWltLWxhYmVs';

function config(env: NodeJS.ProcessEnv = {}): AppConfig {
  return AppConfig.fromEnv({
    DATABASE_URL: 'sqlite::memory:',
    STATIC_DIR: 'off',
    LOG_LEVEL: 'warn',
    CHECKIN_CODE: 'MGRX-XSJW-VBAJ-739N',
    ...env,
  });
}

describe.each(DATABASES)('Prometheus metrics (docs/operations.md "Metriken", %s)', (kind) => {
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
    expect(body).toContain('jobs_queue_depth{job_name="metrics-probe"} 2');
    const age = /jobs_oldest_due_age_seconds\{job_name="metrics-probe"\} ([\d.]+)/.exec(body);
    expect(Number(age?.[1])).toBeGreaterThanOrEqual(119);
    expect(Number(age?.[1])).toBeLessThan(600);
  });

  it('reports orders by state, tickets, check-ins and the waiting list as the store holds them', async () => {
    const { db } = app.get(StoreDatabase, { strict: false });
    const now = Date.now();
    const order = (id: string, status: string, email: string) => ({
      id,
      session_id: `tps_${id}`,
      provider: 'test',
      status,
      email,
      subtotal: 5000,
      discount: 0,
      total: 5000,
      currency: 'eur',
      payment_method: 'card',
      success_url: 'http://shop.test/success',
      cancel_url: 'http://shop.test/cart',
      created_at: now,
      expires_at: now,
      paid_at: status === 'open' ? null : now,
      updated_at: now,
    });
    await db
      .insertInto('orders')
      .values([
        order('ord_metrics_1', 'handedOff', 'gast1@example.org'),
        order('ord_metrics_2', 'handedOff', 'gast2@example.org'),
        order('ord_metrics_3', 'refunded', 'gast3@example.org'),
        order('ord_metrics_4', 'open', 'gast4@example.org'),
      ])
      .execute();
    const ticket = (id: string, orderId: string, status: string) => ({
      id,
      order_id: orderId,
      line_position: 0,
      seat: 1,
      seats: 1,
      event_id: 101,
      variation_id: null,
      event_name: 'Afterwork im Hafen',
      event_slug: null,
      starts_at: null,
      venue: null,
      tier: null,
      holder: 'Gerd Gast',
      status,
      issued_at: now,
      revoked_at: status === 'revoked' ? now : null,
    });
    await db
      .insertInto('tickets')
      .values([
        ticket('tm1', 'ord_metrics_1', 'valid'),
        ticket('tm2', 'ord_metrics_2', 'valid'),
        ticket('tm3', 'ord_metrics_3', 'revoked'),
      ])
      .execute();
    await db
      .insertInto('checkins')
      .values({
        ticket_id: 'tm1',
        scan_id: 'scan-m1',
        scanned_at: now,
        device: 'Tür 1',
        received_at: now,
      })
      .execute();
    const entry = (id: string, status: string, email: string) => ({
      id,
      product_id: 101,
      variation_id: null,
      product_key: 101,
      quantity: 1,
      email,
      status,
      line_name: 'Afterwork im Hafen',
      event_slug: null,
      starts_at: null,
      confirm_token: `confirm-${id}`,
      unsubscribe_token: `unsubscribe-${id}`,
      created_at: now,
      confirmed_at: status === 'pending' ? null : now,
      public_free: null,
    });
    await db
      .insertInto('waitlist_entries')
      .values([
        entry('wm1', 'pending', 'warte1@example.org'),
        entry('wm2', 'confirmed', 'warte2@example.org'),
        entry('wm3', 'offered', 'warte3@example.org'),
      ])
      .execute();
    const hold = await db
      .insertInto('holds')
      .values({
        owner: 'wm3',
        product_key: 101,
        quantity: 1,
        expires_at: now + 3_600_000,
        released: 0,
        sold: 0,
        claim_token: 'offer-token-metrics',
        claimed_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('waitlist_offers')
      .values({
        entry_id: 'wm3',
        token: 'offer-token-metrics',
        status: 'active',
        created_at: now,
        hold_id: hold.id,
      })
      .execute();

    const body = await (await fetch(url)).text();
    expect(body).toContain('orders_by_state{state="handedOff"} 2');
    expect(body).toContain('orders_by_state{state="refunded"} 1');
    expect(body).toContain('orders_by_state{state="open"} 1');
    // Every state of the order machine is a series, 0 when no order is in it.
    expect(body).toContain('orders_by_state{state="disputed"} 0');
    expect(body).toMatch(/^tickets_issued 3$/m);
    expect(body).toMatch(/^tickets_revoked 1$/m);
    expect(body).toMatch(/^tickets_checked_in 1$/m);
    expect(body).toContain('waitlist_entries_by_status{status="pending"} 1');
    expect(body).toContain('waitlist_entries_by_status{status="confirmed"} 1');
    expect(body).toContain('waitlist_entries_by_status{status="offered"} 1');
    expect(body).toMatch(/^waitlist_open_offers 1$/m);
    // Counts only: no address, token or order id in a label.
    expect(body).not.toMatch(/example\.org|offer-token|ord_metrics|confirm-wm/);
  });

  it('shows how old the catalog it serves is', async () => {
    const body = await (await fetch(url)).text();
    const age = /catalog_cache_age_seconds\{resource="products"\} (\d+)/.exec(body);
    expect(age).not.toBeNull();
    expect(Number(age![1])).toBeLessThan(600);
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
