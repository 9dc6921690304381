import { execFile, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, REPO_ROOT, startSite, type RunningSite } from '../support/site.js';

/**
 * The door (/einlass) as an attacker on the venue's Wi-Fi meets it: the built process as
 * `npm start` runs it, with its default proxy setting (none). Rotating X-Forwarded-For buys
 * no extra guesses at the door code, nobody's wrong codes lock the staff out, and a
 * production process never prints its generated code.
 */

jest.setTimeout(60_000);

const CODE = 'Hafen-Tuer-7Q4M';
const MAIN = join(REPO_ROOT, 'backend', 'dist', 'main.js');
const CLI = join(REPO_ROOT, 'backend', 'dist', 'door-code.cli.js');
const GROUPED_CODE = /[2-9A-HJKMNP-Z]{4}(?:-[2-9A-HJKMNP-Z]{4}){3}/;

let site: RunningSite;

beforeAll(async () => {
  // TRUST_PROXY unset, as in `npm start`: the suites' loopback-proxy default is taken away.
  site = await startSite({ CHECKIN_CODE: CODE, TRUST_PROXY: '' });
});

afterAll(async () => {
  await site?.stop();
});

function door(path: string, code: string | null, init: RequestInit & { ip?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (code !== null) headers.authorization = `Bearer ${code}`;
  if (init.ip) headers['x-forwarded-for'] = init.ip;
  return fetch(`${site.url}${path}`, { ...init, headers });
}

describe('the door code against guessing and lock-outs (npm start)', () => {
  it('a rotating X-Forwarded-For gives no extra guesses: the sixth wrong code is a 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const res = await door('/api/checkin/events', `FALSCH-${i}-AB12CD`, {
        ip: `198.51.100.${i + 1}`,
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.slice(4)).toEqual([429, 429, 429, 429]);
  });

  it('from that locked-out address the right code still unlocks, and its door session works', async () => {
    expect((await door('/api/checkin/events', 'FALSCH-X-AB12CD')).status).toBe(429);
    expect((await door('/api/checkin/events', CODE)).status).toBe(200);

    const created = await door('/api/checkin/session', CODE, { method: 'POST' });
    expect(created.status).toBe(201);
    const session = (await created.json()) as { token: string; expiresAt: string };
    expect(Date.parse(session.expiresAt)).toBeGreaterThan(Date.now() + 24 * 3_600_000);
    expect(Date.parse(session.expiresAt)).toBeLessThanOrEqual(Date.now() + 48 * 3_600_000);
    const synced = await door('/api/checkin/scans', session.token, {
      method: 'POST',
      body: JSON.stringify({ scans: [] }),
    });
    expect(synced.status).toBe(200);
    expect(await synced.json()).toEqual({ results: [] });

    // The session is for the door only: no new session from it, no ticket either.
    expect((await door('/api/checkin/session', session.token, { method: 'POST' })).status).toBe(
      401,
    );
    const asTicket = await fetch(`${site.url}/api/tickets/${encodeURIComponent(session.token)}`);
    expect(asTicket.status).toBe(404);
    // Wrong codes from here are still refused.
    expect((await door('/api/checkin/events', 'FALSCH-Y-AB12CD')).status).toBe(429);
  });

  it('the generated code is printed outside production only; npm run door-code reads it', async () => {
    const signingKey = generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const dataDir = mkdtempSync(join(tmpdir(), 'awhh-door-code-'));
    const databaseUrl = `sqlite:${join(dataDir, 'awhh.db')}`;
    try {
      const production = await startSite({
        NODE_ENV: 'production',
        PAYMENT_PROVIDER: 'test',
        TICKET_SIGNING_KEY: signingKey,
        DATABASE_URL: databaseUrl,
        CHECKIN_CODE: '',
        LOG_LEVEL: 'info',
      });
      const productionLog = production.logs();
      const mailTest = await (await fetch(`${production.url}/api/mail-test`)).text();
      await production.stop();
      expect(productionLog).toMatch(/npm run door-code/);
      expect(productionLog).not.toMatch(GROUPED_CODE);
      expect(mailTest).not.toMatch(GROUPED_CODE);

      const { stdout } = await promisify(execFile)(process.execPath, [CLI], {
        cwd: REPO_ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl, CHECKIN_CODE: '' },
      });
      const code = GROUPED_CODE.exec(stdout)?.[0];
      expect(code).toBeDefined();

      // The same store outside production: the start-up line shows that very code.
      const trying = await startSite({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' });
      const tryingLog = trying.logs();
      const unlocked = await fetch(`${trying.url}/api/checkin/events`, {
        headers: { authorization: `Bearer ${code}` },
      });
      await trying.stop();
      expect(tryingLog).toContain(
        `Türcode für /einlass (door code; set CHECKIN_CODE to choose one): ${code}`,
      );
      expect(unlocked.status).toBe(200);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('CHECKIN_CODE=EINLASS-2026 is refused at start-up, without echoing it', async () => {
    const child = spawn(process.execPath, [MAIN], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
        DATABASE_URL: 'sqlite::memory:',
        STATIC_DIR: 'off',
        CHECKIN_CODE: 'EINLASS-2026',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const exitCode = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    clearTimeout(timer);
    expect(exitCode).toBe(1);
    expect(output).toMatch(/Invalid configuration: CHECKIN_CODE must have at least 12 characters/);
    expect(output).not.toContain('EINLASS-2026');
    expect(output).not.toMatch(/listening on/);
  });
});
