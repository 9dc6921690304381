import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { freePorts, REPO_ROOT } from '../support/net.js';
import {
  ensureDaemon,
  ensureImages,
  ensurePackages,
  must,
  openLog,
  projectBaseImages,
  run,
  runDir,
  type Daemon,
  type Log,
} from './engine.js';

/**
 * `docker compose up` on a real engine (README "Production", docs/operations.md "Compose on
 * a real engine"): the README's quick start run as written in a copy of the repository,
 * with the project's own docker-compose.yml and Dockerfiles; then every service healthy, the
 * site and a purchase through nginx on the test provider, the scaled API services, a
 * restart without loss, a backup and a restore drill, and `down -v`. The engine and the base
 * images come from engine.ts (stand-ins where no registry answers).
 */

const PROJECT = 'awhh-compose-test';
// Characters `openssl rand -base64` yields and a URL would have to encode, and more.
const POSTGRES_PASSWORD = 'a/b+c=d@e:f%g?h#i j';
const MINUTE = 60_000;

interface Service {
  image?: string;
  build?: unknown;
  profiles?: string[];
}

let log: Log;
let daemon: Daemon | undefined;
let project: string;
let site: string;
const timings: Record<string, number> = {};
const env: NodeJS.ProcessEnv = {};

async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings[name] = Math.round((Date.now() - started) / 1000);
    log.note(`${name}: ${timings[name]} s`);
  }
}

function composeCommand(): string[] {
  const v2 = spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0;
  return v2 ? ['docker', 'compose'] : ['docker-compose'];
}

function compose(args: string[], options: { timeoutMs?: number; input?: string } = {}) {
  const [command, ...rest] = composeCommand();
  return must(log, command!, [...rest, ...args], { cwd: project, env, ...options });
}

/** Polls `check` until it returns a value, or fails after `ms` with what it last saw. */
async function waitFor<T>(
  what: string,
  ms: number,
  check: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${ms / 1000} s${last ? ` (${String(last)})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 2_000));
  }
}

interface Container {
  id: string;
  service: string;
  state: string;
  health: string | null;
}

async function containers(): Promise<Container[]> {
  const ids = (
    await must(log, 'docker', [
      'ps',
      '-aq',
      '--filter',
      `label=com.docker.compose.project=${PROJECT}`,
    ])
  )
    .split('\n')
    .filter(Boolean);
  if (ids.length === 0) return [];
  const out = await must(log, 'docker', [
    'inspect',
    '--format',
    '{{.Id}} {{ index .Config.Labels "com.docker.compose.service" }} {{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}',
    ...ids,
  ]);
  return out
    .trim()
    .split('\n')
    .map((line) => {
      const [id, service, state, health] = line.split(' ');
      return {
        id: id!,
        service: service!,
        state: state!,
        health: health === 'none' ? null : health!,
      };
    });
}

/** Every container of the project running and healthy; the count per service. */
async function allHealthy(ms = 8 * MINUTE): Promise<Record<string, number>> {
  return waitFor('every service healthy', ms, async () => {
    const list = await containers();
    const sick = list.filter((c) => c.state !== 'running' || c.health !== 'healthy');
    if (list.length === 0 || sick.length > 0) {
      throw new Error(sick.map((c) => `${c.service} ${c.state}/${c.health}`).join(', '));
    }
    const counts: Record<string, number> = {};
    for (const c of list) counts[c.service] = (counts[c.service] ?? 0) + 1;
    return counts;
  });
}

async function get(path: string): Promise<Response> {
  return fetch(`${site}${path}`, { signal: AbortSignal.timeout(30_000) });
}

async function psql(database: string, sql: string): Promise<string> {
  const out = await compose([
    'exec',
    '-T',
    'postgres',
    'psql',
    '-U',
    'awhh',
    '-d',
    database,
    '-At',
    '-c',
    sql,
  ]);
  return out.trim();
}

async function rowCounts(database: string): Promise<{ orders: number; tickets: number }> {
  const [orders, tickets] = (
    await psql(
      database,
      "select (select count(*) from orders) || ' ' || (select count(*) from tickets)",
    )
  )
    .split(' ')
    .map(Number);
  return { orders: orders!, tickets: tickets! };
}

/** The README's quick start, the first sh block under "## Production". */
function quickStart(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Production\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md "Production" has no sh block');
  return block;
}

describe('docker compose on a real engine', () => {
  let sessionId: string;
  let before: { orders: number; tickets: number };

  beforeAll(async () => {
    const dir = runDir();
    log = openLog(dir);
    log.note(`log in ${log.file}`);
    await timed('engine', async () => {
      await ensurePackages(log);
      daemon = await ensureDaemon(log, dir);
    });
    // The repository as committed plus what is not ignored: the build context compose sees.
    project = join(dir, 'awhh');
    const files = spawnSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }).stdout.split('\0');
    for (const file of files.filter(Boolean)) {
      mkdirSync(dirname(join(project, file)), { recursive: true });
      try {
        cpSync(join(REPO_ROOT, file), join(project, file));
      } catch {
        // deleted in the work tree, still in the index
      }
    }
    const composeFile = parse(readFileSync(join(project, 'docker-compose.yml'), 'utf8'), {
      merge: true,
    }) as { services: Record<string, Service> };
    const pulled = Object.values(composeFile.services)
      .filter((s) => !s.build && !s.profiles && s.image)
      .map((s) => s.image!);
    const images = await timed('base images', () =>
      ensureImages(log, dir, projectBaseImages(project, pulled)),
    );
    log.note(`base images: ${JSON.stringify(images)}`);

    const [http, https] = await freePorts(2);
    site = `http://127.0.0.1:${http}`;
    // The shell's variables come before .env's: ports of their own beside npm run stack's,
    // and a password no URL could carry unencoded; the quick start's .env stays as written.
    Object.assign(env, process.env, {
      COMPOSE_PROJECT_NAME: PROJECT,
      HTTP_PORT: String(http),
      HTTPS_PORT: String(https),
      PUBLIC_URL: site,
      POSTGRES_PASSWORD,
      MAX_TICKETS_PER_ORDER: '7',
      ORGANIZER_EMAIL: 'orga@example.org',
      WAITLIST_OFFER_HOURS: '6',
      REMINDER_HOURS_BEFORE: '12',
      TICKET_RETURN_FEE_EUR: '1.50',
      TICKET_TRANSFER_UNTIL_HOURS: '3',
    });
    // Leftovers of an aborted run go first.
    await compose(['down', '-v', '--remove-orphans']).catch(() => undefined);
    // `docker compose` where only docker-compose (v1) is installed.
    const shim =
      'docker() { if [ "$1" = compose ] && ! command docker compose version >/dev/null 2>&1; then shift; docker-compose "$@"; else command docker "$@"; fi; }\n';
    await timed('quick start (build, up, scale)', () =>
      must(log, 'bash', ['-euo', 'pipefail', '-c', shim + quickStart()], {
        cwd: project,
        env,
        timeoutMs: 40 * MINUTE,
      }),
    );
  }, 60 * MINUTE);

  afterAll(async () => {
    if (project) await compose(['down', '-v', '--remove-orphans']).catch(() => undefined);
    await daemon?.stop();
    if (log) log.note(`timings (s): ${JSON.stringify(timings)}`);
  }, 5 * MINUTE);

  it(
    'brings every service up healthy, the API services scaled',
    async () => {
      const counts = await timed('healthy', () => allHealthy());
      log.note(`docker compose ps:\n${await compose(['ps'])}`);
      expect(counts).toEqual({ nginx: 1, products: 3, checkout: 2, postgres: 1, backup: 1 });
    },
    10 * MINUTE,
  );

  it(
    'gives every container the settings it reads, the password as it is',
    async () => {
      const printenv = async (service: string) =>
        Object.fromEntries(
          (await compose(['exec', '-T', service, 'printenv']))
            .split('\n')
            .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
        ) as Record<string, string>;
      const checkout = await printenv('checkout');
      const products = await printenv('products');
      expect(checkout.DATABASE_PASSWORD).toBe(POSTGRES_PASSWORD);
      expect(checkout.DATABASE_URL).toBe('postgres://awhh@postgres:5432/awhh');
      for (const name of [
        'MAX_TICKETS_PER_ORDER',
        'ORGANIZER_EMAIL',
        'WAITLIST_OFFER_HOURS',
        'REMINDER_HOURS_BEFORE',
        'TICKET_RETURN_FEE_EUR',
        'TICKET_TRANSFER_UNTIL_HOURS',
      ]) {
        expect([name, checkout[name]]).toEqual([name, env[name]]);
      }
      expect(products.MAX_TICKETS_PER_ORDER).toBe('7');
      expect(checkout.TICKET_SIGNING_KEY).toMatch(/BEGIN PRIVATE KEY/);
      expect(products.TICKET_SIGNING_KEY).toBeUndefined();
      expect(checkout.PAYMENT_PROVIDER).toBe('test');
    },
    5 * MINUTE,
  );

  it(
    'serves the site through nginx, a staging site on the test provider',
    async () => {
      const page = await waitFor('the home page through nginx', 2 * MINUTE, async () => {
        const res = await get('/');
        return res.status === 200 ? res.text() : undefined;
      });
      expect(page).toContain('Testmodus');
      const events = await get('/api/events');
      expect(events.status).toBe(200);
      const ready = await get('/api/health/ready');
      expect(ready.status).toBe(200);
    },
    5 * MINUTE,
  );

  it(
    'sells a ticket through nginx: checkout, payment on the test provider, the order paid',
    async () => {
      const res = await fetch(`${site}/api/checkout/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          line_items: [
            {
              productId: 101,
              name: 'Afterwork auf der Dachterrasse',
              amount: 24.9,
              quantity: 2,
              currency: 'eur',
            },
          ],
          success_url: `${site}/success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${site}/cart`,
          payment_method: 'card',
        }),
      });
      const body = await res.text();
      expect([res.status, body]).toEqual([201, expect.any(String)]);
      const session = JSON.parse(body) as { id: string; url: string };
      sessionId = session.id;
      expect(session.url.startsWith(`${site}/`)).toBe(true);
      const paid = await fetch(`${session.url}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'karla@example.org', name: 'Karla Kundin' }).toString(),
        redirect: 'manual',
      });
      expect(paid.status).toBe(303);
      before = await waitFor(
        'the paid order and its 2 tickets in PostgreSQL',
        2 * MINUTE,
        async () => {
          const counts = await rowCounts('awhh');
          return counts.orders >= 1 && counts.tickets >= 2 ? counts : undefined;
        },
      );
      log.note(`after the purchase: ${JSON.stringify(before)}`);
      const summary = await get(`/api/checkout/session/${sessionId}`);
      expect(summary.status).toBe(200);
    },
    5 * MINUTE,
  );

  it(
    'keeps the order over a restart of every service',
    async () => {
      await timed('restart', async () => {
        await compose(['restart'], { timeoutMs: 5 * MINUTE });
        await allHealthy();
      });
      expect(await rowCounts('awhh')).toEqual(before);
      const summary = await waitFor('the order after the restart', 2 * MINUTE, async () => {
        const res = await get(`/api/checkout/session/${sessionId}`);
        return res.status === 200 ? res.text() : undefined;
      });
      expect(summary).toContain(sessionId);
    },
    12 * MINUTE,
  );

  it(
    'backs up, and a restore drill into a scratch database has the same rows',
    async () => {
      const file = await timed('backup', async () => {
        const out = await compose(['exec', '-T', 'backup', 'node', 'backend/dist/backup.cli.js']);
        // Encrypted (`.pgdump.enc`): compose requires BACKUP_PASSPHRASE.
        return /\/backups\/awhh-\S+\.pgdump(?:\.enc)?/.exec(out)?.[0];
      });
      expect(file).toBeDefined();
      await compose(['exec', '-T', 'postgres', 'createdb', '-U', 'awhh', 'awhh_drill']);
      await timed('restore', () =>
        compose([
          'run',
          '--rm',
          '-e',
          'DATABASE_URL=postgres://awhh@postgres:5432/awhh_drill',
          'backup',
          'node',
          'backend/dist/backup.cli.js',
          'restore',
          file!,
        ]),
      );
      const drill = await rowCounts('awhh_drill');
      log.note(`restore drill: live ${JSON.stringify(before)}, restored ${JSON.stringify(drill)}`);
      expect(drill).toEqual(before);
      await compose(['exec', '-T', 'postgres', 'dropdb', '-U', 'awhh', 'awhh_drill']);
    },
    10 * MINUTE,
  );

  it(
    'leaves certbot’s volumes writable by its uid from the first start',
    async () => {
      for (const [volume, path] of [
        ['letsencrypt', '/etc/letsencrypt'],
        ['acme-webroot', '/var/www/certbot'],
      ]) {
        await must(log, 'docker', [
          'run',
          '--rm',
          '--user',
          '101:101',
          '--entrypoint',
          'sh',
          '-v',
          `${PROJECT}_${volume}:${path}`,
          'awhh-nginx:latest',
          '-c',
          `touch ${path}/.certbot.lock && rm ${path}/.certbot.lock`,
        ]);
      }
    },
    5 * MINUTE,
  );

  it(
    'goes with down -v, volumes and all',
    async () => {
      await compose(['down', '-v', '--remove-orphans'], { timeoutMs: 5 * MINUTE });
      expect(await containers()).toEqual([]);
      const volumes = await run(log, 'docker', [
        'volume',
        'ls',
        '-q',
        '--filter',
        `label=com.docker.compose.project=${PROJECT}`,
      ]);
      expect(volumes.stdout.trim()).toBe('');
    },
    10 * MINUTE,
  );
});
