import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { orderSummarySchema } from '@awhh/machines';
import { SMTPServer } from 'smtp-server';
import { createApp } from '../../src/app.factory.js';
import { SUMMARY_DETAILS_MS } from '../../src/orders/checkout.service.js';
import { AppConfig, parseConfig } from '../../src/config/config.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  API_DATABASES,
  FakeCatalog,
  inject,
  line,
  postCheckout,
  PUBLIC_URL,
  resetStore,
  settleOutbox,
  waitFor,
} from '../support/checkout-test-app.js';

jest.setTimeout(120_000);

const BUYER = { email: 'karla.kundin@example.org', name: 'Karla Kundin' };

/** Event 101 with a date, so a purchase issues tickets. */
function ticketCatalog(): FakeCatalog {
  const catalog = new FakeCatalog();
  catalog.productById(101).meta_data = [{ key: 'event_date', value: '2026-12-05T18:00:00.000Z' }];
  return catalog;
}

/** Every line the process writes to stdout and stderr while `run` runs. */
async function captureOutput(run: () => Promise<void>): Promise<string> {
  const written: string[] = [];
  const spies = [process.stdout, process.stderr].map((stream) =>
    jest.spyOn(stream, 'write').mockImplementation((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    }),
  );
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return written.join('');
}

/** Buys through the test provider's page; returns the session id. */
async function buy(app: NestFastifyApplication, lines = [line(101, 25, 2)]): Promise<string> {
  const res = await postCheckout(app, checkoutBody(lines));
  expect(res.statusCode).toBe(201);
  const { id, url } = res.json() as { id: string; url: string };
  const paid = await inject(app, {
    method: 'POST',
    url: `${new URL(url).pathname}/pay`,
    ...buyerForm(BUYER),
  });
  expect(paid.statusCode).toBe(303);
  return id;
}

describe('leaks: the access log', () => {
  const apps: NestFastifyApplication[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('masks ticket, offer and session tokens and e-mail addresses in every request line', async () => {
    const config = new AppConfig(
      parseConfig({
        DATABASE_URL: 'sqlite::memory:',
        PUBLIC_URL,
        STATIC_DIR: 'off',
        LOG_LEVEL: 'info',
        MODULES: 'checkout',
      }),
    );
    const ticket = 'eyJhbGciOiJFZERTQSJ9.eyJ0aWQiOiJ0a3RfZ2VoZWltIn0.c2lnbmF0dXJlLWdlaGVpbQ';
    const session = 'tps_GeheimeSitzung0123456789';
    const offer = 'R2VoZWltZXMtQW5nZWJvdC0yNC1CeXRlcw';
    const urls = [
      `/api/tickets/${ticket}`,
      `/api/tickets/${ticket}/pdf`,
      `/api/checkout/session/${session}?session_id=${session}`,
      `/api/waitlist/offers/${offer}`,
      `/api/tickets/resend?email=${encodeURIComponent(BUYER.email)}`,
      `/api/checkout/session/x?email=${BUYER.email}&angebot=${offer}`,
    ];
    const output = await captureOutput(async () => {
      const app = await createApp(config, { accessLog: true });
      apps.push(app);
      await app.listen({ port: 0, host: '127.0.0.1' });
      for (const url of urls) await inject(app, { method: 'GET', url });
    });
    const requests = output
      .split('\n')
      .filter((l) => l.includes('"context":"HTTP"'))
      .map((l) => (JSON.parse(l) as { message: { url: string } }).message.url);
    expect(requests).toEqual([
      '/api/tickets/[token]',
      '/api/tickets/[token]/pdf',
      '/api/checkout/session/[token]?session_id=[token]',
      '/api/waitlist/offers/[token]',
      '/api/tickets/resend?email=[email]',
      '/api/checkout/session/[token]?email=[email]&angebot=[token]',
    ]);
    for (const secret of [ticket, session, offer, BUYER.email, encodeURIComponent(BUYER.email)]) {
      expect(output).not.toContain(secret);
    }
  });
});

describe('leaks: a mail server refusing the recipient', () => {
  let db: { url: string; drop(): Promise<void> };
  let smtp: SMTPServer;
  let smtpPort = 0;
  let app: NestFastifyApplication | null = null;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    // Refuses every recipient the way real servers word it: the address in the answer.
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onRcptTo: (address, _session, callback) =>
        callback(
          Object.assign(
            new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown`),
            { responseCode: 550 },
          ),
        ),
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    smtpPort = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await db.drop();
  });

  it('the failed ticket mail is logged and kept for the retry without the address', async () => {
    let stored: (string | null)[] = [];
    const output = await captureOutput(async () => {
      app = await createTestApp({
        databaseUrl: db.url,
        catalog: ticketCatalog(),
        env: {
          LOG_LEVEL: 'info',
          SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
          MAIL_FROM: 'After Work Hamburg <tickets@shop.test>',
        },
      });
      await resetStore(app);
      await buy(app);
      const { db: store } = app.get(StoreDatabase);
      await waitFor(async () => {
        const rows = await store.selectFrom('jobs').select('last_error').execute();
        stored = rows.map((r) => r.last_error);
        return stored.some((e) => e?.includes('Recipient address rejected'));
      }, 20_000);
    });
    expect(output).toContain('job ticket-mail failed, retrying');
    expect(output).toContain('<[email]>: Recipient address rejected');
    expect(output).not.toContain(BUYER.email);
    expect(stored.join('\n')).not.toContain(BUYER.email);
  });
});

describe.each(API_DATABASES)('leaks: the order summary after a day (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    app = await createTestApp({ databaseUrl: db.url, catalog: ticketCatalog() });
  });
  afterAll(async () => {
    await settleOutbox(app).catch(() => undefined);
    await app.close();
    await db.drop();
  });
  beforeEach(async () => {
    await settleOutbox(app).catch(() => undefined);
    await resetStore(app);
  });

  async function summary(sessionId: string) {
    const res = await inject(app, { method: 'GET', url: `/api/checkout/session/${sessionId}` });
    expect(res.statusCode).toBe(200);
    return { order: orderSummarySchema.parse(res.json()), body: res.body };
  }

  /** Moves an order's clock back: created and paid `ms` earlier. */
  async function age(sessionId: string, ms: number) {
    const { db: store } = app.get(StoreDatabase);
    const row = await store
      .selectFrom('orders')
      .select(['created_at', 'paid_at'])
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    await store
      .updateTable('orders')
      .set({
        created_at: Number(row.created_at) - ms,
        paid_at: row.paid_at === null ? null : Number(row.paid_at) - ms,
      })
      .where('session_id', '=', sessionId)
      .execute();
  }

  it('carries the tickets and the address for 24 hours after the payment, then neither', async () => {
    const sessionId = await buy(app);
    // The hand-off job gives the order its number; the comparison below needs it settled.
    await settleOutbox(app);
    const fresh = await summary(sessionId);
    expect(fresh.order.status).toBe('paid');
    expect(fresh.order.email).toBe(BUYER.email);
    expect(fresh.order.tickets).toHaveLength(2);
    expect(fresh.order.detailsWithheld).toBe(false);

    await age(sessionId, SUMMARY_DETAILS_MS - 60_000);
    expect((await summary(sessionId)).order.tickets).toHaveLength(2);

    await age(sessionId, 120_000);
    const old = await summary(sessionId);
    // The same summary (status, number, lines, totals) without what opens the tickets.
    expect(old.order).toMatchObject({
      status: 'paid',
      orderNumber: fresh.order.orderNumber,
      lines: fresh.order.lines,
      total: fresh.order.total,
      email: null,
      tickets: [],
      detailsWithheld: true,
    });
    expect(old.body).not.toContain(BUYER.email);
    for (const ticket of fresh.order.tickets) expect(old.body).not.toContain(ticket.token);
  });

  it('an unpaid order counts from its creation; an unknown id stays a 404', async () => {
    const res = await postCheckout(app, checkoutBody([line(101, 25, 1)]));
    const { id } = res.json() as { id: string };
    await age(id, SUMMARY_DETAILS_MS + 60_000);
    const old = await summary(id);
    expect(old.order.email).toBeNull();
    expect(old.order.detailsWithheld).toBe(true);
    const unknown = await inject(app, {
      method: 'GET',
      url: '/api/checkout/session/tps_unbekannt0000000000000',
    });
    expect(unknown.statusCode).toBe(404);
  });
});
