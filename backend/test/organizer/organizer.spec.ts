import { get, type IncomingMessage } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  organizerEventSchema,
  organizerEventsSchema,
  type OrganizerEvent,
  startOfBerlinDay,
} from '@awhh/machines';
import { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';
import { recordedShop, WP_APP_PASSWORDS } from '../../../tests/support/woocommerce-fixtures.js';
import { DOOR_LOCKOUT } from '../../src/door/door-lockout.js';
import { ORGANIZER_RECHECK_MS } from '../../src/organizer/organizer-session.js';
import {
  LOCKED_OUT_MESSAGE,
  NO_PERMISSION_MESSAGE,
  SHOP_UNREACHABLE_MESSAGE,
  WRONG_ACCOUNT_MESSAGE,
} from '../../src/organizer/organizer-sign-in.js';
import { FOREIGN_ORIGIN_MESSAGE, SIGNED_OUT_MESSAGE } from '../../src/organizer/organizer.guard.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  API_DATABASES,
  freshIp,
  inject,
  type InjectResponse,
  line,
  postCheckout,
  PUBLIC_URL,
  resetStore,
  settleOutbox,
  waitFor,
} from '../support/checkout-test-app.js';
import { shopCatalog } from '../support/shop-catalog.js';

jest.setTimeout(120_000);

// rules "The organizer" over HTTP against the checkout process, with the recorded shop as
// the fake WooCommerce: its WordPress accounts sign in (a shop manager and an administrator
// do, a subscriber does not), wrong sign-ins lock the address out, the session is a cookie
// that only the site's own pages can set or clear, and the dashboard's figures follow
// purchases, a check-in, a refund and the waiting list, live within seconds.

const CHECKIN_CODE = 'JFWZ-APMB-F8MN-68XF';
/** The recorded shop's variable event: VIP 49 € (4 places), Regulär 35 € (40), Early Bird 25 € (sold out). */
const EVENT = 42;
const VIP = 45;
const REGULAR = 44;
const EARLY_BIRD = 43;
const EVENT_NAME = 'Sommer-Afterwork auf der MS Hamburg';

interface Signed {
  cookie: string;
  setCookie: string;
}

describe.each(API_DATABASES)('the organizer with WooCommerce (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  let shop: FakeWooCommerce;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    shop = await FakeWooCommerce.start(recordedShop());
    const catalog = shopCatalog(shop);
    app = await createTestApp({
      databaseUrl: db.url,
      catalog,
      env: { ...shop.env, CHECKIN_CODE },
    });
    const store = app.get(StoreDatabase).db;
    for (const table of [
      'checkin_scans',
      'checkins',
      'waitlist_offers',
      'waitlist_entries',
    ] as const) {
      await store.deleteFrom(table).execute();
    }
    await resetStore(app);
  });
  afterEach(async () => {
    await settleOutbox(app).catch(() => undefined);
    await app.close();
    await shop.stop();
  });

  const store = () => app.get(StoreDatabase).db;

  function signIn(
    body: unknown,
    options: { ip?: string; origin?: string | null; headers?: Record<string, string> } = {},
  ): Promise<InjectResponse> {
    const origin = options.origin === undefined ? PUBLIC_URL : options.origin;
    return inject(app, {
      method: 'POST',
      url: '/api/organizer/session',
      headers: {
        'x-forwarded-for': options.ip ?? freshIp(),
        ...(origin === null ? {} : { origin }),
        ...options.headers,
      },
      payload: body,
    });
  }

  async function signedIn(
    username = 'hanna.hafen',
    password: string = WP_APP_PASSWORDS.shopManager,
  ): Promise<Signed> {
    const res = await signIn({ username, applicationPassword: password });
    expect(res.statusCode).toBe(204);
    const setCookie = res.headers['set-cookie']!;
    return { setCookie, cookie: setCookie.split(';')[0]! };
  }

  function organizer(method: string, url: string, cookie: string | null, origin?: string) {
    return inject(app, {
      method,
      url,
      headers: {
        'x-forwarded-for': freshIp(),
        ...(cookie ? { cookie } : {}),
        ...(origin ? { origin } : {}),
      },
    });
  }

  async function events(cookie: string): Promise<OrganizerEvent[]> {
    const res = await organizer('GET', '/api/organizer/events', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store, private');
    return organizerEventsSchema.parse(res.json()).events;
  }

  async function event(cookie: string, id = EVENT): Promise<OrganizerEvent> {
    const found = (await events(cookie)).find((e) => e.id === id);
    if (!found) throw new Error(`event ${id} is not on the dashboard`);
    return found;
  }

  /** Buys on the test provider; returns the order, its ticket tokens and the payment page. */
  async function buy(lines: ReturnType<typeof line>[], coupon: unknown = null) {
    const res = await postCheckout(app, checkoutBody(lines, { coupon }));
    expect(res.statusCode).toBe(201);
    const { id: sessionId, url } = res.json();
    const paid = await inject(app, {
      method: 'POST',
      url: `${new URL(url).pathname}/pay`,
      ...buyerForm(),
    });
    expect(paid.statusCode).toBe(303);
    const summary = (
      await inject(app, { method: 'GET', url: `/api/checkout/session/${sessionId}` })
    ).json();
    const order = await store()
      .selectFrom('orders')
      .selectAll()
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    return {
      orderId: order.id,
      paymentPage: new URL(url).pathname,
      tokens: (summary.tickets as { token: string }[]).map((t) => t.token),
    };
  }

  const tier = (variationId: number, price: number, quantity: number, name: string) => ({
    ...line(EVENT, price, quantity, `${EVENT_NAME} – ${name}`),
    variationId,
  });

  const handedOff = (orderId: string) =>
    waitFor(async () => {
      const row = await store()
        .selectFrom('orders')
        .select('status')
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow();
      return row.status === 'handedOff';
    }, 10_000);

  /** The door's sync: the ticket checked in now (its event moved to tonight, as at the door). */
  async function checkIn(token: string) {
    const ticketId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).t;
    await store()
      .updateTable('tickets')
      .set({
        starts_at: new Date(Date.now() + 3_600_000).toISOString(),
        issued_at: Date.now() - 60_000,
      })
      .where('id', '=', ticketId)
      .execute();
    const res = await inject(app, {
      method: 'POST',
      url: '/api/checkin/scans',
      headers: { authorization: `Bearer ${CHECKIN_CODE}`, 'x-forwarded-for': freshIp() },
      payload: {
        scans: [{ scanId: `scan-${ticketId}`, token, scannedAt: Date.now(), device: 'Tür 1' }],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().results[0].status).toBe('ok');
  }

  it('rules "The organizer": a shop manager signs in with an application password; the cookie is HttpOnly, SameSite=Strict, 12 hours, never cached', async () => {
    const res = await signIn({
      username: 'hanna.hafen',
      applicationPassword: WP_APP_PASSWORDS.shopManager,
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['cache-control']).toBe('no-store, private');
    const setCookie = res.headers['set-cookie']!;
    expect(setCookie).toMatch(/^awhh_organizer=v2\.[\w-]{43}; /);
    expect(setCookie.split('; ').slice(1)).toEqual([
      'Max-Age=43200',
      'Path=/',
      'HttpOnly',
      'SameSite=Strict',
    ]);
    // WordPress was asked as the brief of its REST API says, with Basic auth.
    const asked = shop.requests.filter((r) => r.path === '/wp-json/wp/v2/users/me');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.query.get('context')).toBe('edit');
    expect(asked[0]!.hasAuthHeader).toBe(true);

    const cookie = setCookie.split(';')[0]!;
    const session = await organizer('GET', '/api/organizer/session', cookie);
    expect(session.json()).toEqual({ signedIn: true, method: 'wordpress', name: 'Hanna Hafen' });
    expect(session.headers['cache-control']).toBe('no-store, private');
    expect(session.headers['x-robots-tag']).toBe('noindex');
    expect((await organizer('GET', '/api/organizer/session', null)).json()).toEqual({
      signedIn: false,
      method: 'wordpress',
      name: null,
    });
    expect((await organizer('GET', '/api/organizer/events', cookie)).statusCode).toBe(200);

    // The application password is not in the cookie, and the store has it only sealed with
    // a key the cookie carries; nor does the store hold the cookie's secret.
    const typed = WP_APP_PASSWORDS.shopManager.replace(/\s/g, '');
    expect(Buffer.from(cookie, 'base64url').toString('latin1')).not.toContain(typed);
    const settings = await store().selectFrom('settings').select(['key', 'value']).execute();
    const sessions = await store().selectFrom('organizer_sessions').selectAll().execute();
    for (const text of [JSON.stringify(settings), JSON.stringify(sessions)]) {
      expect(text).not.toContain(typed);
      expect(text).not.toContain(WP_APP_PASSWORDS.shopManager);
      expect(text).not.toContain(cookie.split('=')[1]!.slice(3));
    }

    // Over https (a TLS proxy in front says so) the cookie is Secure as well.
    const secure = await signIn(
      { username: 'admin', applicationPassword: WP_APP_PASSWORDS.administrator },
      { headers: { 'x-forwarded-proto': 'https' } },
    );
    expect(secure.statusCode).toBe(204);
    expect(secure.headers['set-cookie']).toMatch(/; Secure$/);
    // WordPress ignores the spaces it shows the password with.
    expect(
      (
        await signIn({
          username: 'admin',
          applicationPassword: WP_APP_PASSWORDS.administrator.replace(/\s/g, ''),
        })
      ).statusCode,
    ).toBe(204);
  });

  it('rules "The organizer": an account without the shop manager or administrator role is told why; wrong passwords and unknown names get one answer', async () => {
    const subscriber = await signIn({
      username: 'karla.kundin',
      applicationPassword: WP_APP_PASSWORDS.subscriber,
    });
    expect(subscriber.statusCode).toBe(401);
    expect(subscriber.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: NO_PERMISSION_MESSAGE,
    });
    expect(subscriber.json().message).toBe(
      'Dieses Konto hat keine Berechtigung für den Veranstalterbereich (nötig: Shop-Manager oder Administrator).',
    );
    expect(subscriber.headers['set-cookie']).toBeUndefined();

    const wrong = await signIn({ username: 'hanna.hafen', applicationPassword: 'falsch' });
    const unknown = await signIn({
      username: 'niemand',
      applicationPassword: WP_APP_PASSWORDS.shopManager,
    });
    const byAddress = await signIn({
      username: 'niemand@example.org',
      applicationPassword: WP_APP_PASSWORDS.shopManager,
    });
    for (const res of [wrong, unknown, byAddress]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(WRONG_ACCOUNT_MESSAGE);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // Her e-mail address is as good as her user name, as in WordPress.
    expect(
      (
        await signIn({
          username: 'hanna.hafen@afterwork-hamburg.example',
          applicationPassword: WP_APP_PASSWORDS.shopManager,
        })
      ).statusCode,
    ).toBe(204);

    // A body of the wrong shape: German 400s, never a 500.
    for (const body of [{}, { code: 'ABCD-EFGH-2345-JKLM' }, { username: 'x' }, 'text', []]) {
      const res = await signIn(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/Benutzernamen|Anwendungspasswort|JSON|Eingabe/);
    }
  });

  it('rules "The organizer": wrong sign-ins lock the address out as wrong door codes do, without asking the shop meanwhile', async () => {
    const ip = freshIp();
    for (let i = 1; i < DOOR_LOCKOUT.maxWrong; i += 1) {
      const res = await signIn({ username: 'hanna.hafen', applicationPassword: `x${i}` }, { ip });
      expect(res.statusCode).toBe(401);
    }
    const locking = await signIn({ username: 'hanna.hafen', applicationPassword: 'x' }, { ip });
    expect(locking.statusCode).toBe(429);
    expect(locking.json().message).toBe(LOCKED_OUT_MESSAGE);
    expect(Number(locking.headers['retry-after'])).toBeGreaterThan(
      DOOR_LOCKOUT.lockoutMs / 1000 - 5,
    );

    // Locked out: even the right password is not forwarded to WordPress.
    const asked = shop.calls('/wp-json/wp/v2/users/me');
    const right = await signIn(
      { username: 'hanna.hafen', applicationPassword: WP_APP_PASSWORDS.shopManager },
      { ip },
    );
    expect(right.statusCode).toBe(429);
    expect(shop.calls('/wp-json/wp/v2/users/me')).toBe(asked);
    // Another address is not affected.
    expect(
      (await signIn({ username: 'admin', applicationPassword: WP_APP_PASSWORDS.administrator }))
        .statusCode,
    ).toBe(204);

    // A subscriber's right password is no guess: it does not count.
    const other = freshIp();
    for (let i = 0; i < DOOR_LOCKOUT.maxWrong + 1; i += 1) {
      const res = await signIn(
        { username: 'karla.kundin', applicationPassword: WP_APP_PASSWORDS.subscriber },
        { ip: other },
      );
      expect(res.statusCode).toBe(401);
    }
  });

  it('rules "The organizer": a shop that does not answer is a German 503, and no wrong sign-in', async () => {
    shop.mode = 'down';
    const ip = freshIp();
    for (let i = 0; i < DOOR_LOCKOUT.maxWrong + 1; i += 1) {
      const res = await signIn(
        { username: 'hanna.hafen', applicationPassword: WP_APP_PASSWORDS.shopManager },
        { ip },
      );
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe(SHOP_UNREACHABLE_MESSAGE);
    }
    shop.mode = 'ok';
    expect(
      (
        await signIn(
          { username: 'hanna.hafen', applicationPassword: WP_APP_PASSWORDS.shopManager },
          { ip },
        )
      ).statusCode,
    ).toBe(204);
  });

  it('rules "The organizer": sign-in and sign-out only from the site\'s own pages (Origin), the dashboard only with the cookie', async () => {
    const body = { username: 'hanna.hafen', applicationPassword: WP_APP_PASSWORDS.shopManager };
    for (const origin of [null, 'https://evil.example', 'http://shop.test.evil.example']) {
      const res = await signIn(body, { origin });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        message: FOREIGN_ORIGIN_MESSAGE,
      });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const { cookie } = await signedIn();

    // Signing out from another site changes nothing; from the site it drops the cookie.
    const foreign = await organizer(
      'DELETE',
      '/api/organizer/session',
      cookie,
      'https://evil.example',
    );
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    const out = await organizer('DELETE', '/api/organizer/session', cookie, PUBLIC_URL);
    expect(out.statusCode).toBe(204);
    expect(out.headers['set-cookie']).toBe(
      'awhh_organizer=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict',
    );
    // Signed out means ended everywhere: a copy of the cookie opens nothing any more.
    expect((await organizer('GET', '/api/organizer/events', cookie)).statusCode).toBe(401);

    // Without a valid cookie: 401 JSON in German, for the list and the live stream alike.
    const value = cookie.split('=')[1]!;
    const forged = `awhh_organizer=${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const sent of [null, 'awhh_organizer=abc', forged, `other=${value}`]) {
      for (const url of ['/api/organizer/events', `/api/organizer/events/${EVENT}/live`]) {
        const res = await organizer('GET', url, sent);
        expect(res.statusCode).toBe(401);
        expect(res.headers['content-type']).toMatch(/json/);
        expect(res.headers['cache-control']).toBe('no-store, private');
        expect(res.json()).toEqual({
          statusCode: 401,
          error: 'Unauthorized',
          message: SIGNED_OUT_MESSAGE,
        });
      }
    }
    // A path that names no event is a 404, also for the signed-in organizer.
    const again = (await signedIn()).cookie;
    expect((await organizer('GET', '/api/organizer/events/abc/live', again)).statusCode).toBe(404);
    expect((await organizer('GET', '/api/organizer/events/999999/live', again)).statusCode).toBe(
      404,
    );
  });

  it('rules "The organizer": "Alle Sitzungen beenden" ends every session, on every device', async () => {
    const phone = (await signedIn()).cookie;
    const laptop = (await signedIn('admin', WP_APP_PASSWORDS.administrator)).cookie;
    expect(
      (await organizer('DELETE', '/api/organizer/sessions', null, PUBLIC_URL)).statusCode,
    ).toBe(401);
    expect(
      (await organizer('DELETE', '/api/organizer/sessions', phone, 'https://evil.example'))
        .statusCode,
    ).toBe(403);
    const ended = await organizer('DELETE', '/api/organizer/sessions', phone, PUBLIC_URL);
    expect(ended.statusCode).toBe(204);
    expect(ended.headers['set-cookie']).toMatch(/^awhh_organizer=; Max-Age=0;/);
    for (const cookie of [phone, laptop]) {
      expect((await organizer('GET', '/api/organizer/events', cookie)).statusCode).toBe(401);
    }
    expect(await store().selectFrom('organizer_sessions').selectAll().execute()).toEqual([]);
  });

  it('rules "The organizer": WordPress is asked again after 15 minutes of use: a revoked application password or a role taken away ends the session', async () => {
    const revoked = (await signedIn()).cookie;
    const demoted = (await signedIn('admin', WP_APP_PASSWORDS.administrator)).cookie;
    const asked = () => shop.calls('/wp-json/wp/v2/users/me');
    const before = asked();
    // Within the 15 minutes WordPress is not asked.
    expect((await organizer('GET', '/api/organizer/events', revoked)).statusCode).toBe(200);
    expect(asked()).toBe(before);

    const manager = shop.users.find((u) => u.username === 'hanna.hafen')!;
    manager.applicationPasswords = [];
    const admin = shop.users.find((u) => u.username === 'admin')!;
    admin.roles = ['subscriber'];
    // The sessions' last "yes" lies 15 minutes back: the next request asks again.
    await store()
      .updateTable('organizer_sessions')
      .set({ checked_at: Date.now() - ORGANIZER_RECHECK_MS })
      .execute();
    for (const cookie of [revoked, demoted]) {
      expect((await organizer('GET', '/api/organizer/events', cookie)).statusCode).toBe(401);
      expect((await organizer('GET', '/api/organizer/events', cookie)).statusCode).toBe(401);
    }
    expect(asked()).toBe(before + 2);
    expect(await store().selectFrom('organizer_sessions').selectAll().execute()).toEqual([]);
  });

  it('rules "The organizer": a session still allowed by WordPress is renewed by the check and goes on', async () => {
    const { cookie } = await signedIn();
    await store()
      .updateTable('organizer_sessions')
      .set({ checked_at: Date.now() - ORGANIZER_RECHECK_MS })
      .execute();
    const before = shop.calls('/wp-json/wp/v2/users/me');
    expect((await organizer('GET', '/api/organizer/events', cookie)).statusCode).toBe(200);
    expect((await organizer('GET', '/api/organizer/events', cookie)).statusCode).toBe(200);
    expect(shop.calls('/wp-json/wp/v2/users/me')).toBe(before + 1);
  });

  it('rules "The organizer": sold and capacity per tier, revenue, open checkouts, check-ins, the waiting list and a refund', async () => {
    const { cookie } = await signedIn();
    const before = await event(cookie);
    expect(before).toMatchObject({
      name: EVENT_NAME,
      startsAt: new Date('2027-01-15T18:00:00+01:00').toISOString(),
      sold: 0,
      revenue: 0,
      checkedIn: 0,
      noShows: null,
      capacity: 44,
    });
    expect(before.tiers.map((t) => [t.name, t.sold, t.capacity])).toEqual([
      ['Early Bird', 0, 0],
      ['Regulär', 0, 40],
      ['VIP', 0, 4],
    ]);

    const vip = await buy([tier(VIP, 49, 2, 'VIP')]);
    const regular = await buy([tier(REGULAR, 35, 1, 'Regulär')], {
      code: 'FEST5',
      discountType: 'fixed_cart',
      discount: 5,
    });
    await handedOff(vip.orderId);
    await handedOff(regular.orderId);
    // The shop's stock went down at the hand-off; the places sold count back into capacity.
    expect(shop.variations.find((v) => v.id === VIP)!.stock_quantity).toBe(2);
    // An unpaid checkout holds its place meanwhile.
    expect(
      (await postCheckout(app, checkoutBody([tier(REGULAR, 35, 3, 'Regulär')]))).statusCode,
    ).toBe(201);

    // The catalog is read again after the hand-off (its cache revalidates in the background).
    await waitFor(async () => {
      const e = await event(cookie);
      return e.sold === 3 && e.capacity === 44;
    }, 10_000);
    const sold = await event(cookie);
    expect(sold).toMatchObject({ sold: 3, capacity: 44, openCheckouts: 3, revenue: 128 });
    expect(sold.tiers).toEqual([
      { variationId: EARLY_BIRD, name: 'Early Bird', sold: 0, capacity: 0, openCheckouts: 0 },
      { variationId: REGULAR, name: 'Regulär', sold: 1, capacity: 40, openCheckouts: 3 },
      { variationId: VIP, name: 'VIP', sold: 2, capacity: 4, openCheckouts: 0 },
    ]);
    expect(sold.sales.at(-1)!.count).toBe(3);
    expect(sold.checkIns).toEqual([]);

    // The sold-out Early Bird's waiting list: one confirmed entry.
    const join = await inject(app, {
      method: 'POST',
      url: '/api/waitlist',
      headers: { 'x-forwarded-for': freshIp() },
      payload: {
        productId: EVENT,
        variationId: EARLY_BIRD,
        quantity: 2,
        email: 'wartend@example.org',
        consent: true,
      },
    });
    expect(join.statusCode).toBe(202);
    const entry = await store()
      .selectFrom('waitlist_entries')
      .select('confirm_token')
      .executeTakeFirstOrThrow();
    expect(
      (await inject(app, { method: 'POST', url: `/api/waitlist/confirm/${entry.confirm_token}` }))
        .statusCode,
    ).toBe(200);

    // One VIP guest comes in.
    await checkIn(vip.tokens[0]!);
    const evening = await event(cookie);
    expect(evening).toMatchObject({ checkedIn: 1, waiting: 1, offered: 0 });
    expect(evening.checkIns).toEqual([{ at: expect.any(String), count: 1 }]);

    // The Regulär order is refunded in full: its ticket no longer counts, its money neither;
    // the shop took the place back into its stock, so the capacity stays.
    expect(
      (await inject(app, { method: 'POST', url: `${regular.paymentPage}/refund` })).statusCode,
    ).toBe(303);
    await waitFor(async () => {
      const e = await event(cookie);
      return e.sold === 2 && e.tiers.find((t) => t.variationId === REGULAR)!.capacity === 40;
    }, 10_000);
    const refunded = await event(cookie);
    expect(refunded).toMatchObject({ sold: 2, revenue: 98, checkedIn: 1 });
    expect(refunded.tiers.find((t) => t.variationId === REGULAR)).toMatchObject({
      sold: 0,
      capacity: 40,
    });
  });

  it('rules "The organizer": after the evening the no-shows, and every event of the shop in order', async () => {
    const { cookie } = await signedIn();
    // The recorded shop's simple event, moved to an evening that ended an hour ago.
    const evening = shop.products.find((p) => p.id === 15)!;
    const started = new Date(Date.now() - 4 * 3_600_000);
    evening.meta_data = evening.meta_data.map((m) =>
      m.key === 'event_date' ? { ...m, value: started.toISOString() } : m,
    );
    const bought = await buy([line(15, 29, 3, 'After Work Speicherstadt')]);
    await handedOff(bought.orderId);
    await checkIn(bought.tokens[1]!);

    await waitFor(async () => (await event(cookie, 15)).checkedIn === 1, 10_000);
    const ended = await event(cookie, 15);
    expect(ended).toMatchObject({
      startsAt: started.toISOString(),
      sold: 3,
      capacity: 3,
      revenue: 87,
      checkedIn: 1,
      noShows: 2,
    });
    expect(ended.tiers).toEqual([
      { variationId: null, name: 'Ticket', sold: 3, capacity: 3, openCheckouts: 0 },
    ]);

    // Today's and upcoming first, soonest first; then past ones, latest first. Merch never.
    const list = await events(cookie);
    const order = list.map((e) => e.id);
    expect(order).not.toContain(28);
    expect(order).not.toContain(26);
    const upcoming = list.filter((e) => e.startsAt && Date.parse(e.startsAt) >= startOfToday());
    const past = list.filter((e) => e.startsAt && Date.parse(e.startsAt) < startOfToday());
    expect(order.slice(0, upcoming.length)).toEqual(
      [...upcoming]
        .sort((a, b) => Date.parse(a.startsAt!) - Date.parse(b.startsAt!))
        .map((e) => e.id),
    );
    expect(order.slice(-past.length)).toEqual(
      [...past].sort((a, b) => Date.parse(b.startsAt!) - Date.parse(a.startsAt!)).map((e) => e.id),
    );
  });

  it('rules "The organizer": signing out ends the live stream opened with that session ("signed-out"), not only the cookie', async () => {
    const { cookie } = await signedIn();
    const other = (await signedIn()).cookie;
    const url = `${await app.getUrl()}/api/organizer/events/${EVENT}/live`;
    const mine = sseMessages(await openStream(url, cookie));
    const theirs = sseMessages(await openStream(url, other));
    try {
      organizerEventSchema.parse(await mine.next(30_000));
      organizerEventSchema.parse(await theirs.next(30_000));
      expect(
        (await organizer('DELETE', '/api/organizer/session', cookie, PUBLIC_URL)).statusCode,
      ).toBe(204);
      // The stream says "signed-out" (an empty message) and ends.
      expect(await mine.next(30_000)).toEqual({});
      await expect(mine.next(30_000)).rejects.toThrow('the stream ended');
      // Another session's stream goes on.
      expect((await organizer('GET', '/api/organizer/events', other)).statusCode).toBe(200);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it('rules "The organizer": the live stream sends the figures at once and a check-in within 5 seconds', async () => {
    const { cookie } = await signedIn();
    const bought = await buy([tier(VIP, 49, 1, 'VIP')]);
    const res = await openStream(
      `${await app.getUrl()}/api/organizer/events/${EVENT}/live`,
      cookie,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store, private');
    expect(res.headers['x-accel-buffering']).toBe('no');
    const messages = sseMessages(res);
    try {
      const first = organizerEventSchema.parse(await messages.next(5_000));
      expect(first).toMatchObject({ id: EVENT, sold: 1, checkedIn: 0 });

      const checkedAt = Date.now();
      await checkIn(bought.tokens[0]!);
      let update = first;
      while (update.checkedIn === 0) {
        update = organizerEventSchema.parse(await messages.next(5_000 - (Date.now() - checkedAt)));
      }
      expect(Date.now() - checkedAt).toBeLessThan(5_000);
      expect(update.checkedIn).toBe(1);
    } finally {
      await messages.close();
    }
  });
});

describe('the organizer on the demo shop: the organizer code', () => {
  let db: { url: string; drop(): Promise<void> };
  const apps: NestFastifyApplication[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await db.drop();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  async function start(env: NodeJS.ProcessEnv = {}) {
    const { DemoCatalogAdapter } =
      await import('../../src/catalog/adapters/demo-catalog.adapter.js');
    const app = await createTestApp({
      databaseUrl: db.url,
      catalog: new DemoCatalogAdapter(),
      env,
    });
    apps.push(app);
    return app;
  }

  const post = (app: NestFastifyApplication, body: unknown, ip = freshIp()) =>
    inject(app, {
      method: 'POST',
      url: '/api/organizer/session',
      headers: { 'x-forwarded-for': ip, origin: PUBLIC_URL },
      payload: body,
    });

  it('rules "The organizer": ORGANIZER_CODE signs in (case, spaces and dashes do not count); wrong codes lock out, and then the right one is refused alike', async () => {
    const app = await start({ ORGANIZER_CODE: 'Pp8h-Ab6x-Pzdp-5g4f' });
    expect((await inject(app, { method: 'GET', url: '/api/organizer/session' })).json()).toEqual({
      signedIn: false,
      method: 'code',
      name: null,
    });
    const right = await post(app, { code: 'pp8h ab6x pzdp 5g4f' });
    expect(right.statusCode).toBe(204);
    const cookie = right.headers['set-cookie']!.split(';')[0]!;
    expect(cookie).toMatch(/^awhh_organizer=v2\./);
    const session = await inject(app, {
      method: 'GET',
      url: '/api/organizer/session',
      headers: { cookie },
    });
    expect(session.json()).toEqual({ signedIn: true, method: 'code', name: null });

    const ip = freshIp();
    for (let i = 1; i < DOOR_LOCKOUT.maxWrong; i += 1) {
      const res = await post(app, { code: `FALSCH-${i}` }, ip);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Der Veranstaltercode stimmt nicht.');
    }
    const locked = await post(app, { code: 'FALSCH' }, ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    // Locked out, the address's sign-ins are not evaluated: the right code gets the same 429.
    const rightLocked = await post(app, { code: 'Pp8h-Ab6x-Pzdp-5g4f' }, ip);
    expect(rightLocked.statusCode).toBe(429);
    expect(rightLocked.json()).toEqual(locked.json());
    // An account on a site without WooCommerce: the code is asked for, in German.
    const account = await post(app, { username: 'admin', applicationPassword: 'x' });
    expect(account.statusCode).toBe(400);
    expect(account.json().message).toBe('code: Bitte gib den Veranstaltercode ein.');

    // Another code ends every session of the old one.
    const renewed = await start({ ORGANIZER_CODE: 'Awdu-Vtyr-Z93z-7zt3' });
    const stale = await inject(renewed, {
      method: 'GET',
      url: '/api/organizer/events',
      headers: { cookie },
    });
    expect(stale.statusCode).toBe(401);
  });

  it('rules "The organizer": without ORGANIZER_CODE one is generated once, kept in the store and shown beside the test mails only', async () => {
    const app = await start();
    const shown = await inject(app, { method: 'GET', url: '/api/organizer/code' });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store, private');
    const { code } = shown.json() as { code: string };
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){3}$/);
    const second = await start();
    expect((await inject(second, { method: 'GET', url: '/api/organizer/code' })).json()).toEqual({
      code,
    });
    expect((await post(second, { code })).statusCode).toBe(204);
    // Not the door code, which the door staff know.
    const door = (await inject(app, { method: 'GET', url: '/api/mail-test' })).json().checkinCode;
    expect(door).not.toBe(code);
    expect((await post(app, { code: door })).statusCode).toBe(401);

    const configured = await start({ ORGANIZER_CODE: 'Pp8h-Ab6x-Pzdp-5g4f' });
    expect(
      (await inject(configured, { method: 'GET', url: '/api/organizer/code' })).json(),
    ).toEqual({ code: null });
    // Real mail: the mailbox is closed, and with it the code.
    const withSmtp = await start({ SMTP_URL: 'smtp://127.0.0.1:9' });
    const closed = await inject(withSmtp, { method: 'GET', url: '/api/organizer/code' });
    expect(closed.statusCode).toBe(404);
    expect(closed.body).not.toContain(code);
  });
});

function startOfToday(): number {
  return startOfBerlinDay(new Date()).getTime();
}

/**
 * A GET on a connection of its own (node:http, no keep-alive pool), as a browser's
 * EventSource holds one: closing it closes the socket.
 */
function openStream(url: string, cookie: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent: false, headers: { cookie, 'x-forwarded-for': freshIp() } });
    req.once('response', resolve);
    req.once('error', reject);
  });
}

/** Server-sent events of a response, one JSON `data` message at a time. */
function sseMessages(res: IncomingMessage) {
  const chunks: string[] = [];
  let wake: (() => void) | null = null;
  let ended = false;
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    chunks.push(chunk);
    wake?.();
  });
  res.on('close', () => {
    ended = true;
    wake?.();
  });
  let buffer = '';
  return {
    async next(timeoutMs: number): Promise<unknown> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        buffer += chunks.splice(0).join('');
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (data) return JSON.parse(data);
          continue;
        }
        if (ended) throw new Error('the stream ended');
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no message in time');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            wake = null;
            resolve();
          };
        });
      }
    },
    close: async () => {
      res.destroy();
    },
  };
}
