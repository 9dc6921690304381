import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  organizerMailPreviewSchema,
  organizerMailSchema,
  organizerMailsSchema,
} from '@awhh/machines';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import { SmtpSink } from '../../../tests/support/smtp-sink.js';
import { recordedShop, WP_APP_PASSWORDS } from '../../../tests/support/woocommerce-fixtures.js';
import { parseDatabaseUrl } from '../../src/config/config.js';
import { ORGANIZER_MAIL_JOB } from '../../src/organizer/organizer-mail.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  API_DATABASES,
  FakeCatalog,
  fastJobOptions,
  freshIp,
  inject,
  line,
  postCheckout,
  PUBLIC_URL,
  resetStore,
  settleOutbox,
  waitFor,
} from '../support/checkout-test-app.js';
import { shopCatalog } from '../support/shop-catalog.js';

jest.setTimeout(120_000);

// rules "The organizer": a mail to every valid holder of an event, over HTTP and a real
// SMTP server: previewed in the site's layout with the organizer's text escaped, tested
// on the organizer's address, sent through the job runner once per address, even when the
// process stops mid-way and another one picks the jobs up.

const ORGANIZER_CODE = 'Pp8h-Ab6x-Pzdp-5g4f';
const ORGANIZER_EMAIL = 'orga@afterwork-hamburg.example';
const EVENT = 101;
const SUBJECT = 'Neuer Treffpunkt heute Abend';
const TEXT =
  'Hallo zusammen,\n\nwir treffen uns heute am Anleger 3 statt an Brücke 1.\nBitte <b>pünktlich</b> sein & „gute Laune“ mitbringen.\n\nBis später!';

describe.each(API_DATABASES)('the mail to every holder (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let sink: SmtpSink;
  const apps: NestFastifyApplication[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    sink = await new SmtpSink().start();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) {
      await settleOutbox(app).catch(() => undefined);
      await app.close();
    }
    await sink.stop();
  });

  async function start(backoffMs = 50) {
    const app = await createTestApp({
      databaseUrl: db.url,
      catalog: new FakeCatalog(),
      env: { ORGANIZER_CODE, ORGANIZER_EMAIL, SMTP_URL: sink.url },
      jobOptions: fastJobOptions({ baseBackoffMs: backoffMs, maxBackoffMs: backoffMs }),
    });
    apps.push(app);
    return app;
  }

  async function signIn(app: NestFastifyApplication): Promise<string> {
    const res = await inject(app, {
      method: 'POST',
      url: '/api/organizer/session',
      headers: { 'x-forwarded-for': freshIp(), origin: PUBLIC_URL },
      payload: { code: ORGANIZER_CODE },
    });
    expect(res.statusCode).toBe(204);
    return res.headers['set-cookie']!.split(';')[0]!;
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

  const call = (
    app: NestFastifyApplication,
    method: string,
    url: string,
    cookie: string | null,
    payload?: unknown,
  ) =>
    inject(app, {
      method,
      url,
      headers: {
        'x-forwarded-for': freshIp(),
        ...(cookie ? { cookie } : {}),
        ...(method === 'GET' ? {} : { origin: PUBLIC_URL }),
      },
      payload,
    });

  const campaign = () => sink.mails.filter((m) => m.subject === SUBJECT);
  const addressOf = (m: { to?: unknown }) =>
    ((m.to as { text?: string } | undefined)?.text ?? '').toLowerCase();

  it('rules "The organizer": preview, "an mich testen", then one mail per address through the job runner, once despite a restart mid-way', async () => {
    const first = await start(600_000);
    await resetStore(first);
    const store = first.get(StoreDatabase).db;
    await store.deleteFrom('organizer_mail_recipients').execute();
    await store.deleteFrom('organizer_mails').execute();
    const cookie = await signIn(first);

    // Four buyers' addresses hold valid tickets (Anna two of them); Dora's order was refunded.
    await buy(first, 'anna@example.org', 2);
    await buy(first, 'bernd@example.org');
    await buy(first, 'Clara@Example.org');
    await buy(first, 'clara@example.org');
    await buy(first, 'emil@example.org');
    const refunded = await buy(first, 'dora@example.org');
    expect((await inject(first, { method: 'POST', url: `${refunded}/refund` })).statusCode).toBe(
      303,
    );
    await waitFor(async () => {
      const revoked = await store
        .selectFrom('tickets')
        .select('id')
        .where('status', '=', 'revoked')
        .execute();
      return revoked.length === 1;
    }, 10_000);
    await settleOutbox(first);
    // Anna passed her second ticket on: its holder's address gets the mail too.
    const annas = await store
      .selectFrom('tickets')
      .innerJoin('orders', 'orders.id', 'tickets.order_id')
      .select(['tickets.id', 'tickets.seat'])
      .where('orders.email', '=', 'anna@example.org')
      .execute();
    await store
      .updateTable('tickets')
      .set({ holder_email: 'neu@example.org', holder: 'Nele Neu' })
      .where('id', '=', annas.find((t) => t.seat === 2)!.id)
      .execute();
    const base = `/api/organizer/events/${EVENT}/mails`;

    // Bad input is a German 400; another site's page gets nothing; without the cookie 401.
    const long = await call(first, 'POST', `${base}/preview`, cookie, {
      subject: 'x'.repeat(121),
      text: TEXT,
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/Betreff ist zu lang/);
    expect((await call(first, 'POST', `${base}/preview`, cookie, 'nur text')).statusCode).toBe(400);
    const twoLines = await call(first, 'POST', `${base}/preview`, cookie, {
      subject: 'Neu\r\nBcc: alle@example.org',
      text: TEXT,
    });
    expect(twoLines.statusCode).toBe(400);
    expect(twoLines.json().message).toMatch(/eine Zeile/);
    expect(
      (await call(first, 'POST', `${base}/preview`, null, { subject: SUBJECT, text: TEXT }))
        .statusCode,
    ).toBe(401);
    const foreign = await inject(first, {
      method: 'POST',
      url: base,
      headers: { cookie, origin: 'https://evil.example', 'x-forwarded-for': freshIp() },
      payload: { subject: SUBJECT, text: TEXT, sendId: 'aaaaaaaaaaaaaaaaaaaa' },
    });
    expect(foreign.statusCode).toBe(403);

    const preview = await call(first, 'POST', `${base}/preview`, cookie, {
      subject: SUBJECT,
      text: TEXT,
    });
    expect(preview.statusCode).toBe(200);
    const shown = organizerMailPreviewSchema.parse(preview.json());
    expect(shown.recipients).toBe(5);
    expect(shown.subject).toBe(SUBJECT);
    expect(shown.html).toContain('Bitte &lt;b&gt;pünktlich&lt;/b&gt; sein &amp; „gute Laune“');
    expect(shown.html).not.toContain('<b>pünktlich');
    expect(shown.html).toContain('<br>');
    expect(shown.html).toContain('Afterwork im Hafen');
    expect(shown.text).toContain('Bitte <b>pünktlich</b> sein');

    const test = await call(first, 'POST', `${base}/test`, cookie, {
      subject: SUBJECT,
      text: TEXT,
    });
    expect(test.statusCode).toBe(202);
    expect(test.json()).toEqual({ to: ORGANIZER_EMAIL });
    const tested = sink.mails.find((m) => m.subject === `[Test] ${SUBJECT}`)!;
    expect(tested.to).toMatchObject({ text: ORGANIZER_EMAIL });
    expect(campaign()).toHaveLength(0);

    // The first two copies are refused for now (451); this process then stops.
    sink.rejectNext = 2;
    const sendId = 'send_4f1d2c3b4a5e6f70';
    const sent = await call(first, 'POST', base, cookie, { subject: SUBJECT, text: TEXT, sendId });
    expect(sent.statusCode).toBe(201);
    const mail = organizerMailSchema.parse(sent.json().mail);
    expect(mail).toMatchObject({ subject: SUBJECT, recipients: 5 });
    const jobsOf = () =>
      store
        .selectFrom('jobs')
        .select(['id', 'done_at', 'attempts', 'last_error'])
        .where('name', '=', ORGANIZER_MAIL_JOB)
        .execute();
    await waitFor(async () => {
      const jobs = await jobsOf();
      return (
        jobs.filter((j) => j.done_at !== null).length === 3 &&
        jobs.filter((j) => j.last_error !== null).length === 2
      );
    }, 10_000);
    expect(campaign()).toHaveLength(3);
    expect(sink.rejected).toBe(2);
    // A repeated click answers with the same mail and queues nothing more.
    const again = await call(first, 'POST', base, cookie, { subject: SUBJECT, text: TEXT, sendId });
    expect(again.statusCode).toBe(200);
    expect(again.json().mail.id).toBe(mail.id);
    expect(await jobsOf()).toHaveLength(5);
    await first.close();
    apps.splice(apps.indexOf(first), 1);

    // As if the process had died after each send, before the runner completed its job, and
    // the refused ones' backoff had passed: every job is due again for the next process.
    const between = await StoreDatabase.open(parseDatabaseUrl(db.url));
    await between.db
      .updateTable('jobs')
      .set({ done_at: null, next_attempt_at: 0, lease_until: null, lease_owner: null })
      .where('name', '=', ORGANIZER_MAIL_JOB)
      .execute();
    await between.close();
    const second = await start();
    const secondStore = second.get(StoreDatabase).db;
    await waitFor(async () => {
      const jobs = await secondStore
        .selectFrom('jobs')
        .select('done_at')
        .where('name', '=', ORGANIZER_MAIL_JOB)
        .execute();
      return jobs.every((j) => j.done_at !== null);
    }, 15_000);

    const addresses = campaign().map((m) => (m.to as { text: string }).text.toLowerCase());
    expect(addresses.sort()).toEqual([
      'anna@example.org',
      'bernd@example.org',
      'clara@example.org',
      'emil@example.org',
      'neu@example.org',
    ]);
    const copy = campaign()[0]!;
    expect(copy.text).toContain('wir treffen uns heute am Anleger 3');
    expect(copy.html).toContain('&lt;b&gt;pünktlich');
    // Listed afterwards with its count.
    const secondCookie = await signIn(second);
    const listed = organizerMailsSchema.parse(
      (await call(second, 'GET', base, secondCookie)).json(),
    );
    expect(listed.mails).toEqual([{ ...mail, sent: 5 }]);
  });

  it('rules "The organizer": a ticket mail paid during a sending goes out between its copies, not after them', async () => {
    const app = await start();
    await resetStore(app);
    const store = app.get(StoreDatabase).db;
    await store.deleteFrom('organizer_mail_recipients').execute();
    await store.deleteFrom('organizer_mails').execute();
    const cookie = await signIn(app);
    const guests = 12;
    for (let i = 0; i < guests; i += 1) await buy(app, `gast${i}@example.org`);
    await settleOutbox(app);
    const sent = await call(app, 'POST', `/api/organizer/events/${EVENT}/mails`, cookie, {
      subject: SUBJECT,
      text: TEXT,
      sendId: 'send_between_copies_1',
    });
    expect(sent.statusCode).toBe(201);
    // The copies fall due 200 ms apart; a buyer pays meanwhile.
    await buy(app, 'spaet@example.org');
    await waitFor(async () => campaign().length === guests, 15_000);
    await waitFor(async () => sink.mails.some((m) => addressOf(m) === 'spaet@example.org'), 15_000);
    const order = sink.mails.map((m) => (m.subject === SUBJECT ? 'copy' : addressOf(m)));
    const ticketMail = order.indexOf('spaet@example.org');
    expect(ticketMail).toBeLessThan(order.lastIndexOf('copy'));
  });
});

describe('"an mich testen" with a WordPress account', () => {
  let db: { url: string; drop(): Promise<void> };
  let shop: FakeWooCommerce;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    shop = await FakeWooCommerce.start(recordedShop());
    app = await createTestApp({
      databaseUrl: db.url,
      catalog: shopCatalog(shop),
      env: { ...shop.env, ORGANIZER_EMAIL },
    });
  });
  afterAll(async () => {
    await app.close();
    await shop.stop();
    await db.drop();
  });

  it('rules "The organizer": the test goes to the signed-in account\'s address, kept in the signed session cookie', async () => {
    const signIn = await inject(app, {
      method: 'POST',
      url: '/api/organizer/session',
      headers: { 'x-forwarded-for': freshIp(), origin: PUBLIC_URL },
      payload: { username: 'hanna.hafen', applicationPassword: WP_APP_PASSWORDS.shopManager },
    });
    expect(signIn.statusCode).toBe(204);
    const cookie = signIn.headers['set-cookie']!.split(';')[0]!;
    const session = await inject(app, {
      method: 'GET',
      url: '/api/organizer/session',
      headers: { cookie },
    });
    expect(session.json()).toEqual({ signedIn: true, method: 'wordpress', name: 'Hanna Hafen' });
    const test = await inject(app, {
      method: 'POST',
      url: '/api/organizer/events/42/mails/test',
      headers: { cookie, origin: PUBLIC_URL, 'x-forwarded-for': freshIp() },
      payload: { subject: SUBJECT, text: TEXT },
    });
    expect(test.statusCode).toBe(202);
    expect(test.json()).toEqual({ to: 'hanna.hafen@afterwork-hamburg.example' });
    const kept = await app
      .get(StoreDatabase)
      .db.selectFrom('mails')
      .select(['to_address', 'subject'])
      .where('subject', '=', `[Test] ${SUBJECT}`)
      .execute();
    expect(kept).toEqual([
      { to_address: 'hanna.hafen@afterwork-hamburg.example', subject: `[Test] ${SUBJECT}` },
    ]);
    // The address is signed with the session: changing it ends the session.
    const [head, mac] = [
      cookie.slice(0, cookie.lastIndexOf('.')),
      cookie.slice(cookie.lastIndexOf('.')),
    ];
    const parts = head.split('.');
    parts[parts.length - 1] = Buffer.from('mallory@example.org').toString('base64url');
    const forged = await inject(app, {
      method: 'GET',
      url: '/api/organizer/events',
      headers: { cookie: `${parts.join('.')}${mac}` },
    });
    expect(forged.statusCode).toBe(401);
  });
});
