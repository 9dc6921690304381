import { execFile } from 'node:child_process';
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import type { BackupConfig, DatabaseConfig } from '../config/config.js';
import { StoreDatabase } from './store.database.js';

// Backups of the store (docs/operations.md "Betrieb"): a consistent copy made while the site runs
// (SQLite's online backup API, PostgreSQL's `pg_dump -Fc`), named by UTC time, the newest
// BACKUP_KEEP kept, encrypted when BACKUP_PASSPHRASE is set. A restore goes into an empty
// store only and then runs the migrations, so an older backup restores into a newer site.

const run = promisify(execFile);

/** Our files and only ours: rotation never deletes anything else in BACKUP_DIR. */
const BACKUP_NAME = /^awhh-\d{8}T\d{6}Z\.(sqlite|pgdump)(\.enc)?$/;

/**
 * The encrypted file: MAGIC (8 bytes) | salt (16) | iv (12) | tag (16) | ciphertext.
 * AES-256-GCM with a key from scrypt(passphrase, salt; N=2^15, r=8, p=1). The header is
 * authenticated as additional data, so a changed salt or iv fails like a wrong passphrase.
 */
const MAGIC = Buffer.from('AWHHBK01', 'ascii');
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + SALT_BYTES + IV_BYTES;
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** A refusal the CLI prints as it is (no stack trace). */
export class BackupError extends Error {}

function key(passphrase: string, salt: Buffer): Buffer {
  return scryptSync(passphrase, salt, 32, SCRYPT);
}

export function encryptBackup(plain: Buffer, passphrase: string): Buffer {
  const salt = randomBytes(SALT_BYTES);
  const iv = randomBytes(IV_BYTES);
  const header = Buffer.concat([MAGIC, salt, iv]);
  const cipher = createCipheriv('aes-256-gcm', key(passphrase, salt), iv);
  cipher.setAAD(header);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([header, cipher.getAuthTag(), body]);
}

export function decryptBackup(data: Buffer, passphrase: string): Buffer {
  if (data.length < HEADER_BYTES + TAG_BYTES || !data.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new BackupError('Not an encrypted backup of this site (header missing).');
  }
  const header = data.subarray(0, HEADER_BYTES);
  const salt = header.subarray(MAGIC.length, MAGIC.length + SALT_BYTES);
  const iv = header.subarray(MAGIC.length + SALT_BYTES);
  const tag = data.subarray(HEADER_BYTES, HEADER_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key(passphrase, salt), iv);
  decipher.setAAD(header);
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([
      decipher.update(data.subarray(HEADER_BYTES + TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    throw new BackupError(
      'Cannot decrypt the backup: wrong BACKUP_PASSPHRASE, or the file is damaged.',
    );
  }
}

/** `awhh-20260612T031500Z.sqlite`: UTC, so names sort by time. */
export function backupFileName(
  kind: DatabaseConfig['kind'],
  now: Date,
  encrypted: boolean,
): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
  return `awhh-${stamp}.${kind === 'sqlite' ? 'sqlite' : 'pgdump'}${encrypted ? '.enc' : ''}`;
}

/** Deletes our backups beyond the newest `keep`; returns the names deleted. */
export function rotateBackups(dir: string, keep: number): string[] {
  const ours = readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name))
    .sort()
    .reverse();
  const old = ours.slice(keep);
  for (const name of old) rmSync(join(dir, name), { force: true });
  return old;
}

/** pg_dump's and pg_restore's environment: DATABASE_PASSWORD as PGPASSWORD, never in argv. */
function pgEnv(database: { password: string | null }): NodeJS.ProcessEnv {
  return database.password === null
    ? process.env
    : { ...process.env, PGPASSWORD: database.password };
}

function missingTool(err: unknown, tool: string): never {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new BackupError(
      `${tool} not found: install the PostgreSQL client tools of the server's major version (Debian: apt-get install postgresql-client).`,
    );
  }
  const stderr = (err as { stderr?: string }).stderr?.trim();
  throw new BackupError(`${tool} failed${stderr ? `: ${stderr}` : ''}`);
}

/** Writes a backup of the store to `config.dir`; returns its path. */
export async function createBackup(
  database: DatabaseConfig,
  config: BackupConfig,
  now = new Date(),
): Promise<string> {
  if (database.kind === 'sqlite' && !existsSync(database.path)) {
    throw new BackupError(`No store at ${database.path} (DATABASE_URL): nothing to back up.`);
  }
  mkdirSync(config.dir, { recursive: true, mode: 0o700 });
  const name = backupFileName(database.kind, now, config.passphrase !== null);
  const final = join(config.dir, name);
  const partial = join(config.dir, `.${name}.partial`);
  // Created 0600 before anything is written into it.
  writeFileSync(partial, '', { mode: 0o600 });
  try {
    if (database.kind === 'sqlite') {
      const db = new SqliteDatabase(database.path, { readonly: true, fileMustExist: true });
      try {
        await db.backup(partial);
      } finally {
        db.close();
      }
    } else {
      await run('pg_dump', ['-Fc', '--no-owner', '--no-privileges', '-f', partial, database.url], {
        maxBuffer: 16 * 1024 * 1024,
        env: pgEnv(database),
      }).catch((err: unknown) => missingTool(err, 'pg_dump'));
    }
    if (config.passphrase !== null) {
      writeFileSync(partial, encryptBackup(readFileSync(partial), config.passphrase));
    }
    chmodSync(partial, 0o600);
    renameSync(partial, final);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  rotateBackups(config.dir, config.keep);
  return final;
}

/** Whether the store holds orders or tickets (a store without the tables holds none). */
async function holdsData(store: StoreDatabase): Promise<boolean> {
  for (const table of ['orders', 'tickets'] as const) {
    try {
      const row = await store.db
        .selectFrom(table)
        .select(sql<number>`1`.as('one'))
        .executeTakeFirst();
      if (row) return true;
    } catch {
      // No such table yet: nothing in it.
    }
  }
  return false;
}

export interface RestoreOptions {
  passphrase: string | null;
  /** Overwrites a store that holds orders or tickets. */
  force: boolean;
}

/**
 * Restores `file` into the store of `database` and migrates it to the latest schema. The
 * site must be stopped meanwhile. Refuses a store with orders or tickets unless `force`.
 */
export async function restoreBackup(
  database: DatabaseConfig,
  file: string,
  options: RestoreOptions,
): Promise<void> {
  const match = BACKUP_NAME.exec(basename(file)) ?? /\.(sqlite|pgdump)(\.enc)?$/.exec(file);
  if (!match) {
    throw new BackupError(`${file} is not a backup of this site (awhh-….sqlite or awhh-….pgdump).`);
  }
  const kind = match[1] === 'sqlite' ? 'sqlite' : 'postgres';
  if (kind !== database.kind) {
    throw new BackupError(
      `${basename(file)} is a ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} backup, but DATABASE_URL names a ${database.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} store.`,
    );
  }
  const encrypted = match[2] === '.enc';
  if (encrypted && options.passphrase === null) {
    throw new BackupError(`${basename(file)} is encrypted: set BACKUP_PASSPHRASE.`);
  }
  const data = readFileSync(file);
  const plain = encrypted ? decryptBackup(data, options.passphrase!) : data;

  const store = await StoreDatabase.open(database, { migrate: false });
  try {
    if (!options.force && (await holdsData(store))) {
      throw new BackupError(
        'Der Speicher enthält schon Bestellungen oder Tickets; eine Wiederherstellung würde sie überschreiben. Leeren Speicher nehmen oder --force angeben. / The store already holds orders or tickets: restore into an empty store, or pass --force to overwrite it.',
      );
    }
    if (database.kind === 'postgres') await dropTables(store);
  } finally {
    await store.close();
  }

  const work = join(tmpdir(), `awhh-restore-${randomBytes(6).toString('hex')}`);
  mkdirSync(work, { mode: 0o700 });
  try {
    const source = join(work, 'backup');
    writeFileSync(source, plain, { mode: 0o600 });
    if (database.kind === 'sqlite') {
      for (const suffix of ['', '-wal', '-shm'])
        rmSync(`${database.path}${suffix}`, { force: true });
      copyFileSync(source, database.path);
      chmodSync(database.path, 0o600);
    } else {
      await run(
        'pg_restore',
        [
          '--no-owner',
          '--no-privileges',
          '--exit-on-error',
          '--single-transaction',
          '-d',
          database.url,
          source,
        ],
        { maxBuffer: 16 * 1024 * 1024, env: pgEnv(database) },
      ).catch((err: unknown) => missingTool(err, 'pg_restore'));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  // Up to the latest schema: a backup from an older version restores into a newer site.
  await (await StoreDatabase.open(database)).close();
}

/** Empties the PostgreSQL store's schema of its tables (an empty store has them, migrated). */
async function dropTables(store: StoreDatabase): Promise<void> {
  const { rows } = await sql<{ tablename: string }>`
    select tablename from pg_tables where schemaname = current_schema()
  `.execute(store.db);
  if (rows.length === 0) return;
  await sql`drop table if exists ${sql.join(rows.map((r) => sql.id(r.tablename)))} cascade`.execute(
    store.db,
  );
}
