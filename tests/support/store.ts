import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

/**
 * Runs one statement on the store of the site under test, as a test reaches past the API:
 * DATABASE_URL's PostgreSQL when that is set, otherwise the site's SQLite file in
 * `dataDir`. `sql` takes `?` placeholders; PostgreSQL gets them numbered ($1, $2, …).
 */
export async function runOnStore(dataDir: string, sql: string, params: unknown[]): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL ?? '';
  if (databaseUrl.startsWith('postgres')) {
    let n = 0;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      );
    } finally {
      await client.end();
    }
    return;
  }
  const db = new Database(join(dataDir, 'awhh.db'), { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}
