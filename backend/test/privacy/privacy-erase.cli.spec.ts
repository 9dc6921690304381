import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privacyEraseCli } from '../../src/privacy-erase.cli.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import { daysAgo, NOW, Seed } from './support/seed.js';

// `npm run privacy:erase -- <e-mail>` on the store DATABASE_URL names (the repository's
// rules are checked on both databases in retention.spec.ts).
describe('privacy:erase', () => {
  let dir: string;
  let url: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'awhh-erase-'));
    url = `sqlite:${join(dir, 'awhh.db')}`;
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function run(...argv: string[]): Promise<{ code: number; out: string[] }> {
    const out: string[] = [];
    const code = await privacyEraseCli(argv, { DATABASE_URL: url }, (line) => out.push(line));
    return { code, out };
  }

  it('erases the address everywhere and prints what it did, per kind', async () => {
    const store = await StoreDatabase.open({ kind: 'sqlite', path: join(dir, 'awhh.db') });
    const seed = new Seed(store.db);
    await seed.order(
      'o1',
      'handedOff',
      daysAgo(3),
      { email: 'Gast@Example.org', name: 'Gast' },
      daysAgo(3),
    );
    await seed.ticket('o1', NOW, 'Gast');
    await seed.contact('gast@example.org', daysAgo(1));
    await seed.contact('jemand@example.org', daysAgo(1));
    await store.close();

    const { code, out } = await run('GAST@example.org');

    expect(code).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/Bestellungen anonymisiert[^\n]*:\s+1$/m);
    expect(text).toMatch(/Tickets ohne Inhabernamen[^\n]*:\s+1$/m);
    expect(text).toMatch(/Kontaktnachrichten gelöscht:\s+1$/m);
    expect(text).toMatch(/Wartelisten-Einträge gelöscht:\s+0$/m);
    expect(text).toMatch(/WooCommerce/);
    const after = await StoreDatabase.open({ kind: 'sqlite', path: join(dir, 'awhh.db') });
    const orders = await after.db.selectFrom('orders').select(['email', 'buyer_name']).execute();
    const contact = await after.db.selectFrom('contact_messages').select('email').execute();
    await after.close();
    expect(orders).toEqual([{ email: null, buyer_name: null }]);
    expect(contact).toEqual([{ email: 'jemand@example.org' }]);

    expect((await run('gast@example.org')).out[0]).toBe(
      'Zu gast@example.org ist nichts gespeichert.',
    );
  });

  it('without an address prints how to call it and touches nothing', async () => {
    expect(await run()).toEqual({
      code: 2,
      out: [expect.stringMatching(/^Aufruf: npm run privacy:erase -- /)],
    });
    expect((await run('keine-adresse')).code).toBe(2);
  });
});
