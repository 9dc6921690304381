import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { organizerDoorCodeSchema } from '@awhh/machines';
import { DOOR_CODE_FIXED_MESSAGE } from '../../src/organizer/organizer-extras.controller.js';
import { FOREIGN_ORIGIN_MESSAGE } from '../../src/organizer/organizer.guard.js';
import {
  createTestApp,
  createTestDatabase,
  API_DATABASES,
  FakeCatalog,
  freshIp,
  inject,
  PUBLIC_URL,
} from '../support/checkout-test-app.js';

jest.setTimeout(120_000);

// rules "The organizer": /veranstalter shows the door code and renews it; a renewal in one
// process locks out the old code and every door session in every process at once.

const ORGANIZER_CODE = 'Pp8h-Ab6x-Pzdp-5g4f';

describe.each(API_DATABASES)('the door code on /veranstalter (%s)', (kind) => {
  let db: { url: string; drop(): Promise<void> };
  const apps: NestFastifyApplication[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.drop();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  async function start(env: NodeJS.ProcessEnv = {}) {
    const app = await createTestApp({
      databaseUrl: db.url,
      catalog: new FakeCatalog(),
      env: { ORGANIZER_CODE, ...env },
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

  const organizer = (
    app: NestFastifyApplication,
    method: string,
    cookie: string | null,
    origin: string | null = PUBLIC_URL,
  ) =>
    inject(app, {
      method,
      url: '/api/organizer/door-code',
      headers: {
        'x-forwarded-for': freshIp(),
        ...(cookie ? { cookie } : {}),
        ...(origin ? { origin } : {}),
      },
    });

  const door = (app: NestFastifyApplication, method: string, url: string, bearer: string) =>
    inject(app, {
      method,
      url,
      headers: { authorization: `Bearer ${bearer}`, 'x-forwarded-for': freshIp() },
    });

  it('rules "The organizer": the organizer sees the door code; "Türcode erneuern" ends the old code and every door session at once, in every process', async () => {
    const site = await start();
    const other = await start();
    const cookie = await signIn(site);

    expect((await organizer(site, 'GET', null)).statusCode).toBe(401);
    const shown = await organizer(site, 'GET', cookie);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store, private');
    const before = organizerDoorCodeSchema.parse(shown.json());
    expect(before.renewable).toBe(true);
    expect(before.code).toBe(
      (await inject(site, { method: 'GET', url: '/api/mail-test' })).json().checkinCode,
    );

    // A door phone unlocked with the code, its session served by either process.
    const unlocked = await door(site, 'POST', '/api/checkin/session', before.code);
    expect(unlocked.statusCode).toBe(201);
    const session = unlocked.json().token as string;
    expect((await door(site, 'GET', '/api/checkin/events', session)).statusCode).toBe(200);
    expect((await door(other, 'GET', '/api/checkin/events', session)).statusCode).toBe(200);

    // Only from the site's own pages.
    const foreign = await organizer(site, 'POST', cookie, 'https://evil.example');
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe(FOREIGN_ORIGIN_MESSAGE);
    expect((await organizer(site, 'POST', null)).statusCode).toBe(401);

    const renewed = await organizer(site, 'POST', cookie);
    expect(renewed.statusCode).toBe(200);
    const after = organizerDoorCodeSchema.parse(renewed.json());
    expect(after.renewable).toBe(true);
    expect(after.code).not.toBe(before.code);
    expect(after.code).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){3}$/);

    // The old session and the old code are refused by both processes; the new code works.
    for (const app of [site, other]) {
      const stale = await door(app, 'GET', '/api/checkin/events', session);
      expect(stale.statusCode).toBe(401);
      expect(stale.json().message).toMatch(/Türcode erneut/);
      expect((await door(app, 'GET', '/api/checkin/events', before.code)).statusCode).toBe(401);
      expect((await door(app, 'GET', '/api/checkin/events', after.code)).statusCode).toBe(200);
      expect(organizerDoorCodeSchema.parse((await organizer(app, 'GET', cookie)).json())).toEqual(
        after,
      );
    }
    expect((await inject(other, { method: 'GET', url: '/api/mail-test' })).json().checkinCode).toBe(
      after.code,
    );
    // A process started later keeps the renewed code.
    const later = await start();
    expect((await door(later, 'GET', '/api/checkin/events', after.code)).statusCode).toBe(200);
  });

  it('rules "The organizer": with CHECKIN_CODE the code is shown and cannot be renewed here', async () => {
    const app = await start({ CHECKIN_CODE: '28yr-6e4n-Pqqf-7pfd' });
    const cookie = await signIn(app);
    expect((await organizer(app, 'GET', cookie)).json()).toEqual({
      code: '28yr-6e4n-Pqqf-7pfd',
      renewable: false,
    });
    const refused = await organizer(app, 'POST', cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: DOOR_CODE_FIXED_MESSAGE,
    });
    expect((await door(app, 'GET', '/api/checkin/events', '28yr-6e4n-Pqqf-7pfd')).statusCode).toBe(
      200,
    );
  });
});
