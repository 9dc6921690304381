import { embeddedDoorCode, newDoorCode } from './door/door-code.js';
import { ConfigError, parseCheckinCode } from './config/config.js';
import { envVariable, withStoreSettings } from './cli-support.js';

// `npm run door-code` (in a container: `node backend/dist/door-code.cli.js`): the door code
// for /einlass from the configured store. In production the start-up line no longer shows
// it, so this is how ops learn a generated code. `-- --new` prints a fresh code of the same
// strength for CHECKIN_CODE and touches nothing. Only DATABASE_URL and CHECKIN_CODE are
// read: the rest of the site's configuration need not be at hand.

export async function doorCodeCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
): Promise<void> {
  if (argv.includes('--new')) {
    print(newDoorCode());
    return;
  }
  if (parseCheckinCode(envVariable(env, 'CHECKIN_CODE')) !== null) {
    print('CHECKIN_CODE is set: the door uses that code (it is never printed).');
    return;
  }
  // The same insert-if-absent as the site's start: a code made here is the site's code.
  const code = await withStoreSettings(env, (settings) => embeddedDoorCode(settings));
  print(`Türcode für /einlass: ${code}`);
}

if (process.argv[1]?.endsWith('door-code.cli.js')) {
  doorCodeCli(process.argv.slice(2), process.env, (line) => console.log(line)).catch(
    (err: unknown) => {
      console.error(err instanceof ConfigError ? err.message : err);
      process.exit(1);
    },
  );
}
