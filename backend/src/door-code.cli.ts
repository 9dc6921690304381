import { embeddedDoorCode, newDoorCode } from './door/door-code.js';
import { ConfigError, parseCheckinCode, parseDatabaseUrl } from './config/config.js';
import { KyselySettingsRepository } from './store/settings.repository.js';
import { StoreDatabase } from './store/store.database.js';

// `npm run door-code` (in a container: `node backend/dist/door-code.cli.js`): the door code
// for /einlass from the configured store. In production the start-up line no longer shows
// it, so this is how ops learn a generated code. `-- --new` prints a fresh code of the same
// strength for CHECKIN_CODE and touches nothing. Only DATABASE_URL and CHECKIN_CODE are
// read: the rest of the site's configuration need not be at hand.

function variable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

export async function doorCodeCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
): Promise<void> {
  if (argv.includes('--new')) {
    print(newDoorCode());
    return;
  }
  if (parseCheckinCode(variable(env, 'CHECKIN_CODE')) !== null) {
    print('CHECKIN_CODE is set: the door uses that code (it is never printed).');
    return;
  }
  const store = await StoreDatabase.open(parseDatabaseUrl(variable(env, 'DATABASE_URL')));
  try {
    // The same insert-if-absent as the site's start: a code made here is the site's code.
    print(
      `Türcode für /einlass: ${await embeddedDoorCode(new KyselySettingsRepository(store.db))}`,
    );
  } finally {
    await store.close();
  }
}

if (process.argv[1]?.endsWith('door-code.cli.js')) {
  doorCodeCli(process.argv.slice(2), process.env, (line) => console.log(line)).catch(
    (err: unknown) => {
      console.error(err instanceof ConfigError ? err.message : err);
      process.exit(1);
    },
  );
}
