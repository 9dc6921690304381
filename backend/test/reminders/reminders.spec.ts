import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SmtpSink } from '../../../tests/support/smtp-sink.js';
import { JobRunner } from '../../src/jobs/job-runner.js';
import { PrivacyRepository } from '../../src/privacy/privacy.port.js';
import {
  REMINDER_MAIL_JOB,
  REMINDER_SWEEP_JOB,
  reminderTimes,
  TicketReminders,
  thanksTime,
} from '../../src/reminders/reminders.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  DATABASES,
  FakeCatalog,
  fastJobOptions,
  inject,
  line,
  postCheckout,
  PUBLIC_URL,
  resetStore,
  settleOutbox,
  waitFor,
} from '../support/checkout-test-app.js';
import { makeAppleTestChain, makeGoogleTestAccount } from '../tickets/support/wallet-keys.js';

jest.setTimeout(120_000);

// rules "Reminders": REMINDER_HOURS_BEFORE before the start one mail per holder, the
// morning after a thank-you, driven through the app's own job runner with a clock the test
// sets (JobRunner.runDue), over a real SMTP server.

const EVENT = 101;
const MIN = 60_000;
const HOUR = 3_600_000;

describe('thanksTime', () => {
  it('is 9:00 in Berlin the morning after, in summer and in winter time', () => {
    // 19:00 Berlin on 4 December 2026 (UTC+1) → 9:00 Berlin on 5 December = 08:00 UTC.
    expect(new Date(thanksTime(Date.parse('2026-12-04T18:00:00Z'))).toISOString()).toBe(
      '2026-12-05T08:00:00.000Z',
    );
    // 23:30 Berlin on 1 July 2026 (UTC+2) → 9:00 Berlin on 2 July = 07:00 UTC.
    expect(new Date(thanksTime(Date.parse('2026-07-01T21:30:00Z'))).toISOString()).toBe(
      '2026-07-02T07:00:00.000Z',
    );
  });
});

describe.each(DATABASES)('reminders and thank-yous (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let sink: SmtpSink;
  let catalog: FakeCatalog;
  const apps: NestFastifyApplication[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    sink = await new SmtpSink().start();
    catalog = new FakeCatalog();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) {
      await settleOutbox(app).catch(() => undefined);
      await app.close();
    }
    await sink.stop();
  });

  /** The event starts at `start`, with its venue; `meta` adds product meta. */
  function dateEvent(start: number, meta: { key: string; value: string }[] = []) {
    catalog.productById(EVENT).meta_data = [
      { id: 1, key: 'event_date', value: new Date(start).toISOString() },
      { id: 2, key: 'venue', value: 'Hafenbar, St. Pauli' },
      ...meta,
    ];
  }

  async function start(env: NodeJS.ProcessEnv = {}) {
    const app = await createTestApp({
      databaseUrl: db.url,
      catalog,
      env: { SMTP_URL: sink.url, REMINDER_HOURS_BEFORE: '24', ...env },
      // The test's clock drives the runner; its own polling stays out of the way.
      jobOptions: fastJobOptions({ pollMs: 3_600_000 }),
    });
    apps.push(app);
    return app;
  }

  /** An empty store; the app that emptied it (and the recurring jobs' rows) is gone. */
  async function fresh(env: NodeJS.ProcessEnv = {}) {
    const emptied = await start();
    await resetStore(emptied);
    await emptied.get(StoreDatabase).db.deleteFrom('reminder_addresses').execute();
    await emptied.close();
    apps.splice(apps.indexOf(emptied), 1);
    return start(env);
  }

  async function buy(app: NestFastifyApplication, email: string, quantity = 1) {
    const res = await postCheckout(app, checkoutBody([line(EVENT, 25, quantity, 'Afterwork')]));
    expect(res.statusCode).toBe(201);
    const page = new URL(res.json().url).pathname;
    const paid = await inject(app, {
      method: 'POST',
      url: `${page}/pay`,
      ...buyerForm({ email, name: 'Gast Hafen' }),
    });
    expect(paid.statusCode).toBe(303);
    return page;
  }

  const addressOf = (m: { to?: unknown }) =>
    ((m.to as { text?: string } | undefined)?.text ?? '').toLowerCase();
  const reminders = () => sink.mails.filter((m) => m.subject?.startsWith('Erinnerung:'));
  const thanks = () => sink.mails.filter((m) => m.subject?.startsWith('Danke für den Abend'));
  const reminderJobs = async (app: NestFastifyApplication) =>
    app
      .get(StoreDatabase)
      .db.selectFrom('jobs')
      .select(['key'])
      .where('name', '=', REMINDER_MAIL_JOB)
      .execute();
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  it('sends one reminder per holder at its time, none for a revoked ticket, none twice after a restart; the thank-you the morning after; unsubscribing stops it', async () => {
    const startsAt = Date.now() + 30 * HOUR;
    dateEvent(startsAt);
    const first = await fresh();
    await buy(first, 'anna@example.org', 2);
    await buy(first, 'bernd@example.org');
    const refunded = await buy(first, 'dora@example.org');
    expect((await inject(first, { method: 'POST', url: `${refunded}/refund` })).statusCode).toBe(
      303,
    );
    const store = first.get(StoreDatabase).db;
    await waitFor(
      async () =>
        (await store.selectFrom('tickets').select('id').where('status', '=', 'revoked').execute())
          .length === 1,
      10_000,
    );
    await settleOutbox(first);
    const { reminder, thanks: thanksAt } = reminderTimes(startsAt, 24);

    // Ten minutes early: nothing. (The sweep looks every 5 minutes of the test's clock.)
    await first.get(JobRunner).runDue(reminder.from - 10 * MIN);
    await settle();
    expect(reminders()).toHaveLength(0);

    // At its time: Anna once (both her seats), Bernd once, Dora's revoked ticket nothing.
    await first.get(JobRunner).runDue(reminder.from + 10 * MIN);
    await waitFor(async () => reminders().length >= 2, 10_000);
    await settle();
    expect(reminders().map(addressOf).sort()).toEqual(['anna@example.org', 'bernd@example.org']);
    const anna = reminders().find((m) => addressOf(m) === 'anna@example.org')!;
    expect(anna.subject).toMatch(/^Erinnerung: Afterwork im Hafen am \w+, \d+\. \w+ \d{4}/);
    expect(anna.text).toContain('Ort: Hafenbar, St. Pauli');
    expect(anna.text).toContain(
      'https://www.openstreetmap.org/search?query=Hafenbar%2C%20St.%20Pauli%2C%20Hamburg',
    );
    expect(anna.text!.match(new RegExp(`${PUBLIC_URL}/tickets/[\\w.-]+`, 'g'))).toHaveLength(2);
    expect(anna.text).toContain('dein Ticket weitergeben');
    expect(anna.html).toContain('Ticket 2 öffnen');
    // rules "Wallet passes": a site without wallets offers none in the reminder either.
    expect(anna.text).not.toContain('Wallet');
    expect(anna.html).not.toContain('Wallet');

    // The process stops; another starts and sweeps again, later in the window: no second mail.
    await first.close();
    apps.splice(apps.indexOf(first), 1);
    const second = await start();
    await second.get(JobRunner).runDue(reminder.from + 20 * MIN);
    await second.get(JobRunner).runDue(reminder.from + 30 * MIN);
    await settle();
    expect(reminders()).toHaveLength(2);
    expect((await reminderJobs(second)).map((j) => j.key)).toHaveLength(2);

    // Anna unsubscribes: the link shows a button, its POST stops her thank-you.
    const link = /Keine Erinnerungen mehr: (\S+)/.exec(anna.text!)![1]!;
    const path = new URL(link).pathname;
    expect(link.startsWith(PUBLIC_URL)).toBe(true);
    const ask = await inject(second, { method: 'GET', url: path });
    expect(ask.statusCode).toBe(200);
    expect(ask.body).toContain('Erinnerungen abbestellen');
    const foreign = await inject(second, {
      method: 'POST',
      url: path,
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    // As the browser's form sends it: urlencoded, empty.
    const done = await inject(second, {
      method: 'POST',
      url: path,
      headers: {
        origin: new URL(PUBLIC_URL).origin,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: '',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Erinnerungen abbestellt');
    const unknown = await inject(second, {
      method: 'POST',
      url: '/api/reminders/unsubscribe/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    });
    expect(unknown.statusCode).toBe(404);
    // Guessing tokens from one address is stopped.
    const guesses: number[] = [];
    for (let i = 0; i < 31; i += 1) {
      const guess = await inject(second, {
        method: 'POST',
        url: `/api/reminders/unsubscribe/${String(i).padStart(32, 'g')}`,
        headers: { 'x-forwarded-for': '203.0.113.77' },
      });
      guesses.push(guess.statusCode);
    }
    expect(guesses.at(-1)).toBe(429);

    // The morning after: only Bernd, once, with the next evening's link.
    await second.get(JobRunner).runDue(thanksAt.from - 10 * MIN);
    await settle();
    expect(thanks()).toHaveLength(0);
    await second.get(JobRunner).runDue(thanksAt.from + 10 * MIN);
    await waitFor(async () => thanks().length >= 1, 10_000);
    await second.get(JobRunner).runDue(thanksAt.from + 30 * MIN);
    await settle();
    expect(thanks().map(addressOf)).toEqual(['bernd@example.org']);
    expect(thanks()[0]!.text).toContain(`${PUBLIC_URL}/next`);

    // Erasing Anna's personal data takes her unsubscribe token with it.
    const addresses = () =>
      second.get(StoreDatabase).db.selectFrom('reminder_addresses').select('email').execute();
    expect((await addresses()).map((a) => a.email).sort()).toEqual([
      'anna@example.org',
      'bernd@example.org',
    ]);
    await second.get(PrivacyRepository).eraseAddress('Anna@Example.org');
    expect((await addresses()).map((a) => a.email)).toEqual(['bernd@example.org']);
  });

  it('with both wallets set up the reminder links each ticket\'s Apple pass and Google save link, and they lead there (rules "Wallet passes")', async () => {
    const chain = makeAppleTestChain();
    const google = makeGoogleTestAccount();
    try {
      const startsAt = Date.now() + 30 * HOUR;
      dateEvent(startsAt);
      const app = await fresh({ ...chain.env, ...google.env });
      await buy(app, 'anna@example.org', 2);
      await settleOutbox(app);
      await app.get(JobRunner).runDue(reminderTimes(startsAt, 24).reminder.from + 10 * MIN);
      await waitFor(async () => reminders().length >= 1, 10_000);
      const [mail] = reminders();
      const tokens = [
        ...mail!.text!.matchAll(new RegExp(`${PUBLIC_URL}/tickets/([\\w.-]+)`, 'g')),
      ].map((m) => m[1]!);
      expect(tokens).toHaveLength(2);
      for (const token of tokens) {
        const base = `${PUBLIC_URL}/api/tickets/${token}/wallet`;
        expect(mail!.text).toContain(`Zu Apple Wallet hinzufügen: ${base}/apple`);
        expect(mail!.text).toContain(`Zu Google Wallet hinzufügen: ${base}/google/save`);
        expect(mail!.html).toContain(`href="${base}/apple"`);
        expect(mail!.html).toContain(`href="${base}/google/save"`);
      }
      // The links are the ticket's own: the pass and Google's save link answer for it.
      const apple = await inject(app, {
        method: 'GET',
        url: `/api/tickets/${tokens[0]}/wallet/apple`,
      });
      expect(apple.statusCode).toBe(200);
      expect(apple.headers['content-type']).toBe('application/vnd.apple.pkpass');
      const save = await inject(app, {
        method: 'GET',
        url: `/api/tickets/${tokens[1]}/wallet/google/save`,
      });
      expect(save.statusCode).toBe(303);
      expect(save.headers.location).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\//);
    } finally {
      chain.remove();
    }
  });

  it('sends each reminder once when two processes sweep at the same moment', async () => {
    const startsAt = Date.now() + 30 * HOUR;
    dateEvent(startsAt);
    const one = await fresh();
    await buy(one, 'anna@example.org', 2);
    await buy(one, 'bernd@example.org');
    await buy(one, 'clara@example.org');
    await settleOutbox(one);
    // Clara passed her ticket on and its holder's address was erased since: nobody gets it.
    const db = one.get(StoreDatabase).db;
    const claras = await db
      .selectFrom('tickets')
      .innerJoin('orders', 'orders.id', 'tickets.order_id')
      .select('tickets.id')
      .where('orders.email', '=', 'clara@example.org')
      .execute();
    await db
      .updateTable('tickets')
      .set({ holder_email: '', holder: null })
      .where('id', '=', claras[0]!.id)
      .execute();
    const two = await start();
    const at = reminderTimes(startsAt, 24).reminder.from + 10 * MIN;
    await Promise.all([one.get(JobRunner).runDue(at), two.get(JobRunner).runDue(at)]);
    await waitFor(async () => reminders().length >= 2, 10_000);
    await Promise.all([
      one.get(JobRunner).runDue(at + 10 * MIN),
      two.get(JobRunner).runDue(at + 10 * MIN),
    ]);
    await settle();
    expect(reminders().map(addressOf).sort()).toEqual(['anna@example.org', 'bernd@example.org']);
  });

  it('sends nothing for an event with awhh_reminders = no, nor for a ticket bought less than 2 hours before the reminder', async () => {
    const app = await fresh();
    // Starts in 25 hours: the reminder is due in 1 hour, the ticket bought now is too recent.
    const soon = Date.now() + 25 * HOUR;
    dateEvent(soon);
    await buy(app, 'spaet@example.org');
    await settleOutbox(app);
    await app.get(JobRunner).runDue(reminderTimes(soon, 24).reminder.from + MIN);
    await settle();
    expect(await reminderJobs(app)).toHaveLength(0);

    // Switched off by the organizer: a ticket bought in time gets nothing either.
    const later = Date.now() + 40 * HOUR;
    dateEvent(later, [{ key: 'awhh_reminders', value: 'no' }]);
    await app.get(JobRunner).runDue(reminderTimes(later, 24).reminder.from + MIN);
    await app.get(JobRunner).runDue(reminderTimes(later, 24).thanks.from + MIN);
    await settle();
    expect(await reminderJobs(app)).toHaveLength(0);
    expect(reminders()).toHaveLength(0);
    expect(REMINDER_SWEEP_JOB).toBe('reminders.sweep');
  });

  // How long the pass takes (its budget, 2 s over 2,000 tickets) is measured by the bench,
  // part "reminders" (tests/bench/reminders.bench.ts), not asserted here.
  it('sweeps 2,000 tickets into one job per address, and none more the second time', async () => {
    const app = await fresh();
    const startsAt = Date.now() + 30 * HOUR;
    dateEvent(startsAt);
    const db = app.get(StoreDatabase).db;
    const issuedAt = Date.now() - 48 * HOUR;
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      id: `tb${String(i).padStart(6, '0')}`,
      order_id: `ord_bench_${Math.floor(i / 2)}`,
      line_position: 0,
      seat: (i % 2) + 1,
      seats: 2,
      event_id: EVENT,
      variation_id: null,
      event_name: 'Afterwork im Hafen',
      event_slug: 'afterwork-im-hafen',
      starts_at: new Date(startsAt).toISOString(),
      venue: 'Hafenbar, St. Pauli',
      tier: null,
      holder: `Gast ${i}`,
      status: 'valid',
      issued_at: issuedAt,
      revoked_at: null,
      refunded_at: null,
      code: `B${String(i).padStart(9, '0')}`,
      holder_company: null,
      // Two seats per address, as a buyer's second seat passed on would be.
      holder_email: `gast${Math.floor(i / 2)}@example.org`,
    }));
    for (let i = 0; i < rows.length; i += 200) {
      await db
        .insertInto('tickets')
        .values(rows.slice(i, i + 200))
        .execute();
    }
    const reminders = app.get(TicketReminders);
    const at = reminderTimes(startsAt, 24).reminder.from + MIN;
    expect(await reminders.sweep(at)).toBe(1000);
    expect(await reminderJobs(app)).toHaveLength(1000);
    await reminders.sweep(at + 10 * MIN);
    expect(await reminderJobs(app)).toHaveLength(1000);
  });
});
