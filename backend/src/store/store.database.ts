import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  sql,
  SqliteDialect,
  type SqliteDatabase as KyselySqliteDatabase,
} from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config/config.js';
import { migrateToLatest } from './migrations.js';
import type { StoreSchema } from './store.schema.js';

export type StoreKind = DatabaseConfig['kind'];
export type StoreDb = Kysely<StoreSchema>;

const INT8_OID = 20;

/**
 * A pool that survives a PostgreSQL restart: the server ends idle connections with an
 * 'error' event (57P01), which would crash the process without a listener. The failed
 * query is rejected to its caller; the next one opens a new connection.
 */
function openPostgresPool(url: string, password: string | null): pg.Pool {
  const pool = new pg.Pool({
    connectionString: withPassword(url, password),
    max: 10,
    // Times are epoch milliseconds in bigint columns; they fit a JS number.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  const log = new Logger('Store');
  const logLost = (err: Error) => log.warn(`PostgreSQL connection lost: ${err.message}`);
  pool.on('error', logLost);
  pool.on('connect', (client) => client.on('error', logLost));
  return pool;
}

/**
 * The URL with DATABASE_PASSWORD in it, percent-encoded: pg reads the password from the URL
 * before an option beside it, and decodes it again.
 */
function withPassword(url: string, password: string | null): string {
  if (password === null) return url;
  const parsed = new URL(url);
  parsed.password = encodeURIComponent(password);
  return parsed.href;
}

/**
 * The checkout store: one Kysely instance over SQLite (default) or PostgreSQL, with the
 * same queries for both (each module's `*.repository.ts`). The only dialect-specific piece is how a
 * write transaction serialises its writers: BEGIN IMMEDIATE on SQLite, row locks on
 * PostgreSQL (the order repository takes them).
 */
@Injectable()
export class StoreDatabase implements OnApplicationShutdown {
  private closed = false;

  private constructor(
    readonly db: StoreDb,
    readonly kind: StoreKind,
  ) {}

  /**
   * Opens the store and, unless `migrate` is false, brings its schema up to date first. A
   * process that only reads what another migrates (the products side) opens it without:
   * SQLite's migrations hold no lock across processes sharing one file.
   */
  static async open(
    config: DatabaseConfig,
    options: { migrate?: boolean } = {},
  ): Promise<StoreDatabase> {
    const store =
      config.kind === 'postgres'
        ? new StoreDatabase(
            new Kysely<StoreSchema>({
              dialect: new PostgresDialect({
                pool: openPostgresPool(config.url, config.password),
              }),
            }),
            'postgres',
          )
        : new StoreDatabase(
            new Kysely<StoreSchema>({
              dialect: new SqliteDialect({ database: withStatementCache(openSqlite(config.path)) }),
            }),
            'sqlite',
          );
    if (options.migrate === false) return store;
    try {
      await migrateToLatest(store.db as unknown as Kysely<unknown>, store.kind);
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }

  /**
   * Runs `work` in a transaction that holds the write lock from its first statement, so
   * a read-then-write (capacity check, state transition) cannot interleave with another.
   */
  async write<T>(work: (trx: StoreDb) => Promise<T>): Promise<T> {
    if (this.kind === 'postgres') return this.db.transaction().execute(work);
    return this.db.connection().execute(async (conn) => {
      // IMMEDIATE takes SQLite's write lock up front (also across processes sharing the file).
      await sql`begin immediate`.execute(conn);
      try {
        const result = await work(conn);
        await sql`commit`.execute(conn);
        return result;
      } catch (err) {
        await sql`rollback`.execute(conn);
        throw err;
      }
    });
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.db.destroy();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }
}

function openSqlite(path: string): SqliteDatabase.Database {
  if (path !== ':memory:') createPrivateFile(path);
  const db = new SqliteDatabase(path);
  // WAL lets readers run beside the writer; busy_timeout waits for another process's lock
  // instead of failing with SQLITE_BUSY.
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // SQLite gives the -wal and -shm files the database file's mode; these fix files a wider
  // umask made before.
  if (path !== ':memory:') for (const file of [`${path}-wal`, `${path}-shm`]) restrict(file, 0o600);
  return db;
}

/**
 * The store holds personal data and, when none is configured, the ticket signing key and
 * the door code: only the process's user may read it. The folders this creates are 0700,
 * the database file 0600, whatever the umask (modes are set after creating). A folder that
 * existed before is not changed (it may be shared, such as /tmp); a wider one is reported.
 */
function createPrivateFile(path: string): void {
  const dir = dirname(path);
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (created !== undefined) {
    // Every level from the first one created down to the file's folder.
    const levels = relative(created, dir).split(/[\\/]/).filter(Boolean);
    let level = created;
    chmodSync(level, 0o700);
    for (const name of levels) chmodSync((level = resolve(level, name)), 0o700);
  } else if (isOpenToOthers(statSync(dir).mode)) {
    new Logger('Store').warn(
      `The data folder ${dir} can be listed by other users; chmod 700 it to keep the store's file names private`,
    );
  }
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  restrict(path, 0o600);
}

/** Group or others may read or enter it; a sticky folder (/tmp) is shared on purpose. */
function isOpenToOthers(mode: number): boolean {
  return (mode & 0o077) !== 0 && (mode & 0o1000) === 0;
}

/** Sets the mode of a file the process owns; one owned by another user is reported, not fatal. */
function restrict(file: string, mode: number): void {
  if (!existsSync(file) || (statSync(file).mode & 0o777) === mode) return;
  try {
    chmodSync(file, mode);
  } catch (err) {
    new Logger('Store').warn(
      `Cannot make ${file} private (${(err as NodeJS.ErrnoException).code ?? String(err)}); other users may read it`,
    );
  }
}

/** Distinct statements kept prepared; the repositories use a few dozen shapes. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely's SQLite driver prepares every query anew, which is about a tenth of a checkout's
 * CPU time. Statements depend only on their SQL (values are bound per run), so each is
 * prepared once and reused; better-sqlite3 runs them synchronously, so one statement is
 * never in use twice at a time (nothing here streams rows).
 */
function withStatementCache(db: SqliteDatabase.Database): KyselySqliteDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => db.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (statement) {
        // Most recently used last: the oldest entry goes first when the cache is full.
        statements.delete(text);
      } else {
        statement = db.prepare(text);
        if (statements.size >= STATEMENT_CACHE_SIZE) {
          statements.delete(statements.keys().next().value!);
        }
      }
      statements.set(text, statement);
      return statement;
    },
  };
}
