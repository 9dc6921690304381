import { generateKeyPairSync } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  formatTicketCode,
  guestEmailKey,
  mailTestInfoSchema,
  orderSummarySchema,
  organizerDoorDevicesSchema,
  ticketCodeKey,
} from '@awhh/machines';
import { CompactSign } from 'jose';
import { createApp } from '../../src/app.factory.js';
import { CHECKIN_CODE_SETTING } from '../../src/door/door-code.js';
import { DOOR_LOCKOUT } from '../../src/door/door-lockout.js';
import { AppConfig, parseConfig } from '../../src/config/config.js';
import { doorCodeCli } from '../../src/door-code.cli.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import { type NewTicket, TicketRepository } from '../../src/tickets/tickets.port.js';
import { SettingsRepository, Store } from '../../src/store/store.port.js';
import { newTicketCode, newTicketId } from '../../src/tickets/ticket-issue.js';
import { KyselyTicketRepository } from '../../src/tickets/ticket.repository.js';
import { TicketSigner } from '../../src/tickets/ticket-signer.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  DATABASES,
  FakeCatalog,
  freshIp,
  inject,
  type InjectResponse,
  line,
  organizerSignIn,
  postCheckout,
  PUBLIC_URL,
  resetStore,
  settleOutbox,
} from '../support/checkout-test-app.js';

jest.setTimeout(120_000);

const CODE = 'JFWZ-APMB-F8MN-68XF';
const ORGANIZER = 'Qw7v-Np3k-Hx8m-Tb4r';
const WRONG_CODE = 'Der Türcode stimmt nicht.';
/** Scan times lie in the past: the server caps a scan time later than the sync's arrival. */
const DOORS_OPEN = Math.floor(Date.now() / 60_000) * 60_000 - 3 * 3_600_000;
/** Tonight's event, in about an hour: the doors opened 4 hours before. */
const EVENT_START = new Date(DOORS_OPEN + 4 * 3_600_000).toISOString();
/** The tickets were bought before the doors opened (scans before a ticket's issue are invalid). */
const ISSUED = DOORS_OPEN - 3_600_000;
/** The scan time `minutes` after the doors opened, ISO 8601 as the page sends it. */
function at(minutes: number): string {
  return new Date(DOORS_OPEN + minutes * 60_000).toISOString();
}

/** Event 101 with a date and a venue (as in the ticket suite); 102 and 103 are merch. */
function doorCatalog(): FakeCatalog {
  const catalog = new FakeCatalog();
  catalog.productById(101).meta_data = [
    { key: 'event_date', value: EVENT_START },
    { key: 'venue', value: 'Strandperle' },
  ];
  return catalog;
}

interface Scan {
  scanId: string;
  token?: string;
  code?: string;
  eventId?: number;
  scannedAt: string | number;
  device: string;
}

describe.each(DATABASES)('door check-in (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  const apps: NestFastifyApplication[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.drop();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) {
      await settleOutbox(app).catch(() => undefined);
      await app.close();
    }
  });

  /** A checkout process on the suite's store; the first of a test empties the store. */
  async function start(env: NodeJS.ProcessEnv = { CHECKIN_CODE: CODE }, fresh = true) {
    const app = await createTestApp({ databaseUrl: db.url, catalog: doorCatalog(), env });
    apps.push(app);
    if (fresh) {
      const store = app.get(StoreDatabase).db;
      // The check-in tables reference tickets: emptied before the shared reset.
      await store.deleteFrom('checkin_scans').execute();
      await store.deleteFrom('checkins').execute();
      await resetStore(app);
    }
    return app;
  }

  /** Buys `quantity` seats of event 101 through the test provider; returns their tokens. */
  async function buy(app: NestFastifyApplication, quantity = 2): Promise<string[]> {
    const res = await postCheckout(app, checkoutBody([line(101, 25, quantity)]));
    expect(res.statusCode).toBe(201);
    const { id, url } = res.json() as { id: string; url: string };
    const paid = await inject(app, {
      method: 'POST',
      url: `${new URL(url).pathname}/pay`,
      ...buyerForm({ email: 'karla@example.org', name: 'Karla Kundin' }),
    });
    expect(paid.statusCode).toBe(303);
    const summary = orderSummarySchema.parse(
      (await inject(app, { method: 'GET', url: `/api/checkout/session/${id}` })).json(),
    );
    expect(summary.tickets).toHaveLength(quantity);
    const tokens = summary.tickets.map((t) => t.token);
    await app
      .get(StoreDatabase)
      .db.updateTable('tickets')
      .set({ issued_at: ISSUED })
      .where('id', 'in', tokens.map(ticketIdOf))
      .execute();
    return tokens;
  }

  function door(
    app: NestFastifyApplication,
    method: string,
    url: string,
    options: { code?: string | null; ip?: string; payload?: unknown } = {},
  ): Promise<InjectResponse> {
    const code = options.code === undefined ? CODE : options.code;
    return inject(app, {
      method,
      url,
      headers: {
        'x-forwarded-for': options.ip ?? freshIp(),
        ...(code === null ? {} : { authorization: `Bearer ${code}` }),
      },
      payload: options.payload,
    });
  }

  async function sync(app: NestFastifyApplication, scans: Scan[]) {
    const res = await door(app, 'POST', '/api/checkin/scans', { payload: { scans } });
    expect(res.statusCode).toBe(200);
    return (res.json() as { results: Record<string, unknown>[] }).results;
  }

  async function doorList(app: NestFastifyApplication, eventId = 101) {
    const res = await door(app, 'GET', `/api/checkin/events/${eventId}/tickets`);
    expect(res.statusCode).toBe(200);
    return res;
  }

  function ticketIdOf(token: string): string {
    return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).t;
  }

  const organizerCookie = (app: NestFastifyApplication) =>
    organizerSignIn(app, { code: ORGANIZER });

  let scanCounter = 0;
  function scan(token: string, scannedAt: string | number, device = 'Tür 1'): Scan {
    scanCounter += 1;
    return { scanId: `scan-${kind}-${scanCounter}`, token, scannedAt, device };
  }

  it('lists the events with tickets and downloads an event’s tickets, never cached', async () => {
    const app = await start();
    const tokens = await buy(app, 3);

    const events = await door(app, 'GET', '/api/checkin/events');
    expect(events.statusCode).toBe(200);
    expect(events.headers['cache-control']).toBe('no-store');
    expect(events.json()).toEqual({
      events: [
        {
          id: 101,
          name: 'Afterwork im Hafen',
          startsAt: EVENT_START,
          venue: 'Strandperle',
          tickets: 3,
          revoked: 0,
          checkedIn: 0,
        },
      ],
    });

    const list = await doorList(app);
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.headers['x-robots-tag']).toBe('noindex');
    const body = list.json();
    expect(body.eventId).toBe(101);
    expect(Date.parse(body.generatedAt)).toBeGreaterThan(Date.now() - 60_000);
    // The order number comes with the hand-off, which may not have run yet.
    const withoutOrderNumber = body.tickets.map(
      ({ orderNumber: _, ...t }: Record<string, unknown>) => t,
    );
    expect(withoutOrderNumber).toEqual(
      tokens.map((token, i) => ({
        id: ticketIdOf(token),
        seat: i + 1,
        seats: 3,
        tier: null,
        // rules "Named tickets": the buyer holds the first seat until the others are named.
        holder: i === 0 ? 'Karla Kundin' : null,
        // The unnamed seats carry their buyer, so the guest list finds them by her.
        ...(i === 0 ? {} : { buyer: 'Karla Kundin' }),
        status: 'valid',
        code: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{8}$/),
        emailKey: guestEmailKey(101, 'karla@example.org'),
      })),
    );
    expect(body.elsewhere).toEqual([]);

    // An event without tickets is an empty list; a path that names no event is a 404.
    expect((await doorList(app, 999)).json().tickets).toEqual([]);
    const bad = await door(app, 'GET', '/api/checkin/events/abc/tickets');
    expect(bad.statusCode).toBe(404);
    expect(bad.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Dieses Event gibt es nicht.',
    });
  });

  it('a scan is ok, the next one of the same ticket "already" with the first time and device', async () => {
    const app = await start();
    const [token] = await buy(app, 1);
    const first = scan(token!, at(2), 'Tür 1');
    expect(await sync(app, [first])).toEqual([{ scanId: first.scanId, status: 'ok' }]);

    const second = scan(token!, at(10), 'Tür 2');
    expect(await sync(app, [second])).toEqual([
      {
        scanId: second.scanId,
        status: 'already',
        firstScannedAt: at(2),
        firstDevice: 'Tür 1',
      },
    ]);

    // Replayed after a lost answer: the same answers, nothing counted twice.
    expect(await sync(app, [second, first])).toEqual([
      {
        scanId: second.scanId,
        status: 'already',
        firstScannedAt: at(2),
        firstDevice: 'Tür 1',
      },
      { scanId: first.scanId, status: 'ok' },
    ]);
    const store = app.get(StoreDatabase).db;
    expect(await store.selectFrom('checkin_scans').select('scan_id').execute()).toHaveLength(2);

    const [listed] = (await doorList(app)).json().tickets;
    expect(listed).toMatchObject({
      checkedInAt: at(2),
      checkedInDevice: 'Tür 1',
    });
    const [event] = (await door(app, 'GET', '/api/checkin/events')).json().events;
    expect(event.checkedIn).toBe(1);
  });

  it('two devices scanned offline and sync in reverse order: the earlier scan wins, the other learns it', async () => {
    const app = await start();
    const [token] = await buy(app, 1);
    const early = scan(token!, DOORS_OPEN + 30_000, 'Tür A');
    const late = scan(token!, at(4), 'Tür B');

    // B comes back online first: nobody was earlier yet.
    expect(await sync(app, [late])).toEqual([{ scanId: late.scanId, status: 'ok' }]);
    // Then A, whose scan happened before B's.
    expect(await sync(app, [early])).toEqual([{ scanId: early.scanId, status: 'ok' }]);
    // B's next sync (or its replay) tells it that it was second.
    expect(await sync(app, [late])).toEqual([
      {
        scanId: late.scanId,
        status: 'already',
        firstScannedAt: new Date(DOORS_OPEN + 30_000).toISOString(),
        firstDevice: 'Tür A',
      },
    ]);
    expect((await doorList(app)).json().tickets[0]).toMatchObject({
      checkedInAt: new Date(DOORS_OPEN + 30_000).toISOString(),
      checkedInDevice: 'Tür A',
    });

    // Both in one batch, late first: the same outcome.
    const [other] = await buy(app, 1);
    const a = scan(other!, at(1), 'Tür A');
    const b = scan(other!, at(3), 'Tür B');
    expect(await sync(app, [b, a])).toEqual([
      {
        scanId: b.scanId,
        status: 'already',
        firstScannedAt: at(1),
        firstDevice: 'Tür A',
      },
      { scanId: a.scanId, status: 'ok' },
    ]);
  });

  it('a scan id sent twice in one batch gets the same answer twice', async () => {
    const app = await start();
    const [token] = await buy(app, 1);
    const once = scan(token!, at(2));
    expect(await sync(app, [once, once])).toEqual([
      { scanId: once.scanId, status: 'ok' },
      { scanId: once.scanId, status: 'ok' },
    ]);
  });

  it('forged, altered and foreign tokens are invalid; a revoked ticket is "revoked"', async () => {
    const app = await start();
    const [token, second] = await buy(app, 2);
    const [header, payload, signature] = token!.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const otherSeat = Buffer.from(JSON.stringify({ ...claims, s: 2 })).toString('base64url');
    const forged = await new CompactSign(Buffer.from(payload!, 'base64url'))
      .setProtectedHeader({ alg: 'EdDSA' })
      .sign(generateKeyPairSync('ed25519').privateKey);
    // Signed with our key, but for a ticket this store never issued.
    const unknown = await app.get(TicketSigner).sign({ t: 'tunbekannt000', e: 101, s: 1 });
    // Our key, a real ticket id, but another event.
    const wrongEvent = await app.get(TicketSigner).sign({ ...claims, e: 102 });
    const bad = [
      `${header}.${otherSeat}.${signature}`,
      `${header}.${payload}.${signature![0] === 'A' ? 'B' : 'A'}${signature!.slice(1)}`,
      forged,
      unknown,
      wrongEvent,
      'kein-ticket',
      '',
    ].map((t) => scan(t, at(2)));
    const results = await sync(app, bad);
    expect(results.map((r) => r.status)).toEqual(bad.map(() => 'invalid'));
    // None of them checked the real ticket in.
    expect(await sync(app, [scan(token!, at(5))])).toMatchObject([{ status: 'ok' }]);

    // rules "Tickets and the door": a refunded or canceled order's tickets are revoked.
    const orderId = (await app.get(TicketRepository).find(ticketIdOf(second!)))!.orderId;
    await app
      .get(Store)
      .write((tx) => tx.get(TicketRepository).revokeForOrder(orderId, Date.now()));
    const revoked = scan(second!, at(6));
    expect(await sync(app, [revoked])).toEqual([{ scanId: revoked.scanId, status: 'revoked' }]);
    const list = (await doorList(app)).json().tickets;
    expect(list.map((t: { status: string }) => t.status)).toEqual(['revoked', 'revoked']);
    const [event] = (await door(app, 'GET', '/api/checkin/events')).json().events;
    expect(event).toMatchObject({ tickets: 0, revoked: 2, checkedIn: 1 });
  });

  it('refuses bad sync bodies with German 400s, and more than 500 scans at once', async () => {
    const app = await start();
    const tooMany = Array.from({ length: 501 }, (_, i) => ({
      scanId: `s${i}`,
      token: 'x',
      scannedAt: 0,
      device: 'Tür 1',
    }));
    const res = await door(app, 'POST', '/api/checkin/scans', { payload: { scans: tooMany } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'scans: Höchstens 500 Scans pro Abgleich. Bitte sende den Rest danach.',
    });
    for (const payload of [
      { scans: [{ scanId: 's', token: 'x', scannedAt: 'gestern', device: 'Tür 1' }] },
      { scans: [{ scanId: '', token: 'x', scannedAt: 0, device: 'Tür 1' }] },
      { nichts: true },
    ]) {
      const refused = await door(app, 'POST', '/api/checkin/scans', { payload });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toMatch(/^\S+/);
    }
    expect(await sync(app, [])).toEqual([]);
  });

  it('without the door code: 401; wrong codes lock the address out with 429 and Retry-After', async () => {
    const app = await start();
    const missing = await door(app, 'GET', '/api/checkin/events', { code: null });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect(missing.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: WRONG_CODE });
    expect(missing.headers['cache-control']).toBe('no-store');

    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < DOOR_LOCKOUT.maxWrong; i += 1) {
      const res = await door(app, 'POST', '/api/checkin/scans', {
        code: `FALSCH-${i}-0000`,
        ip,
        payload: { scans: [] },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 401) expect(res.json().message).toBe(WRONG_CODE);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    // Locked out: every further wrong code is a 429.
    const locked = await door(app, 'GET', '/api/checkin/events', { ip, code: 'FALSCH-9-0000' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(locked.json().message).toMatch(/Zu viele falsche Türcodes/);
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(DOOR_LOCKOUT.lockoutMs / 1000 - 60);
    expect(retryAfter).toBeLessThanOrEqual(DOOR_LOCKOUT.lockoutMs / 1000);
    // Another address is not affected, and the code is case and dash tolerant.
    const other = await door(app, 'GET', '/api/checkin/events', { code: 'jfwz apmb f8mn68xf' });
    expect(other.statusCode).toBe(200);
  });

  it('rules "Tickets and the door": a locked-out address is not evaluated: the right code gets the same 429; a door session made before still works', async () => {
    const app = await start();
    const wifi = freshIp();
    // The staff's phone signed in before …
    const session = await door(app, 'POST', '/api/checkin/session', { ip: wifi });
    expect(session.statusCode).toBe(201);
    // … then somebody on the same Wi-Fi guesses.
    for (let i = 0; i < DOOR_LOCKOUT.maxWrong; i += 1) {
      await door(app, 'GET', '/api/checkin/events', { code: `FALSCH-${i}-0000`, ip: wifi });
    }
    const wrong = await door(app, 'GET', '/api/checkin/events', {
      code: 'FALSCH-X-0000',
      ip: wifi,
    });
    const right = await door(app, 'GET', '/api/checkin/events', { ip: wifi });
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual(wrong.json());
    expect(right.headers['retry-after']).toBeDefined();
    expect((await door(app, 'POST', '/api/checkin/session', { ip: wifi })).statusCode).toBe(429);
    // A session is no guess: the phone signed in keeps syncing.
    expect(
      (
        await door(app, 'POST', '/api/checkin/scans', {
          ip: wifi,
          code: session.json().token,
          payload: { scans: [] },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('an IPv6 client counts by its /64 network: rotating the interface part buys no guesses', async () => {
    const app = await start();
    const statuses: number[] = [];
    for (let i = 0; i < DOOR_LOCKOUT.maxWrong + 2; i += 1) {
      const res = await door(app, 'GET', '/api/checkin/events', {
        code: `FALSCH-${i}-0000`,
        ip: `2001:db8:7:1::${(i + 1).toString(16)}`,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429]);
    const right = await door(app, 'GET', '/api/checkin/events', { ip: '2001:db8:7:1:ffff::9' });
    expect(right.statusCode).toBe(429);
    // The next /64 is somebody else.
    expect(
      (await door(app, 'GET', '/api/checkin/events', { ip: '2001:db8:7:2::1' })).statusCode,
    ).toBe(200);
  });

  it('with the default proxy setting, a rotating X-Forwarded-For gives no extra guesses', async () => {
    // TRUST_PROXY unset: `npm start` serves visitors directly, the header is the client's word.
    const app = await start({ CHECKIN_CODE: CODE, TRUST_PROXY: '' });
    const statuses: number[] = [];
    for (let i = 0; i < DOOR_LOCKOUT.maxWrong + 3; i += 1) {
      const res = await door(app, 'GET', '/api/checkin/events', { code: `FALSCH-${i}-0000` });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
  });

  it('a door session: for the right code only, until the end of the next day, for the door API only', async () => {
    const app = await start();
    const [token] = await buy(app, 1);
    const res = await door(app, 'POST', '/api/checkin/session');
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const session = res.json() as { token: string; expiresAt: string };
    expect(session.token).toMatch(/^door\./);
    const berlinDay = (at: number) =>
      new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date(at));
    // Valid through tomorrow (Berlin): it ends at the midnight that starts the day after.
    expect(berlinDay(Date.parse(session.expiresAt))).toBe(berlinDay(Date.now() + 2 * 86_400_000));
    expect(berlinDay(Date.parse(session.expiresAt) - 1)).toBe(berlinDay(Date.now() + 86_400_000));
    expect(session.token).not.toContain(CODE);

    // The session opens every door route …
    const withSession = { code: session.token };
    expect((await door(app, 'GET', '/api/checkin/events', withSession)).statusCode).toBe(200);
    expect(
      (await door(app, 'GET', '/api/checkin/events/101/tickets', withSession)).statusCode,
    ).toBe(200);
    const synced = await door(app, 'POST', '/api/checkin/scans', {
      ...withSession,
      payload: { scans: [scan(token!, at(2))] },
    });
    expect(synced.json().results).toMatchObject([{ status: 'ok' }]);

    // … but mints no further session, and a wrong or altered one is refused without
    // counting as a guess at the code.
    const ip = freshIp();
    const renew = await door(app, 'POST', '/api/checkin/session', { ...withSession, ip });
    expect(renew.statusCode).toBe(401);
    const [prefix, id, secret] = session.token.split('.');
    const altered = `${prefix}.${id}.${secret!.slice(0, -1)}${secret!.endsWith('A') ? 'B' : 'A'}`;
    for (let i = 0; i < DOOR_LOCKOUT.maxWrong + 1; i += 1) {
      const refused = await door(app, 'GET', '/api/checkin/events', { code: altered, ip });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBe(
        'Die Freigabe dieses Geräts ist abgelaufen. Bitte gib den Türcode erneut ein.',
      );
    }

    // It is no ticket: the ticket page and the door's scan do not know it.
    const page = await inject(app, {
      method: 'GET',
      url: `/api/tickets/${encodeURIComponent(session.token)}`,
    });
    expect(page.statusCode).toBe(404);
    expect(await sync(app, [scan(session.token, at(3))])).toMatchObject([{ status: 'invalid' }]);

    // Another process on the same store accepts it; a new door code ends it.
    const second = await start({ CHECKIN_CODE: CODE }, false);
    expect((await door(second, 'GET', '/api/checkin/events', withSession)).statusCode).toBe(200);
    const recoded = await start({ CHECKIN_CODE: 'Gspd-Uvp3-H72s-Bqd8' }, false);
    expect((await door(recoded, 'GET', '/api/checkin/events', withSession)).statusCode).toBe(401);
  });

  it('rules "Tickets and the door": door sessions are kept by the digest of their secret; the organizer lists the devices by name, ends one alone or all', async () => {
    const app = await start({ CHECKIN_CODE: CODE, ORGANIZER_CODE: ORGANIZER });
    const [token] = await buy(app, 1);
    const signIn = async (device: unknown) => {
      const res = await door(app, 'POST', '/api/checkin/session', { payload: { device } });
      expect(res.statusCode).toBe(201);
      return (res.json() as { token: string }).token;
    };
    const north = await signIn('Eingang Nord');
    const south = await signIn('  Tür   Süd  ');
    const unnamed = await signIn(42);
    // The store holds neither a session's secret nor a key to make one (a backup is no key).
    const rows = await app.get(StoreDatabase).db.selectFrom('door_sessions').selectAll().execute();
    expect(rows).toHaveLength(3);
    for (const t of [north, south, unnamed]) {
      expect(JSON.stringify(rows)).not.toContain(t.split('.')[2]);
    }
    const settings = await app.get(StoreDatabase).db.selectFrom('settings').select('key').execute();
    expect(settings.map((r) => r.key)).not.toContain('checkin-session-key');
    // A device's scans carry the name its staff gave it; the list shows that one.
    await door(app, 'POST', '/api/checkin/scans', {
      code: unnamed,
      payload: { scans: [scan(token!, at(2), 'Garderobe')] },
    });

    const cookie = await organizerCookie(app);
    const organizer = (method: string, url: string) =>
      inject(app, {
        method,
        url,
        headers: { cookie, origin: PUBLIC_URL, 'x-forwarded-for': freshIp() },
      });
    const listed = organizerDoorDevicesSchema.parse(
      (await organizer('GET', '/api/organizer/door-devices')).json(),
    ).devices;
    expect(listed.map((d) => d.device).sort()).toEqual(['Eingang Nord', 'Garderobe', 'Tür Süd']);
    const target = listed.find((d) => d.device === 'Eingang Nord')!;
    expect((await organizer('DELETE', `/api/organizer/door-devices/${target.id}`)).statusCode).toBe(
      204,
    );
    // That device asks for the code again at once; the others go on.
    const ended = await door(app, 'GET', '/api/checkin/events', { code: north });
    expect(ended.statusCode).toBe(401);
    expect(ended.json().message).toBe(
      'Die Freigabe dieses Geräts ist abgelaufen. Bitte gib den Türcode erneut ein.',
    );
    expect((await door(app, 'GET', '/api/checkin/events', { code: south })).statusCode).toBe(200);
    const again = await organizer('DELETE', `/api/organizer/door-devices/${target.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toMatch(/nicht \(mehr\) angemeldet/);
    // Not without the organizer's session.
    const anonymous = await inject(app, {
      method: 'DELETE',
      url: '/api/organizer/door-devices',
      headers: { origin: PUBLIC_URL, 'x-forwarded-for': freshIp() },
    });
    expect(anonymous.statusCode).toBe(401);
    const all = await organizer('DELETE', '/api/organizer/door-devices');
    expect(all.json()).toEqual({ ended: 2 });
    for (const t of [south, unnamed]) {
      expect((await door(app, 'GET', '/api/checkin/events', { code: t })).statusCode).toBe(401);
    }
  });

  it('a scan time before the ticket existed is invalid, one long before the event "early"; neither rewrites anything', async () => {
    const app = await start();
    const [token] = await buy(app, 1);
    const real = scan(token!, at(30), 'Tür 1');
    expect(await sync(app, [real])).toEqual([{ scanId: real.scanId, status: 'ok' }]);

    // Bought three days before the evening.
    const issued = Date.parse(EVENT_START) - 3 * 86_400_000;
    await app
      .get(StoreDatabase)
      .db.updateTable('tickets')
      .set({ issued_at: issued })
      .where('id', '=', ticketIdOf(token!))
      .execute();
    const forged = [
      scan(token!, 0, 'Tür Evil'),
      scan(token!, '1970-01-01T00:00:00.000Z', 'Tür Evil'),
      scan(token!, issued - 1, 'Tür Evil'),
      // After the ticket's issue, but more than 12 hours before the event.
      scan(token!, Date.parse(EVENT_START) - 12 * 3_600_000 - 1, 'Tür Evil'),
    ];
    const results = await sync(app, forged);
    // rules "Tickets and the door": the genuine ticket's scan before check-in opened says
    // so, with the opening; the forged times are invalid.
    expect(results.map((r) => r.status)).toEqual(['invalid', 'invalid', 'invalid', 'early']);
    expect(results[3]).toMatchObject({
      opensAt: new Date(Date.parse(EVENT_START) - 12 * 3_600_000).toISOString(),
    });
    // Replayed: refused all the same, never a check-in.
    expect((await sync(app, forged)).map((r) => r.status)).toEqual(forged.map(() => 'invalid'));
    expect((await doorList(app)).json().tickets[0]).toMatchObject({
      checkedInAt: at(30),
      checkedInDevice: 'Tür 1',
    });

    // A device clock running ahead: capped at the sync's arrival, so it comes second.
    const future = scan(token!, Date.now() + 365 * 86_400_000, 'Tür Zukunft');
    expect(await sync(app, [future])).toMatchObject([
      { status: 'already', firstScannedAt: at(30), firstDevice: 'Tür 1' },
    ]);
  });

  it('holder names only for today’s and upcoming events', async () => {
    const app = await start();
    await buy(app, 2);
    expect((await doorList(app)).json().tickets.map((t: { holder: string }) => t.holder)).toEqual([
      'Karla Kundin',
      null,
    ]);
    // The same tickets, their event yesterday in Berlin (before today's start of the day).
    const berlinMidnight = Date.parse(
      `${new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date())}T00:00:00Z`,
    );
    const yesterday = new Date(berlinMidnight - 12 * 3_600_000).toISOString();
    await app
      .get(StoreDatabase)
      .db.updateTable('tickets')
      .set({ starts_at: yesterday })
      .where('event_id', '=', 101)
      .execute();
    const past = (await doorList(app)).json();
    expect(past.tickets).toHaveLength(2);
    expect(past.tickets.map((t: { holder: string | null }) => t.holder)).toEqual([null, null]);
    expect(past.tickets.map((t: { status: string }) => t.status)).toEqual(['valid', 'valid']);
    const events = (await door(app, 'GET', '/api/checkin/events')).json().events;
    expect(JSON.stringify(events)).not.toContain('Karla');
  });

  it('a door code weaker than 12 letters and digits is refused at start-up', async () => {
    for (const weak of ['EINLASS-2026', 'einlass-einlass', '1234-5678-9012']) {
      await expect(start({ CHECKIN_CODE: weak }, false)).rejects.toThrow(
        /^Invalid configuration: CHECKIN_CODE /,
      );
    }
  });

  it('the door code never appears in the logs, right or wrong', async () => {
    // The real app with its access log at debug level, every line it writes captured.
    const config = new AppConfig(
      parseConfig({
        DATABASE_URL: db.url,
        PUBLIC_URL,
        STATIC_DIR: 'off',
        LOG_LEVEL: 'debug',
        MODULES: 'checkout',
        CHECKIN_CODE: CODE,
      }),
    );
    const written: string[] = [];
    const capture = (stream: NodeJS.WriteStream) =>
      jest.spyOn(stream, 'write').mockImplementation((chunk: unknown) => {
        written.push(String(chunk));
        return true;
      });
    const spies = [capture(process.stdout), capture(process.stderr)];
    try {
      const app = await createApp(config, { accessLog: true });
      apps.push(app);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const wrong = 'GANZ-FALSCH-1234';
      await door(app, 'GET', '/api/checkin/events');
      await door(app, 'GET', '/api/checkin/events/101/tickets');
      await door(app, 'POST', '/api/checkin/scans', {
        payload: { scans: [scan('kein-ticket', 0)] },
      });
      await door(app, 'GET', '/api/checkin/events', { code: wrong });
      await door(app, 'POST', '/api/checkin/scans', { code: wrong, payload: '{kaputt' });
      expect(written.join('')).toContain('/api/checkin/events');
      for (const secret of [CODE, 'JFWZAPMBF8MN68XF', wrong]) {
        expect(written.join('')).not.toContain(secret);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('the embedded door code: made once, kept in the store, shown on /mail-test only in test mode', async () => {
    const app = await start({});
    const info = await inject(app, { method: 'GET', url: '/api/mail-test' });
    expect(info.statusCode).toBe(200);
    expect(info.headers['cache-control']).toBe('no-store');
    const { checkinCode } = mailTestInfoSchema.parse(info.json());
    expect(checkinCode).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){3}$/);
    expect(await app.get(SettingsRepository).get(CHECKIN_CODE_SETTING)).toBe(checkinCode);
    expect((await door(app, 'GET', '/api/checkin/events', { code: checkinCode! })).statusCode).toBe(
      200,
    );
    expect(
      (
        await door(app, 'GET', '/api/checkin/events', {
          code: checkinCode!.replace(/-/g, '').toLowerCase(),
        })
      ).statusCode,
    ).toBe(200);

    // A second process on the same store has the same code.
    const second = await start({}, false);
    expect((await inject(second, { method: 'GET', url: '/api/mail-test' })).json()).toEqual({
      checkinCode,
    });

    // CHECKIN_CODE set: the embedded one no longer opens the door, and no code is shown.
    const configured = await start({ CHECKIN_CODE: CODE }, false);
    expect((await inject(configured, { method: 'GET', url: '/api/mail-test' })).json()).toEqual({
      checkinCode: null,
    });
    expect(
      (await door(configured, 'GET', '/api/checkin/events', { code: checkinCode! })).statusCode,
    ).toBe(401);

    // Real mail: the mailbox, and with it the code, is closed.
    const withSmtp = await start({ SMTP_URL: 'smtp://127.0.0.1:9' }, false);
    const closed = await inject(withSmtp, { method: 'GET', url: '/api/mail-test' });
    expect(closed.statusCode).toBe(404);
    expect(closed.body).not.toContain(checkinCode!);

    // A production site (a staging one on test payments included) never shows it; ops
    // read it with `npm run door-code`, from the same store.
    const production = await start(
      {
        NODE_ENV: 'production',
        PAYMENT_PROVIDER: 'test',
        TICKET_SIGNING_KEY: generateKeyPairSync('ed25519')
          .privateKey.export({ type: 'pkcs8', format: 'pem' })
          .toString(),
      },
      false,
    );
    const hidden = await inject(production, { method: 'GET', url: '/api/mail-test' });
    expect(hidden.body).not.toContain(checkinCode!);
    expect(hidden.body).not.toContain(checkinCode!.replace(/-/g, ''));
    const printed: string[] = [];
    await doorCodeCli([], { DATABASE_URL: db.url, NODE_ENV: 'production' }, (l) => printed.push(l));
    expect(printed).toEqual([`Türcode für /einlass: ${checkinCode}`]);
    printed.length = 0;
    await doorCodeCli([], { DATABASE_URL: db.url, CHECKIN_CODE: CODE }, (l) => printed.push(l));
    expect(printed).toEqual([
      'CHECKIN_CODE is set: the door uses that code (it is never printed).',
    ]);
    printed.length = 0;
    await doorCodeCli(['--new'], {}, (l) => printed.push(l));
    expect(printed[0]).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){3}$/);
    expect(printed[0]).not.toBe(checkinCode);
    expect(() => parseConfig({ CHECKIN_CODE: printed[0] })).not.toThrow();
  });

  /** 2,000 tickets of event 101 on one order, as a large evening would have them. */
  async function issueMany(app: NestFastifyApplication, count: number) {
    const [token] = await buy(app, 1);
    const orderId = (await app.get(TicketRepository).find(ticketIdOf(token!)))!.orderId;
    const first = ['Karla', 'Jonas', 'Mehmet', 'Sophie', 'Lena', 'Finn', 'Aylin', 'Paul'];
    const last = ['Kundin', 'Schmidt', 'Yılmaz', 'Müller', 'Nowak', 'Hansen', 'Petersen'];
    const tickets: NewTicket[] = Array.from({ length: count }, (_, i) => ({
      id: newTicketId(),
      orderId,
      linePosition: 1 + Math.floor(i / 4),
      seat: (i % 4) + 1,
      seats: 4,
      eventId: 101,
      variationId: null,
      eventName: 'Afterwork im Hafen',
      eventSlug: 'afterwork-im-hafen',
      startsAt: EVENT_START,
      venue: 'Strandperle',
      tier: i % 3 === 0 ? 'VIP' : 'Regulär',
      holder: `${first[i % first.length]} ${last[i % last.length]}`,
    }));
    await app.get(TicketRepository).issue(tickets, ISSUED);
    const signer = app.get(TicketSigner);
    return Promise.all(tickets.map((t) => signer.sign({ t: t.id, e: t.eventId, s: t.seat })));
  }

  it('2,000 tickets, all checked in by 500-scan syncs: the download stays within 150 KB gzip', async () => {
    const app = await start();
    const tokens = await issueMany(app, 2_000);
    // rules "Named tickets": every holder with a company, and one ticket in ten passed on
    // (its generation and earlier code in the list; its new token is the one scanned).
    const store = app.get(StoreDatabase).db;
    const tickets = app.get(TicketRepository);
    const signer = app.get(TicketSigner);
    for (let i = 0; i < tokens.length; i += 1) {
      const id = ticketIdOf(tokens[i]!);
      const company = `Hafen-Logistik ${String.fromCharCode(65 + (i % 26))}${i % 40} GmbH & Co. KG`;
      if (i % 10 === 0) {
        const moved = await tickets.transfer(
          id,
          0,
          { name: `Gast Nummer ${i}`, company, email: `gast${i}@example.org` },
          ISSUED,
        );
        if (typeof moved === 'string') throw new Error(moved);
        tokens[i] = await signer.sign({ t: id, e: 101, s: moved.seat, g: moved.generation });
      } else {
        await store
          .updateTable('tickets')
          .set({ holder_company: company })
          .where('id', '=', id)
          .execute();
      }
    }
    const base = DOORS_OPEN;
    for (let from = 0; from < tokens.length; from += 500) {
      const batch = tokens
        .slice(from, from + 500)
        .map((token, i) => scan(token, base + (from + i) * 1_000, `Tür ${(i % 4) + 1}`));
      const results = await sync(app, batch);
      expect(results).toHaveLength(500);
      expect(results.every((r, i) => r.status === 'ok' && r.scanId === batch[i]!.scanId)).toBe(
        true,
      );
    }
    const list = await doorList(app);
    const body = list.json();
    expect(body.tickets).toHaveLength(2_001);
    expect(body.tickets.filter((t: { checkedInAt?: string }) => t.checkedInAt)).toHaveLength(2_000);
    expect(body.tickets.filter((t: { passedOnCodes?: string[] }) => t.passedOnCodes)).toHaveLength(
      200,
    );
    expect(body.tickets.filter((t: { company?: string }) => t.company)).toHaveLength(2_000);
    const gzip = gzipSync(Buffer.from(list.body)).length;
    expect(gzip).toBeLessThanOrEqual(150 * 1024);
  });

  it('500 scans in one sync: fresh, repeated and already checked-in tickets answered correctly', async () => {
    const app = await start();
    const tokens = await issueMany(app, 400);
    const base = DOORS_OPEN;
    // 100 tickets checked in before, at an earlier time on another device.
    const earlier = tokens.slice(0, 100).map((t, i) => scan(t, base + i, 'Tür 9'));
    await sync(app, earlier);
    // 400 fresh scans of every ticket, plus 100 second scans of the last 100.
    const batch = [
      ...tokens.map((t, i) => scan(t, base + 60_000 + i, 'Tür 1')),
      ...tokens.slice(300).map((t, i) => scan(t, base + 120_000 + i, 'Tür 2')),
    ];
    expect(batch).toHaveLength(500);
    const results = await sync(app, batch);
    expect(results.map((r) => r.scanId)).toEqual(batch.map((s) => s.scanId));
    expect(
      results.slice(0, 100).every((r) => r.status === 'already' && r.firstDevice === 'Tür 9'),
    ).toBe(true);
    expect(results.slice(100, 400).every((r) => r.status === 'ok')).toBe(true);
    expect(
      results.slice(400).every((r) => r.status === 'already' && r.firstDevice === 'Tür 1'),
    ).toBe(true);
    const [event] = (await door(app, 'GET', '/api/checkin/events')).json().events;
    expect(event.checkedIn).toBe(400);
  });

  it('several processes syncing the same tickets at once agree on the earliest scan', async () => {
    const first = await start();
    const second = await start({ CHECKIN_CODE: CODE }, false);
    const tokens = await issueMany(first, 40);
    const base = DOORS_OPEN;
    const early = tokens.map((t, i) => scan(t, base + i, 'Tür A'));
    const late = tokens.map((t, i) => scan(t, base + 30_000 + i, 'Tür B'));
    // Late scans on one process, early ones on the other, in small concurrent batches.
    await Promise.all(
      [0, 10, 20, 30].flatMap((from) => [
        sync(first, late.slice(from, from + 10)),
        sync(second, early.slice(from, from + 10)),
      ]),
    );
    const list = (await doorList(first)).json().tickets as { checkedInDevice?: string }[];
    expect(list.filter((t) => t.checkedInDevice === 'Tür A')).toHaveLength(40);
    const replay = await sync(second, late);
    expect(replay.every((r) => r.status === 'already' && r.firstDevice === 'Tür A')).toBe(true);
  });
  /** The short code of a ticket, as the store keeps it. */
  async function codeOf(app: NestFastifyApplication, token: string): Promise<string> {
    return (await app.get(TicketRepository).find(ticketIdOf(token)))!.code!;
  }

  function typed(code: string, eventId: number, scannedAt: string | number, device = 'Tür 1') {
    scanCounter += 1;
    return { scanId: `code-${kind}-${scanCounter}`, code, eventId, scannedAt, device };
  }

  it('rules "Tickets and the door": every ticket has a random short code, unique in its event, on its page and in the list; the list keys the address, never sends it', async () => {
    const app = await start();
    const tokens = await buy(app, 3);
    const codes = await Promise.all(tokens.map((t) => codeOf(app, t)));
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(new Set(codes).size).toBe(3);
    // Nothing of the ticket's id in it: random, stored, never derived.
    for (const [i, code] of codes.entries()) {
      expect(ticketIdOf(tokens[i]!).toUpperCase()).not.toContain(code.slice(0, 4));
    }

    const page = await inject(app, { method: 'GET', url: `/api/tickets/${tokens[0]}` });
    expect(page.json().code).toBe(codes[0]);

    const list = await doorList(app);
    expect(list.json().tickets.map((t: { code: string }) => t.code)).toEqual(codes);
    expect(list.body).not.toContain('karla@example.org');
    expect(list.body).not.toContain('@');

    // The store refuses a second ticket with an event's code.
    // Read by its message: the native driver's errors are of another realm than jest's Error.
    const store = app.get(StoreDatabase).db;
    const clash = await store
      .updateTable('tickets')
      .set({ code: codes[0]! })
      .where('id', '=', ticketIdOf(tokens[1]!))
      .execute()
      .then(
        () => 'updated',
        (err: unknown) => String((err as { message?: unknown }).message ?? err),
      );
    expect(clash).toMatch(/unique/i);
  });

  it('rules "Tickets and the door": a code drawn twice in one event is drawn again, in a transaction too', async () => {
    const app = await start();
    const [token] = await buy(app, 1);
    const taken = await codeOf(app, token!);
    const orderId = (await app.get(TicketRepository).find(ticketIdOf(token!)))!.orderId;
    const seat = (linePosition: number, eventId = 101) => ({
      id: newTicketId(),
      orderId,
      linePosition,
      seat: 1,
      seats: 1,
      eventId,
      variationId: null,
      eventName: 'Afterwork im Hafen',
      eventSlug: null,
      startsAt: EVENT_START,
      venue: null,
      tier: null,
      holder: null,
    });
    // The first draw repeats the event's code; the next is fresh.
    const draws = (first: string) => {
      const queue = [first];
      return () => queue.shift() ?? newTicketCode();
    };
    const database = app.get(StoreDatabase);
    const fresh = seat(7);
    await database.write((trx) =>
      new KyselyTicketRepository(trx, draws(taken)).issue([fresh], ISSUED),
    );
    const again = seat(8);
    await new KyselyTicketRepository(database.db, draws(taken)).issue([again], ISSUED);
    const issued = [fresh, again].map((t) => app.get(TicketRepository).find(t.id));
    for (const t of await Promise.all(issued)) {
      expect(t?.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
      expect(t?.code).not.toBe(taken);
    }
    // Another event may have the same code: unique per event.
    const elsewhere = seat(9, 201);
    await new KyselyTicketRepository(database.db, draws(taken)).issue([elsewhere], ISSUED);
    expect((await app.get(TicketRepository).find(elsewhere.id))?.code).toBe(taken);
  });

  it('rules "Tickets and the door": a typed short code syncs like a scan: ok, then "already"; any case, spaces, O for 0', async () => {
    const app = await start();
    const [token, second] = await buy(app, 2);
    const code = await codeOf(app, token!);
    const first = typed(formatTicketCode(code), 101, at(2), 'Tür 1');
    expect(await sync(app, [first])).toEqual([{ scanId: first.scanId, status: 'ok' }]);
    const sloppy = formatTicketCode(code).toLowerCase().replace('-', ' ').replace(/0/g, 'o');
    const later = typed(sloppy, 101, at(5), 'Tür 2');
    expect(await sync(app, [later])).toEqual([
      { scanId: later.scanId, status: 'already', firstScannedAt: at(2), firstDevice: 'Tür 1' },
    ]);
    // The QR code of the same ticket is the same ticket.
    const scanned = scan(token!, at(6), 'Tür 3');
    expect(await sync(app, [scanned])).toMatchObject([{ status: 'already', firstDevice: 'Tür 1' }]);
    expect((await doorList(app)).json().tickets[0]).toMatchObject({
      checkedInAt: at(2),
      checkedInDevice: 'Tür 1',
    });

    // Another event's number, a code nobody has, and no code at all: invalid, nothing checked in.
    const secondCode = await codeOf(app, second!);
    const unknown = secondCode === 'ZZZZZZZZ' ? 'YYYYYYYY' : 'ZZZZZZZZ';
    const bad = [
      typed(secondCode, 102, at(3)),
      typed(unknown, 101, at(3)),
      typed('Müller', 101, at(3)),
    ];
    expect((await sync(app, bad)).map((r) => r.status)).toEqual(['invalid', 'invalid', 'invalid']);
    expect((await doorList(app)).json().tickets[1].checkedInAt).toBeUndefined();
    const refused = await door(app, 'POST', '/api/checkin/scans', {
      payload: { scans: [{ scanId: 'x', code: secondCode, scannedAt: at(3), device: 'Tür 1' }] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/Ticket-Code mit seinem Event/);

    // A revoked ticket's code is "revoked", as its QR code would be.
    const orderId = (await app.get(TicketRepository).find(ticketIdOf(second!)))!.orderId;
    await app
      .get(Store)
      .write((tx) => tx.get(TicketRepository).revokeForOrder(orderId, Date.now()));
    const revoked = typed(secondCode, 101, at(7));
    expect(await sync(app, [revoked])).toEqual([{ scanId: revoked.scanId, status: 'revoked' }]);
    expect(
      (await inject(app, { method: 'GET', url: `/api/tickets/${second}` })).json().code,
    ).toBeNull();
  });

  it('rules "Tickets and the door": the list names other current events by their codes\' keys, not past ones', async () => {
    const app = await start();
    const [token] = await buy(app, 1);
    const orderId = (await app.get(TicketRepository).find(ticketIdOf(token!)))!.orderId;
    const other = (id: string, eventId: number, startsAt: string | null) => ({
      id,
      orderId,
      linePosition: eventId,
      seat: 1,
      seats: 1,
      eventId,
      variationId: null,
      eventName: `Event ${eventId}`,
      eventSlug: null,
      startsAt,
      venue: null,
      tier: null,
      holder: null,
    });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const lastWeek = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const tickets = [
      other(newTicketId(), 201, tomorrow),
      other(newTicketId(), 202, lastWeek),
      other(newTicketId(), 203, null),
    ];
    await app.get(TicketRepository).issue(tickets, ISSUED);
    const codes = await Promise.all(
      tickets.map(async (t) => (await app.get(TicketRepository).find(t.id))!.code!),
    );
    const { elsewhere } = (await doorList(app)).json();
    expect(elsewhere).toEqual([
      { eventId: 201, codeKeys: [ticketCodeKey(codes[0]!)] },
      { eventId: 203, codeKeys: [ticketCodeKey(codes[2]!)] },
    ]);
    expect(JSON.stringify(elsewhere)).not.toContain(codes[0]);
    // Event 201's own list names 101's code in turn.
    const own = (await doorList(app, 201)).json().elsewhere;
    expect(own).toContainEqual({
      eventId: 101,
      codeKeys: [ticketCodeKey(await codeOf(app, token!))],
    });
  });
  it('rules "Tickets and the door": a ticket of an order made in the shop carries the shop\'s number and its buyer\'s key', async () => {
    const app = await start();
    const now = Date.now();
    await app
      .get(StoreDatabase)
      .db.insertInto('shop_orders')
      .values({
        id: 'shop-4711',
        number: '4711',
        status: 'completed',
        modified_at: now,
        email: 'Gast@Example.org',
        holder: 'Gustav Gast',
        total: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await app.get(TicketRepository).issue(
      [
        {
          id: newTicketId(),
          orderId: 'shop-4711',
          linePosition: 0,
          seat: 1,
          seats: 1,
          eventId: 101,
          variationId: null,
          eventName: 'Afterwork im Hafen',
          eventSlug: null,
          startsAt: EVENT_START,
          venue: null,
          tier: null,
          holder: 'Gustav Gast',
        },
      ],
      ISSUED,
    );
    const [listed] = (await doorList(app)).json().tickets;
    expect(listed).toMatchObject({
      holder: 'Gustav Gast',
      orderNumber: '4711',
      emailKey: guestEmailKey(101, 'gast@example.org'),
      code: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{8}$/),
    });
  });
});
