import type { StoreDb } from './store.database.js';
import { SettingsRepository } from './store.port.js';

export class KyselySettingsRepository extends SettingsRepository {
  constructor(private readonly db: StoreDb) {
    super();
  }

  async get(key: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.value;
  }

  /** Insert-if-absent, then read: processes starting together all end up with the first one's value. */
  async putIfAbsent(key: string, value: string, now: number): Promise<string> {
    await this.db
      .insertInto('settings')
      .values({ key, value, created_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const stored = await this.get(key);
    if (stored === undefined) throw new Error(`setting ${key} missing after insert`);
    return stored;
  }

  async put(key: string, value: string, now: number): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key, value, created_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}
