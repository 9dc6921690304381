import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../support/site.js';

/**
 * A PostgreSQL cluster of its own (initdb + pg_ctl, as the postgres user, on a free port),
 * so a test can restart the server without disturbing the machine's main one on 5432.
 */
export interface ThrowawayPostgres {
  url: string;
  /** Asynchronous, so the test's own traffic keeps flowing meanwhile. */
  restart: () => Promise<void>;
  stop: () => void;
}

function binDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/** Why a throwaway cluster cannot be made here, or null when it can. */
export function postgresUnavailable(): string | null {
  if (!binDir()) return 'initdb not found under /usr/lib/postgresql/*/bin';
  if (process.getuid?.() !== 0) return 'needs root to run initdb as the postgres user';
  try {
    execFileSync('id', ['postgres'], { stdio: 'ignore' });
  } catch {
    return 'there is no postgres user';
  }
  return null;
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = binDir()!;
  const dir = mkdtempSync(join(tmpdir(), 'awhh-pg-'));
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(dir, uid, gid);
  const data = join(dir, 'data');
  const port = await freePort();
  const asPostgres = (cmd: string, args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], {
      stdio: 'pipe',
      timeout: 60_000,
      cwd: dir,
    });
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  // fsync off: the test is about restarts of the server, not the disk.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const ctl = (...args: string[]) =>
    asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', ...args]);
  ctl('start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: async () => {
      await promisify(execFile)(
        'runuser',
        [
          '-u',
          'postgres',
          '--',
          join(bin, 'pg_ctl'),
          '-D',
          data,
          '-o',
          options,
          '-l',
          join(dir, 'server.log'),
          '-w',
          '-m',
          'fast',
          'restart',
        ],
        { cwd: dir, timeout: 60_000 },
      );
    },
    stop: () => {
      try {
        ctl('-m', 'immediate', 'stop');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
