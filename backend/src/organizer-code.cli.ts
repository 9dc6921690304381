import { newDoorCode } from './door/door-code.js';
import { ConfigError, parseOrganizerCode } from './config/config.js';
import { embeddedOrganizerCode } from './organizer/organizer-code.js';
import { envVariable, withStoreSettings } from './cli-support.js';

// `npm run organizer-code` (in a container: `node backend/dist/organizer-code.cli.js`): the
// organizer code for /veranstalter from the configured store, on a site without WooCommerce
// (rules "The organizer"). In production the start-up line does not show it, so this is how
// ops learn a generated code. `-- --new` prints a fresh code of the same strength for
// ORGANIZER_CODE and touches nothing. Only DATABASE_URL, ORGANIZER_CODE and WOOCOMMERCE_URL
// are read: the rest of the site's configuration need not be at hand.

export async function organizerCodeCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
): Promise<void> {
  if (argv.includes('--new')) {
    print(newDoorCode());
    return;
  }
  if (envVariable(env, 'WOOCOMMERCE_URL') !== undefined) {
    print(
      'WOOCOMMERCE_URL is set: the organizer signs in with a WordPress account (shop manager or administrator) and an application password; there is no code.',
    );
    return;
  }
  if (parseOrganizerCode(envVariable(env, 'ORGANIZER_CODE')) !== null) {
    print('ORGANIZER_CODE is set: /veranstalter uses that code (it is never printed).');
    return;
  }
  // The same insert-if-absent as the site's start: a code made here is the site's code.
  const code = await withStoreSettings(env, (settings) => embeddedOrganizerCode(settings));
  print(`Veranstaltercode für /veranstalter: ${code}`);
}

if (process.argv[1]?.endsWith('organizer-code.cli.js')) {
  organizerCodeCli(process.argv.slice(2), process.env, (line) => console.log(line)).catch(
    (err: unknown) => {
      console.error(err instanceof ConfigError ? err.message : err);
      process.exit(1);
    },
  );
}
