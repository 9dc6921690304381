import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { clientHeaders } from '../fault/support/backend-process.js';
import { REPO_ROOT, type RunningSite, startSite } from '../support/site.js';

/**
 * Every route that takes a body answers the body's own faults (too large, not JSON, broken
 * JSON, empty) with the API's German `{statusCode, error, message}`, in the mode `npm start`
 * runs: one process serving the pages and both modules. The routes are read from Fastify's
 * own table of the same build and configuration, so a route added later is walked too.
 */

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Builds the app as backend/dist/main.js does (same adapter, modules and set-up, the built
 * pages included) in a child process, records every route Fastify adds, and closes again.
 */
const ROUTE_TABLE = `
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { pathToFileURL } from 'node:url';
const load = (path) => import(pathToFileURL(process.env.AWHH_DIST + '/' + path).href);
const { AppModule } = await load('app.module.js');
const { configureApp, createFastifyAdapter, nestAppOptions } = await load('app.factory.js');
const { AppConfig } = await load('config/config.js');
const config = AppConfig.fromEnv();
const adapter = createFastifyAdapter(config);
const routes = [];
adapter.getInstance().addHook('onRoute', (route) => {
  for (const method of [route.method].flat()) routes.push({ method, path: route.url });
});
const app = await NestFactory.create(AppModule.forRoot(config), adapter, nestAppOptions(config));
await configureApp(app, config, { accessLog: false });
console.log('ROUTES ' + JSON.stringify(routes));
await app.close();
process.exit(0);
`;

async function routeTable(dataDir: string): Promise<Array<{ method: string; path: string }>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', ROUTE_TABLE],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        AWHH_DIST: join(REPO_ROOT, 'backend', 'dist'),
        DATABASE_URL: `sqlite:${join(dataDir, 'routes.db')}`,
        STATIC_DIR: join(REPO_ROOT, 'frontend', 'dist'),
        LOG_LEVEL: 'error',
        WOOCOMMERCE_URL: '',
        STRIPE_SECRET_KEY: '',
      },
      maxBuffer: 4 * 1024 * 1024,
    },
  );
  const line = stdout.split('\n').find((l) => l.startsWith('ROUTES '));
  if (!line) throw new Error(`no route table in:\n${stdout}`);
  return JSON.parse(line.slice('ROUTES '.length)) as Array<{ method: string; path: string }>;
}

let site: RunningSite;
let routes: Array<{ method: string; path: string }>;

beforeAll(async () => {
  // A trusted loopback proxy lets each request come from its own address (clientHeaders),
  // below every rate limit.
  site = await startSite({ TRUST_PROXY: 'loopback' });
  routes = (await routeTable(site.dataDir)).filter((route) => BODY_METHODS.has(route.method));
});

afterAll(async () => {
  await site?.stop();
});

/** A route's path with its parameters filled in; the body is refused before any handler runs. */
const concrete = (path: string) => path.replace(/:\w+/g, 'x');

// Above every route's limit: the general one is 100 KB, the door's offline sync takes 512 KB.
const TOO_LARGE = JSON.stringify({ text: 'x'.repeat(600 * 1024) });

const FAULTS = [
  {
    what: 'a body over every limit',
    contentType: 'application/json',
    body: TOO_LARGE,
    status: 413,
    message: 'Der Inhalt der Anfrage ist zu groß.',
  },
  {
    what: 'XML',
    contentType: 'application/xml',
    body: '<order><quantity>99</quantity></order>',
    status: 415,
    message: 'Dieses Format nehmen wir nicht an. Bitte sende JSON.',
  },
  {
    what: 'broken JSON',
    contentType: 'application/json',
    body: '{"email": "a@example.org",',
    status: 400,
    message: 'Der Inhalt der Anfrage ist kein gültiges JSON.',
  },
  {
    what: 'an empty JSON body',
    contentType: 'application/json',
    body: '',
    status: 400,
    message: 'Der Inhalt der Anfrage ist kein gültiges JSON.',
  },
] as const;

describe('hostile: German errors on every route that takes a body (npm start)', () => {
  it('reads the route table of the same build', () => {
    const names = routes.map((r) => `${r.method} ${r.path}`);
    // The routes this suite was written against; any others the process maps are walked too.
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /api/coupons/validate',
        'POST /api/checkout/session',
        'POST /api/checkout/webhook',
        'POST /api/contact',
        'POST /api/tickets/resend',
        'POST /api/waitlist',
        'POST /api/waitlist/confirm/:token',
        'POST /api/waitlist/offers/:token/decline',
        'POST /api/waitlist/unsubscribe/:token',
        'POST /api/checkin/scans',
      ]),
    );
  });

  it.each(FAULTS)('answers $what with $status and a German message', async (fault) => {
    const answers = [];
    for (const route of routes) {
      const res = await fetch(site.url + concrete(route.path), {
        method: route.method,
        headers: { 'content-type': fault.contentType, ...clientHeaders() },
        body: fault.body,
      });
      const text = await res.text();
      let body: unknown = text.slice(0, 200);
      try {
        body = JSON.parse(text);
      } catch {
        // Compared below as the text it is.
      }
      answers.push({ route: `${route.method} ${route.path}`, status: res.status, body });
    }
    // Exactly the three fields: Fastify's own answer adds an English `code` and message.
    expect(answers).toEqual(
      routes.map((route) => ({
        route: `${route.method} ${route.path}`,
        status: fault.status,
        body: { statusCode: fault.status, error: expect.any(String), message: fault.message },
      })),
    );
  });
});
