import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app.factory.js';
import { AppConfig } from '../../src/config/config.js';
import { JobRepository } from '../../src/jobs/jobs.port.js';
import { StoreDatabase } from '../../src/store/store.database.js';

const MINUTE = 60_000;

function config(env: NodeJS.ProcessEnv = {}): AppConfig {
  return AppConfig.fromEnv({
    DATABASE_URL: 'sqlite::memory:',
    STATIC_DIR: 'off',
    LOG_LEVEL: 'error',
    METRICS_PORT: 'off',
    CHECKIN_CODE: 'GM8V-WH73-533A-T253',
    ...env,
  });
}

// docs/operations.md "Betrieb: Metriken": a due job waiting over 15 minutes means nobody runs the queue;
// the checkout side then answers /api/health/ready with 503 and names the job.
describe('readiness and the jobs queue', () => {
  let app: NestFastifyApplication;

  beforeEach(async () => {
    app = await createApp(config({ MODULES: 'checkout' }), { accessLog: false });
  });

  afterEach(async () => {
    await app.close();
  });

  /** A job no handler takes (so the runner leaves it), due since `minutesAgo`. */
  async function dueSince(name: string, key: string, minutesAgo: number): Promise<void> {
    await app
      .get(JobRepository, { strict: false })
      .enqueue({ name, key, payload: { orderId: 'ord_bereit' } }, Date.now() - minutesAgo * MINUTE);
  }

  it('stays ready while due jobs have waited 15 minutes at most', async () => {
    await dueSince('handoff-probe', 'a', 14);
    const res = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ready', checks: { jobs: { ok: true, due: 1 } } });
  });

  it('answers 503 naming the job once the oldest due one waits longer, in German', async () => {
    await dueSince('ticket-mail-probe', 'a', 16);
    await dueSince('ticket-mail-probe', 'b', 1);
    await dueSince('handoff-probe', 'c', 2);
    const res = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({
      status: 'not_ready',
      ok: false,
      checks: {
        jobs: {
          ok: false,
          due: 3,
          stuck: [{ job: 'ticket-mail-probe', due: 2 }],
        },
        store: { ok: true },
      },
    });
    expect(body.message).toBe(
      'Die Auftragswarteschlange hängt: „ticket-mail-probe“ ist seit 16 Minuten fällig und nicht erledigt (mehr als 15 Minuten).',
    );
    expect(body.checks.jobs.stuck[0].oldestDueAgeSeconds).toBeGreaterThanOrEqual(16 * 60);
    // The job's name, never what it is about.
    expect(res.body).not.toContain('ord_bereit');
  });

  it('is ready again once the job is done', async () => {
    await dueSince('ticket-mail-probe', 'a', 20);
    expect((await app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(503);
    const { db } = app.get(StoreDatabase, { strict: false });
    await db.updateTable('jobs').set({ done_at: Date.now() }).execute();
    expect((await app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
  });

  it('is no concern of a products process, which runs no jobs', async () => {
    const products = await createApp(config({ MODULES: 'products' }), { accessLog: false });
    try {
      const res = await products.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.json().checks).not.toHaveProperty('jobs');
    } finally {
      await products.close();
    }
  });
});
