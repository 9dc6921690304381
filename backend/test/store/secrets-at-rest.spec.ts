import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { StoreDatabase } from '../../src/store/store.database.js';
import {
  buyerForm,
  checkoutBody,
  createTestApp,
  createTestDatabase,
  FakeCatalog,
  inject,
  line,
  postCheckout,
} from '../support/checkout-test-app.js';

// What the store keeps for every process (a generated ticket signing key, the door code,
// the keys of door sessions and client hashes) is never answered by any endpoint: the
// test walks every GET route the process serves, with real ids and tokens in its
// parameters and the door code presented, and looks for each secret in every answer.

interface Route {
  path: string;
  methods: string[];
}

/** Every route with its methods, read from Fastify's route tree. */
function routesOf(app: NestFastifyApplication): Route[] {
  const tree = app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false });
  const parents: string[] = [];
  const routes: Route[] = [];
  for (const row of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(row);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    parents.length = depth;
    const path = parents.join('') + match[2]!;
    parents.push(match[2]!);
    if (match[3]) routes.push({ path, methods: match[3].split(', ') });
  }
  return routes;
}

/** The forms a stored secret could leak in: as stored, without separators, a key's parts. */
function leakForms(value: string): string[] {
  const forms = [value, value.replace(/[\s-]+/g, '')];
  if (value.includes('PRIVATE KEY')) {
    const jwk = createPrivateKey(value).export({ format: 'jwk' });
    if (jwk.d) forms.push(jwk.d);
    forms.push(...value.split('\n').filter((l) => l.length >= 16 && !l.startsWith('-----')));
  }
  return forms.filter((f) => f.length >= 8);
}

describe.each([
  ['a test site', {}],
  [
    'production',
    {
      NODE_ENV: 'production',
      PAYMENT_PROVIDER: 'test',
      TICKET_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
    },
  ],
] as const)('secrets kept in the store (%s)', (_name, env) => {
  let app: NestFastifyApplication;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase('sqlite');
    drop = database.drop;
    const catalog = new FakeCatalog();
    catalog.productById(101).meta_data = [
      { key: 'event_date', value: '2099-06-01T18:00:00+02:00' },
    ];
    app = await createTestApp({
      databaseUrl: database.url,
      catalog,
      env: { MODULES: 'all', ...env },
    });
  });

  afterAll(async () => {
    await app.close();
    await drop();
  });

  it('are answered by no GET route', async () => {
    // A paid order, so the routes with ids and tokens find something real.
    const created = await postCheckout(app, checkoutBody([line(101, 25, 1)]));
    expect(created.statusCode).toBe(201);
    const { id: sessionId, url } = created.json() as { id: string; url: string };
    const paid = await inject(app, {
      method: 'POST',
      url: `${new URL(url).pathname}/pay`,
      ...buyerForm(),
    });
    expect(paid.statusCode).toBe(303);
    const summary = (
      await inject(app, { method: 'GET', url: `/api/checkout/session/${sessionId}` })
    ).json();
    const token: string = summary.tickets[0].token;
    const { db } = app.get(StoreDatabase);
    const mail = await db.selectFrom('mails').select('id').executeTakeFirst();

    const settings = await db.selectFrom('settings').select(['key', 'value']).execute();
    const doorCode = settings.find((s) => s.key === 'checkin-code')?.value;
    expect(doorCode).toBeTruthy();
    if (!('TICKET_SIGNING_KEY' in env)) {
      expect(settings.map((s) => s.key)).toContain('ticket-signing-key');
    }
    const secrets = [
      ...settings.map((s) => ({ key: s.key, forms: leakForms(s.value) })),
      ...('TICKET_SIGNING_KEY' in env
        ? [{ key: 'TICKET_SIGNING_KEY', forms: leakForms(env.TICKET_SIGNING_KEY) }]
        : []),
    ];

    const params: Record<string, string> = {
      ':token': token,
      ':id': mail?.id ?? sessionId,
      ':index': '0',
      ':slug': 'afterwork-im-hafen',
      ':eventId': '101',
      ':productId': '101',
      ':sessionId': sessionId,
    };
    const routes = routesOf(app).filter((r) => r.methods.includes('GET'));
    expect(routes.length).toBeGreaterThan(20);
    const leaks: string[] = [];
    for (const route of routes) {
      const paths = [route.path.replace(/:\w+/g, (p) => params[p] ?? 'x')];
      // The checkout session's id is the order's, not a mail's.
      if (route.path === '/api/checkout/session/:id')
        paths[0] = `/api/checkout/session/${sessionId}`;
      for (const path of paths) {
        const res = await inject(app, {
          method: 'GET',
          url: path,
          headers: { authorization: `Bearer ${doorCode}` },
        });
        const answer = `${JSON.stringify(res.headers)}\n${res.body}`.toLowerCase();
        for (const secret of secrets) {
          // A test site shows its generated door code on /mail-test, so testers can open
          // /einlass, and beside it the organizer code for /veranstalter (rules "The
          // organizer"); production never does.
          const shownOnPurpose =
            ((secret.key === 'checkin-code' && route.path === '/api/mail-test') ||
              (secret.key === 'organizer-code' && route.path === '/api/organizer/code')) &&
            !('NODE_ENV' in env);
          if (shownOnPurpose) continue;
          if (secret.forms.some((form) => answer.includes(form.toLowerCase()))) {
            leaks.push(`${secret.key} in GET ${route.path} (${res.statusCode})`);
          }
        }
        expect(answer).not.toContain('private key');
      }
    }
    expect(leaks).toEqual([]);
  });
});
