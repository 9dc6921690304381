import { newDoorCode } from './door/door-code.js';
import { ConfigError, parseDatabaseUrl, parseOrganizerCode } from './config/config.js';
import { embeddedOrganizerCode } from './organizer/organizer-code.js';
import { KyselySettingsRepository } from './store/settings.repository.js';
import { StoreDatabase } from './store/store.database.js';

// `npm run organizer-code` (in a container: `node backend/dist/organizer-code.cli.js`): the
// organizer code for /veranstalter from the configured store, on a site without WooCommerce
// (rules "The organizer"). In production the start-up line does not show it, so this is how
// ops learn a generated code. `-- --new` prints a fresh code of the same strength for
// ORGANIZER_CODE and touches nothing. Only DATABASE_URL, ORGANIZER_CODE and WOOCOMMERCE_URL
// are read: the rest of the site's configuration need not be at hand.

function variable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

export async function organizerCodeCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
): Promise<void> {
  if (argv.includes('--new')) {
    print(newDoorCode());
    return;
  }
  if (variable(env, 'WOOCOMMERCE_URL') !== undefined) {
    print(
      'WOOCOMMERCE_URL is set: the organizer signs in with a WordPress account (shop manager or administrator) and an application password; there is no code.',
    );
    return;
  }
  if (parseOrganizerCode(variable(env, 'ORGANIZER_CODE')) !== null) {
    print('ORGANIZER_CODE is set: /veranstalter uses that code (it is never printed).');
    return;
  }
  const store = await StoreDatabase.open(parseDatabaseUrl(variable(env, 'DATABASE_URL')));
  try {
    // The same insert-if-absent as the site's start: a code made here is the site's code.
    print(
      `Veranstaltercode für /veranstalter: ${await embeddedOrganizerCode(new KyselySettingsRepository(store.db))}`,
    );
  } finally {
    await store.close();
  }
}

if (process.argv[1]?.endsWith('organizer-code.cli.js')) {
  organizerCodeCli(process.argv.slice(2), process.env, (line) => console.log(line)).catch(
    (err: unknown) => {
      console.error(err instanceof ConfigError ? err.message : err);
      process.exit(1);
    },
  );
}
