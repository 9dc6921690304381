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
 * no extra guesses at the door code, a locked-out address is not evaluated at all (the
 * right code gets the 429 a wrong one gets), a phone signed in before keeps working, weak
 * configured codes are refused at start, and a production process never prints its
 * generated code.
 */

jest.setTimeout(60_000);

const CODE = 'H2mn-26ed-Pq7u-Qy74';
const MAIN = join(REPO_ROOT, 'backend', 'dist', 'main.js');
const CLI = join(REPO_ROOT, 'backend', 'dist', 'door-code.cli.js');
const GROUPED_CODE = /[2-9A-HJKMNP-Z]{4}(?:-[2-9A-HJKMNP-Z]{4}){3}/;

let site: RunningSite;
/** The staff's phone, signed in before anybody guessed. */
let created: Response;

beforeAll(async () => {
  // TRUST_PROXY unset, as in `npm start`: the suites' loopback-proxy default is taken away.
  site = await startSite({ CHECKIN_CODE: CODE, TRUST_PROXY: '' });
  created = await door('/api/checkin/session', CODE, { method: 'POST' });
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

  it('from that locked-out address the right code gets the same 429 as a wrong one; a door session made before still works', async () => {
    // The staff's phone signed in before the guessing (beforeAll) …
    expect(created.status).toBe(201);
    const session = (await created.json()) as { token: string; expiresAt: string };
    expect(Date.parse(session.expiresAt)).toBeGreaterThan(Date.now() + 24 * 3_600_000);
    expect(Date.parse(session.expiresAt)).toBeLessThanOrEqual(Date.now() + 48 * 3_600_000);

    // … the address that guessed (TRUST_PROXY unset: the socket's, whatever the header) is
    // locked out, and the right code from it is not even compared.
    const wrong = await door('/api/checkin/events', 'FALSCH-X-AB12CD');
    const right = await door('/api/checkin/events', CODE);
    expect(wrong.status).toBe(429);
    expect(right.status).toBe(429);
    expect(await right.json()).toEqual(await wrong.json());
    expect((await door('/api/checkin/session', CODE, { method: 'POST' })).status).toBe(429);

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
  });

  it('200 guesses: every one past the limit is refused, the right one among them too', async () => {
    const guesser = await startSite({ CHECKIN_CODE: CODE });
    try {
      const ip = '2001:db8:4711:1::1';
      const statuses: number[] = [];
      for (let i = 0; i < 200; i += 1) {
        // The interface part rotates, the /64 stays: one client.
        const res = await fetch(`${guesser.url}/api/checkin/events`, {
          headers: {
            authorization: `Bearer ${i === 150 ? CODE : `RATEN-${i}-7K2M9QX4`}`,
            'x-forwarded-for': ip.replace(/1$/, (i + 1).toString(16)),
          },
        });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
      expect(statuses.slice(4)).toEqual(Array<number>(196).fill(429));
    } finally {
      await guesser.stop();
    }
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

  it.each([
    ['CHECKIN_CODE', 'EINLASS-2026'],
    ['CHECKIN_CODE', 'aaaaaaaaaaa1'],
    ['CHECKIN_CODE', 'Sommerfest2026'],
    ['ORGANIZER_CODE', 'Sommerfest-2026-Hamburg'],
  ])(
    '%s=%s is refused at start-up, in English and German, without echoing it',
    async (name, weak) => {
      const child = spawn(process.execPath, [MAIN], {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          PORT: String(await freePort()),
          HOST: '127.0.0.1',
          DATABASE_URL: 'sqlite::memory:',
          STATIC_DIR: 'off',
          [name]: weak,
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
      expect(output).toMatch(new RegExp(`Invalid configuration: ${name} is too weak`));
      expect(output).toMatch(/Der Code ist zu schwach/);
      expect(output).not.toContain(weak);
      expect(output).not.toMatch(/listening on/);
    },
  );
});
