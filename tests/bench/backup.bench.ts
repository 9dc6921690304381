import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { REPO_ROOT } from '../support/site.js';

/**
 * The backup budgets (docs/operations.md "Betrieb: backups"): a store with 10,000 orders and 20,000
 * tickets is backed up in ≤ 10 s and restored in ≤ 30 s, on SQLite and on PostgreSQL.
 * Timed is the very command ops run, `node backend/dist/backup.cli.js` (what
 * `npm run backup` and `npm run restore` start), process start included, with
 * BACKUP_PASSPHRASE set as the README recommends (and once without, to show what the
 * encryption costs). Beside each figure, in the same run and in turns with it, the
 * reference: the bare tool on the same store (the file copied for SQLite; `pg_dump -Fc`
 * and `pg_restore` for PostgreSQL).
 */

export const BACKUP_BUDGET_MS = 10_000;
export const RESTORE_BUDGET_MS = 30_000;
const ORDERS = Number(process.env.BENCH_BACKUP_ORDERS ?? 10_000);
const SEATS_PER_ORDER = 2;
const PASSPHRASE = 'Bench-Sicherung-Hafenkante-2026';
const CLI = join(REPO_ROOT, 'backend', 'dist', 'backup.cli.js');

const run = promisify(execFile);

export interface BackupRow {
  group: string;
  metric: string;
  runs: number[];
  unit: string;
  budget?: { op: '<=' | '>='; value: number };
}

/** A fresh database of its own on the bench's PostgreSQL, or null when there is none. */
export type PostgresFactory = () => Promise<string | null>;

/** Opens the store once as the site does, so every migration has run on it. */
async function migrate(databaseUrl: string): Promise<void> {
  const script = `
    const { parseDatabaseUrl } = await import(${JSON.stringify(join(REPO_ROOT, 'backend/dist/config/config.js'))});
    const { StoreDatabase } = await import(${JSON.stringify(join(REPO_ROOT, 'backend/dist/store/store.database.js'))});
    await (await StoreDatabase.open(parseDatabaseUrl(process.env.DATABASE_URL))).close();
  `;
  await run(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
}

/**
 * The orders (each handed off to the shop, one line of two seats) and their tickets (named,
 * with short codes, spread over 20 events), written with plain SQL that SQLite and
 * PostgreSQL both take: how they were bought is not what is measured.
 */
function fillSql(orders: number): string {
  const numbers = `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${orders})`;
  const at = '1764000000000 + i * 60000';
  const seats = Array.from({ length: SEATS_PER_ORDER }, (_, k) => `select ${k + 1} as s`).join(
    ' union all ',
  );
  return `
    ${numbers}
    insert into orders (id, session_id, provider, status, email, subtotal, discount, total,
      currency, payment_method, success_url, cancel_url, payment_reference, catalog_order_id,
      created_at, expires_at, paid_at, updated_at, buyer_name, client_key)
    select 'ord_bench_' || i, 'cs_bench_' || i, 'stripe', 'handedOff', 'gast' || i || '@example.org',
      4980, 0, 4980, 'eur', 'card', 'https://afterwork.example/success', 'https://afterwork.example/cart',
      'pi_bench_' || i, 'wc_' || i, ${at}, ${at} + 1800000, ${at} + 90000, ${at} + 90000,
      'Gast Nummer ' || i, 'ck_' || i
    from n;
    ${numbers}
    insert into order_lines (order_id, position, product_id, name, quantity, unit_amount)
    select 'ord_bench_' || i, 0, 101 + i % 20, 'Afterwork im Hafen', ${SEATS_PER_ORDER}, 2490 from n;
    ${numbers}, seat(s) as (${seats})
    insert into tickets (id, order_id, line_position, seat, seats, event_id, event_name,
      event_slug, starts_at, venue, tier, holder, holder_company, status, issued_at, code)
    select 'tkt_bench_' || i || '_' || s, 'ord_bench_' || i, 0, s, ${SEATS_PER_ORDER}, 101 + i % 20,
      'Afterwork im Hafen', 'afterwork-im-hafen', '2026-12-03T18:00:00.000Z', 'Hafenklang, Hamburg',
      'Regulär', 'Gast ' || i || ' Sitz ' || s, 'Elbblick & Partner', 'valid', ${at} + 95000,
      'B' || (i * ${SEATS_PER_ORDER} + s)
    from n, seat;
  `;
}

async function psql(url: string, sqlText: string): Promise<void> {
  await run('psql', ['-v', 'ON_ERROR_STOP=1', '-q', '-d', url, '-c', sqlText], {
    maxBuffer: 16 * 1024 * 1024,
  });
}

async function fill(databaseUrl: string): Promise<void> {
  await migrate(databaseUrl);
  const sqlText = fillSql(ORDERS);
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length));
    try {
      db.transaction(() => db.exec(sqlText))();
      // As a store that has run a while: its WAL checkpointed into the file.
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
  } else {
    await psql(databaseUrl, `begin; ${sqlText} commit; analyze;`);
  }
}

/** ms the command took, start to exit. */
async function timed(file: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  const start = performance.now();
  await run(file, args, { env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 });
  return performance.now() - start;
}

/** The backup file the CLI just wrote into an otherwise empty folder. */
function written(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.startsWith('awhh-'));
  if (files.length !== 1) throw new Error(`expected one backup in ${dir}, found ${files.length}`);
  return join(dir, files[0]!);
}

async function counts(databaseUrl: string): Promise<string> {
  const query = "select (select count(*) from orders) || '/' || (select count(*) from tickets)";
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      return String(db.prepare(query).pluck().get());
    } finally {
      db.close();
    }
  }
  const { stdout } = await run('psql', ['-At', '-d', databaseUrl, '-c', query]);
  return stdout.trim();
}

export async function measureBackup(
  dir: string,
  runs: number,
  postgres: PostgresFactory,
  notes: string[],
): Promise<BackupRow[]> {
  const rows: BackupRow[] = [];
  const expected = `${ORDERS}/${ORDERS * SEATS_PER_ORDER}`;
  const size = `${ORDERS.toLocaleString('en')} orders, ${(ORDERS * SEATS_PER_ORDER).toLocaleString('en')} tickets`;

  for (const kind of ['SQLite', 'PostgreSQL'] as const) {
    const source = kind === 'SQLite' ? `sqlite:${join(dir, 'store.db')}` : await postgres();
    if (!source) {
      notes.push(`backup: no PostgreSQL to measure on`);
      continue;
    }
    await fill(source);
    const filled = await counts(source);
    if (filled !== expected) throw new Error(`${kind} store holds ${filled}, not ${expected}`);

    const figures = {
      backup: [] as number[],
      backupPlain: [] as number[],
      backupRef: [] as number[],
      restore: [] as number[],
      restoreRef: [] as number[],
    };
    let bytes = 0;
    for (let i = 0; i < runs; i += 1) {
      const out = join(dir, `${kind}-${i}`);
      for (const sub of ['enc', 'plain', 'ref']) mkdirSync(join(out, sub), { recursive: true });
      const env = { DATABASE_URL: source, BACKUP_KEEP: '14' };

      // Backup: encrypted, plain, and the bare tool, in turns.
      figures.backup.push(
        await timed(process.execPath, [CLI], {
          ...env,
          BACKUP_DIR: join(out, 'enc'),
          BACKUP_PASSPHRASE: PASSPHRASE,
        }),
      );
      figures.backupPlain.push(
        await timed(process.execPath, [CLI], {
          ...env,
          BACKUP_DIR: join(out, 'plain'),
          BACKUP_PASSPHRASE: '',
        }),
      );
      const reference = join(out, 'ref', kind === 'SQLite' ? 'copy.sqlite' : 'dump.pgdump');
      if (kind === 'SQLite') {
        const start = performance.now();
        copyFileSync(source.slice('sqlite:'.length), reference);
        figures.backupRef.push(performance.now() - start);
      } else {
        figures.backupRef.push(
          await timed('pg_dump', ['-Fc', '--no-owner', '--no-privileges', '-f', reference, source]),
        );
      }
      const encrypted = written(join(out, 'enc'));
      bytes = statSync(written(join(out, 'plain'))).size;

      // Restore of the encrypted backup into an empty store, then the bare tool's.
      const target = kind === 'SQLite' ? `sqlite:${join(out, 'restored.db')}` : await postgres();
      if (!target) throw new Error('no PostgreSQL database for the restore');
      figures.restore.push(
        await timed(process.execPath, [CLI, 'restore', encrypted], {
          DATABASE_URL: target,
          BACKUP_PASSPHRASE: PASSPHRASE,
        }),
      );
      const restored = await counts(target);
      if (restored !== expected) throw new Error(`restored ${kind} store holds ${restored}`);
      if (kind === 'SQLite') {
        const start = performance.now();
        copyFileSync(reference, join(out, 'ref', 'restored.db'));
        figures.restoreRef.push(performance.now() - start);
      } else {
        const bare = await postgres();
        if (!bare) throw new Error('no PostgreSQL database for the reference restore');
        figures.restoreRef.push(
          await timed('pg_restore', [
            '--no-owner',
            '--no-privileges',
            '--exit-on-error',
            '--single-transaction',
            '-d',
            bare,
            reference,
          ]),
        );
      }
      rmSync(out, { recursive: true, force: true });
    }

    const bare = kind === 'SQLite' ? 'the file copied' : 'pg_dump -Fc alone';
    const group = `backup ${kind}`;
    rows.push({ group, metric: `store of ${size}, backup file`, runs: [bytes], unit: 'B' });
    rows.push({
      group,
      metric: 'npm run backup, encrypted (CLI, process start included)',
      runs: figures.backup,
      unit: 'ms',
      budget: { op: '<=', value: BACKUP_BUDGET_MS },
    });
    rows.push({
      group,
      metric: 'npm run backup, unencrypted',
      runs: figures.backupPlain,
      unit: 'ms',
    });
    rows.push({ group, metric: `reference: ${bare}`, runs: figures.backupRef, unit: 'ms' });
    rows.push({
      group,
      metric: 'npm run restore of it, migrations included',
      runs: figures.restore,
      unit: 'ms',
      budget: { op: '<=', value: RESTORE_BUDGET_MS },
    });
    rows.push({
      group,
      metric: `reference: ${kind === 'SQLite' ? 'the file copied back' : 'pg_restore alone'}`,
      runs: figures.restoreRef,
      unit: 'ms',
    });
  }
  return rows;
}
