import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { createTestDatabase, type DatabaseKind } from '../../support/checkout-test-app.js';

// A migration spec writes rows as an earlier schema had them, so it reads and writes the
// database untyped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type MigrationDb = Kysely<any>;

/**
 * The database opened as the store opens it (store.database.ts): PostgreSQL's bigints read
 * as numbers, SQLite with its foreign keys enforced.
 */
export function openMigrationDb(kind: DatabaseKind, url: string): MigrationDb {
  if (kind === 'postgres') {
    return new Kysely({
      dialect: new PostgresDialect({
        pool: new pg.Pool({
          connectionString: url,
          types: {
            getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
              oid === 20
                ? (value: string) => Number(value)
                : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
          },
        }),
      }),
    });
  }
  const database = new SqliteDatabase(url.slice('sqlite:'.length));
  database.pragma('foreign_keys = ON');
  return new Kysely({ dialect: new SqliteDialect({ database }) });
}

/**
 * A fresh, empty database of `kind` for the describe block it is called in, dropped after
 * it: the getter gives the open connection inside the block's tests.
 */
export function useMigrationDb(kind: DatabaseKind): () => MigrationDb {
  let database: { url: string; drop(): Promise<void> } | undefined;
  let db: MigrationDb | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = openMigrationDb(kind, database.url);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });
  return () => {
    if (!db) throw new Error('useMigrationDb: the database opens in beforeAll');
    return db;
  };
}

/**
 * What the store said to a statement: 'ok', or its error's message. Read by shape, never
 * `instanceof Error` or `rejects.toThrow()`: better-sqlite3's error class belongs to the
 * first test file that loaded the native module in this jest worker, another realm than
 * this file's `Error`.
 */
export function outcome(statement: Promise<unknown>): Promise<string> {
  return statement.then(
    () => 'ok',
    (err: unknown) =>
      typeof err === 'object' && err !== null && 'message' in err
        ? String(err.message)
        : String(err),
  );
}
