import { execFile } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { REPO_ROOT, startSite, type RunningSite } from '../support/site.js';

/**
 * rules "The organizer" as an attacker with a stolen cookie or a copy of the store meets
 * it, on the built `npm start` process: a cookie signed out is refused wherever it is
 * replayed, and neither a backup's rows nor its settings make a cookie the site accepts.
 */

jest.setTimeout(90_000);

const CODE = 'Vq7m-Xk3t-9Wrb-P4nh';
const BACKUP_CLI = join(REPO_ROOT, 'backend', 'dist', 'backup.cli.js');

let site: RunningSite;
let backupDir: string;

beforeAll(async () => {
  site = await startSite({ ORGANIZER_CODE: CODE });
  backupDir = mkdtempSync(join(tmpdir(), 'awhh-backup-'));
});

afterAll(async () => {
  await site?.stop();
  rmSync(backupDir, { recursive: true, force: true });
});

async function signIn(): Promise<string> {
  const res = await fetch(`${site.url}/api/organizer/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site.url },
    body: JSON.stringify({ code: CODE }),
  });
  expect(res.status).toBe(204);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

function events(cookie: string) {
  return fetch(`${site.url}/api/organizer/events`, { headers: { cookie } });
}

it('a signed-out cookie is refused: signing out ends the session, not just the browser’s copy', async () => {
  const cookie = await signIn();
  expect((await events(cookie)).status).toBe(200);
  const out = await fetch(`${site.url}/api/organizer/session`, {
    method: 'DELETE',
    headers: { cookie, origin: site.url },
  });
  expect(out.status).toBe(204);
  // The attacker kept a copy of the cookie.
  const replayed = await events(cookie);
  expect(replayed.status).toBe(401);
  expect(((await replayed.json()) as { message: string }).message).toMatch(/Bitte melde dich/);
});

it('a session minted from a backup is refused: the store holds no cookie and no key to sign one', async () => {
  const live = await signIn();
  const { stdout } = await promisify(execFile)(process.execPath, [BACKUP_CLI], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: `sqlite:${join(site.dataDir, 'awhh.db')}`,
      BACKUP_DIR: backupDir,
    },
  });
  expect(stdout).toMatch(/awhh-/);
  const [file] = readdirSync(backupDir).filter((f) => f.endsWith('.sqlite'));
  const path = join(backupDir, file!);
  const raw = readFileSync(path);
  // The live cookie's secret is nowhere in the copy.
  expect(raw.includes(Buffer.from(live.split('=')[1]!.slice(3)))).toBe(false);

  const backup = new SqliteDatabase(path, { readonly: true });
  const sessions = backup.prepare('select * from organizer_sessions').all() as {
    id_hash: string;
    expires_at: number;
  }[];
  const settings = backup.prepare('select key, value from settings').all() as {
    key: string;
    value: string;
  }[];
  backup.close();
  expect(sessions.length).toBeGreaterThan(0);
  expect(settings.map((s) => s.key)).not.toContain('organizer-session-key');

  const forged: string[] = [];
  // What the store keeps of a session, tried as the cookie's secret.
  for (const row of sessions) forged.push(`awhh_organizer=v2.${row.id_hash}`);
  // The signed sessions of before: every stored setting tried as their key, with the
  // code's digest (the strongest attacker knows the code, and still has no session).
  const digest = createHash('sha256')
    .update(CODE.replace(/[\s-]+/g, '').toUpperCase())
    .digest();
  for (const { value } of settings) {
    const key = createHmac('sha256', Buffer.from(value, 'base64url')).update(digest).digest();
    const id = 'QUJDREVGR0hJSktMTU5PUA';
    const expires = Date.now() + 3_600_000;
    const mac = createHmac('sha256', key)
      .update(`organizer.code.${id}.${expires}.`)
      .digest('base64url');
    forged.push(`awhh_organizer=v1.code.${id}.${expires}..${mac}`);
  }
  for (const cookie of forged) expect((await events(cookie)).status).toBe(401);
  // The real session still works: the forgeries were refused for what they are.
  expect((await events(live)).status).toBe(200);
});
