import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/site.js';

// The two loops compose runs for ops: the nightly backup (backend/backup-nightly.sh) and
// certbot's (the letsencrypt profile's command). Run here with `sleep`, `node` and
// `certbot` replaced by stubs that log their arguments; the second `sleep` ends the loop.

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'awhh-schedules-'));
  // Each stub logs its name and arguments; `sleep` stops the loop (its parent) the 2nd time.
  const stub = (name: string, body: string) => {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\necho "${name} $*" >> "${dir}/calls"\n${body}\n`);
    chmodSync(file, 0o755);
  };
  stub('sleep', `n=$(grep -c '^sleep' "${dir}/calls"); [ "$n" -ge 2 ] && kill -TERM $PPID; exit 0`);
  stub('node', 'exit "${STUB_EXIT:-0}"');
  stub('certbot', 'exit "${STUB_EXIT:-0}"');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a loop script with the stubs first on PATH and its /tmp/ marker in `dir`. */
function runLoop(script: string, env: Record<string, string>) {
  const file = join(dir, 'loop.sh');
  writeFileSync(file, script.replace(/\/tmp\/(\w+\.failed)/g, `${dir}/$1`));
  const res = spawnSync('sh', [file], {
    encoding: 'utf8',
    env: { PATH: `${dir}:${process.env.PATH}`, ...env },
    timeout: 10_000,
  });
  const calls = existsSync(join(dir, 'calls'))
    ? readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n')
    : [];
  return { res, calls };
}

describe('the nightly backup loop (backend/backup-nightly.sh)', () => {
  const script = readFileSync(join(REPO_ROOT, 'backend', 'backup-nightly.sh'), 'utf8');

  it('sleeps until BACKUP_AT in TZ, runs the backup CLI, then waits for the next night', () => {
    const now = Math.floor(Date.now() / 1000);
    const { calls } = runLoop(script, { BACKUP_AT: '03:15', TZ: 'Europe/Berlin' });
    expect(calls[1]).toBe('node /app/backend/dist/backup.cli.js');
    const wait = Number(calls[0]!.split(' ')[1]);
    // The stubbed sleep returns at once: the next wait aims at the same night's time.
    expect(calls[2]).toMatch(/^sleep \d+$/);
    expect(Math.abs(Number(calls[2]!.split(' ')[1]) - wait)).toBeLessThanOrEqual(2);
    // The next 03:15 in Berlin, never more than a day ahead.
    const next = new Date((now + wait) * 1000);
    const berlin = new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
    }).format(next);
    expect(berlin).toBe('03:15');
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(25 * 3600);
    expect(existsSync(join(dir, 'backup.failed'))).toBe(false);
  });

  it('marks a failed run for the healthcheck until a run succeeds', () => {
    runLoop(script, { BACKUP_AT: '03:15', TZ: 'Europe/Berlin', STUB_EXIT: '1' });
    expect(readFileSync(join(dir, 'backup.failed'), 'utf8')).toMatch(/^\d{4}-\d\d-\d\dT/);
    rmSync(join(dir, 'calls'));
    runLoop(script, { BACKUP_AT: '03:15', TZ: 'Europe/Berlin' });
    expect(existsSync(join(dir, 'backup.failed'))).toBe(false);
  });

  it('refuses a BACKUP_AT that is no HH:MM', () => {
    const { res, calls } = runLoop(script, { BACKUP_AT: '3 Uhr' });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('BACKUP_AT must be HH:MM');
    expect(calls).toEqual([]);
  });
});

describe('certbot in the letsencrypt profile (docker-compose.yml)', () => {
  const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), {
    merge: true,
  }) as { services: Record<string, { command: string[] }> };
  // What compose hands the shell: `$$` in the file is a literal `$`.
  const script = compose.services.certbot!.command[0]!.replaceAll('$$', '$');
  const env = { DOMAIN: 'afterwork.example', ACME_EMAIL: 'ops@afterwork.example' };
  const VOLUMES = 'for dir in /etc/letsencrypt /var/www/certbot; do';

  /** The loop with its two volumes' write check pointed at directories of the test's own. */
  function withVolumes(loop: string, made = true): string {
    const volumes = [join(dir, 'letsencrypt'), join(dir, 'webroot')];
    if (made) for (const volume of volumes) mkdirSync(volume, { recursive: true });
    expect(loop).toContain(VOLUMES);
    return loop.replace(VOLUMES, `for dir in ${volumes.join(' ')}; do`);
  }

  it('asks for the first certificate by HTTP-01 webroot, then tries again in 12 hours', () => {
    const { calls } = runLoop(withVolumes(script), env);
    expect(calls[0]).toBe(
      'certbot certonly --config-dir /etc/letsencrypt --work-dir /var/lib/letsencrypt --logs-dir /var/log/letsencrypt --webroot -w /var/www/certbot --cert-name afterwork.example -d afterwork.example --email ops@afterwork.example --agree-tos --no-eff-email --non-interactive',
    );
    expect(calls[1]).toBe('sleep 43200');
    expect(existsSync(join(dir, 'certbot.failed'))).toBe(false);
  });

  it('renews once the certificate is there', () => {
    const live = script.replaceAll('/etc/letsencrypt/live/', `${dir}/live/`);
    spawnSync('mkdir', ['-p', join(dir, 'live', env.DOMAIN)]);
    writeFileSync(join(dir, 'live', env.DOMAIN, 'fullchain.pem'), '');
    const { calls } = runLoop(withVolumes(live), env);
    expect(calls[0]).toMatch(
      /^certbot renew .* --webroot -w \/var\/www\/certbot --non-interactive$/,
    );
    expect(calls[1]).toBe('sleep 43200');
  });

  it('retries a failed attempt after an hour and marks it for the healthcheck', () => {
    const { calls } = runLoop(withVolumes(script), { ...env, STUB_EXIT: '1' });
    expect(calls[1]).toBe('sleep 3600');
    expect(existsSync(join(dir, 'certbot.failed'))).toBe(true);
  });

  it('says which volume it cannot write, instead of a lock error of certbot', () => {
    const { res, calls } = runLoop(withVolumes(script, false), env);
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(
      /letsencrypt is not writable by uid \d+; chown the volume to 101:101/,
    );
    expect(calls).toEqual([]);
  });

  it('refuses to start without DOMAIN and ACME_EMAIL', () => {
    const { res, calls } = runLoop(script, { DOMAIN: 'afterwork.example' });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('set DOMAIN and ACME_EMAIL');
    expect(calls).toEqual([]);
  });
});
