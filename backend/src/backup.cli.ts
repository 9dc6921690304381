import { relative } from 'node:path';
import { ConfigError, parseBackupConfig, parseDatabase } from './config/config.js';
import { BackupError, createBackup, restoreBackup } from './store/backup.js';

// `npm run backup` (in a container: `node backend/dist/backup.cli.js`) writes a consistent
// copy of the store to BACKUP_DIR while the site runs; `npm run restore -- <file>`
// (`node backend/dist/backup.cli.js restore <file>`) puts one back into an empty store with
// the site stopped. docs/operations.md "Betrieb". Only DATABASE_URL, DATABASE_PASSWORD and the BACKUP_*
// variables are read; the passphrase is never printed.

const RESTORE_USAGE = 'Aufruf / usage: npm run restore -- <Sicherungsdatei> [--force]';

/** Exit code: 0 done, 1 refused or failed, 2 no file given. */
export async function backupCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
): Promise<number> {
  const database = parseDatabase(env);
  const config = parseBackupConfig(env);
  try {
    if (argv[0] === 'restore') {
      const file = argv.slice(1).find((arg) => !arg.startsWith('-'));
      if (!file) {
        print(RESTORE_USAGE);
        return 2;
      }
      await restoreBackup(database, file, {
        passphrase: config.passphrase,
        force: argv.includes('--force'),
      });
      print(`Wiederhergestellt / restored: ${file}`);
      return 0;
    }
    const file = await createBackup(database, config);
    const shown = relative(process.cwd(), file);
    print(
      `Sicherung geschrieben / backup written: ${shown.startsWith('..') ? file : shown}${config.passphrase ? ' (verschlüsselt / encrypted)' : ''}`,
    );
    return 0;
  } catch (err) {
    if (err instanceof BackupError) {
      print(err.message);
      return 1;
    }
    throw err;
  }
}

if (process.argv[1]?.endsWith('backup.cli.js')) {
  backupCli(process.argv.slice(2), process.env, (line) => console.log(line)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof ConfigError ? err.message : err);
      process.exit(1);
    },
  );
}
