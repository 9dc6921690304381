import { parseDatabase } from './config/config.js';
import { KyselySettingsRepository } from './store/settings.repository.js';
import { StoreDatabase } from './store/store.database.js';

// What the code-printing CLIs (`npm run door-code`, `npm run organizer-code`) share: they
// read only the variables they need, so the rest of the site's configuration need not be
// at hand.

/** A variable as the site reads it: trimmed, and empty counts as not set. */
export function envVariable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

/** The store of `DATABASE_URL`'s settings, opened for `use` and closed after it. */
export async function withStoreSettings<T>(
  env: NodeJS.ProcessEnv,
  use: (settings: KyselySettingsRepository) => Promise<T>,
): Promise<T> {
  const store = await StoreDatabase.open(parseDatabase(env));
  try {
    return await use(new KyselySettingsRepository(store.db));
  } finally {
    await store.close();
  }
}
