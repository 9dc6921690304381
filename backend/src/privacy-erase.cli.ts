import { ConfigError, parseDatabase } from './config/config.js';
import { KyselyPrivacyRepository } from './privacy/privacy.repository.js';
import { StoreDatabase } from './store/store.database.js';
import type { ErasureCounts } from './privacy/privacy.port.js';

// `npm run privacy:erase -- <e-mail>` (in a container: `node backend/dist/privacy-erase.cli.js
// <e-mail>`): a request for erasure (DSGVO Art. 17, docs/privacy.md). Everything the store
// keeps for the address, in any case, is deleted or anonymised in one transaction, and what
// was done is printed. Only DATABASE_URL and DATABASE_PASSWORD are read: the rest of the
// site's configuration has no say in it.

const USAGE = 'Aufruf: npm run privacy:erase -- <E-Mail-Adresse>';

const LINES: [keyof ErasureCounts, string][] = [
  ['orders', 'Bestellungen anonymisiert (E-Mail-Adresse und Name gelöscht)'],
  ['tickets', 'Tickets ohne Inhabernamen (bleiben für den Einlass gültig)'],
  ['waitlistEntries', 'Wartelisten-Einträge gelöscht'],
  ['contactMessages', 'Kontaktnachrichten gelöscht'],
  ['mails', 'Gespeicherte Mails gelöscht'],
  ['reminderAddresses', 'Abmelde-Link für Erinnerungen gelöscht'],
];

/** Exit code: 0 done, 2 no address given. */
export async function privacyEraseCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
): Promise<number> {
  const address = argv.find((arg) => !arg.startsWith('-'))?.trim() ?? '';
  if (!/^[^@\s]+@[^@\s]+$/.test(address)) {
    print(USAGE);
    return 2;
  }
  const store = await StoreDatabase.open(parseDatabase(env));
  let counts: ErasureCounts;
  try {
    counts = await new KyselyPrivacyRepository(store).eraseAddress(address);
  } finally {
    await store.close();
  }
  const total = LINES.reduce((sum, [kind]) => sum + counts[kind], 0);
  if (total === 0) {
    print(`Zu ${address.toLowerCase()} ist nichts gespeichert.`);
  } else {
    print(`Gespeicherte Daten zu ${address.toLowerCase()}:`);
    const width = Math.max(...LINES.map(([, label]) => label.length));
    for (const [kind, label] of LINES) print(`  ${`${label}:`.padEnd(width + 2)}${counts[kind]}`);
  }
  // The shop's order is the organizer's to erase there once no duty to keep it is left.
  print(
    'WooCommerce behält die Bestellungen für die Buchhaltung (bis zu 10 Jahre); danach in WordPress unter Werkzeuge → Personenbezogene Daten löschen.',
  );
  return 0;
}

if (process.argv[1]?.endsWith('privacy-erase.cli.js')) {
  privacyEraseCli(process.argv.slice(2), process.env, (line) => console.log(line)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof ConfigError ? err.message : err);
      process.exit(1);
    },
  );
}
