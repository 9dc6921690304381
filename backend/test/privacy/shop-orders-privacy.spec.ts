import { retentionPeriods } from '@awhh/machines';
import { parseDatabaseUrl } from '../../src/config/config.js';
import { retentionCutoffs } from '../../src/privacy/personal-data-retention.js';
import { KyselyPrivacyRepository } from '../../src/privacy/privacy.repository.js';
import { StoreDatabase } from '../../src/store/store.database.js';
import { createTestDatabase, DATABASES } from '../support/checkout-test-app.js';
import { daysAgo, NOW, Seed } from './support/seed.js';

// docs/privacy.md, rules "Orders made in the shop": an order made in the shop keeps its
// billing address and name, and its tickets their holder, like a paid order of the site:
// PERSONAL_DATA_DAYS_AFTER_EVENT days after its last event, or at once on request.

describe.each(DATABASES)('personal data of orders made in the shop (%s)', (kind) => {
  let drop: () => Promise<void>;
  let store: StoreDatabase;
  let seed: Seed;
  let sut: KyselyPrivacyRepository;

  beforeAll(async () => {
    const database = await createTestDatabase(kind);
    drop = database.drop;
    store = await StoreDatabase.open(parseDatabaseUrl(database.url));
    seed = new Seed(store.db);
    sut = new KyselyPrivacyRepository(store);
  });

  afterAll(async () => {
    await store.close();
    await drop();
  });

  beforeEach(async () => {
    for (const table of ['tickets', 'shop_orders'] as const) {
      await store.db.deleteFrom(table).execute();
    }
  });

  async function shopOrder(id: string, email: string, holder: string, seenAt: number) {
    await store.db
      .insertInto('shop_orders')
      .values({
        id,
        number: id.replace('shop-', ''),
        status: 'completed',
        modified_at: seenAt,
        email,
        holder,
        total: 0,
        created_at: seenAt,
        updated_at: seenAt,
      })
      .execute();
  }

  const row = (id: string) =>
    store.db.selectFrom('shop_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const holders = (orderId: string) =>
    store.db.selectFrom('tickets').select('holder').where('order_id', '=', orderId).execute();

  it("erases them 90 days after the order's last event, keeping the order and its tickets", async () => {
    await shopOrder('shop-70', 'alt@example.org', 'Alma Alt', daysAgo(200));
    await seed.ticket('shop-70', daysAgo(100), 'Alma Alt');
    await shopOrder('shop-71', 'neu@example.org', 'Nora Neu', daysAgo(200));
    await seed.ticket('shop-71', daysAgo(30), 'Nora Neu');

    const counts = await sut.eraseExpired(retentionCutoffs(retentionPeriods(90), NOW));
    expect(counts).toMatchObject({ orders: 1, tickets: 1 });
    expect(await row('shop-70')).toMatchObject({ email: null, holder: null, number: '70' });
    expect(await holders('shop-70')).toEqual([{ holder: null }]);
    expect(await row('shop-71')).toMatchObject({ email: 'neu@example.org', holder: 'Nora Neu' });
    expect(await holders('shop-71')).toEqual([{ holder: 'Nora Neu' }]);
  });

  it('erases them for the address on request, in any case', async () => {
    await shopOrder('shop-72', 'Gast@Example.org', 'Gerd Gast', daysAgo(1));
    await seed.ticket('shop-72', NOW + 10 * 86_400_000, 'Gerd Gast');
    const counts = await sut.eraseAddress(' gast@example.ORG ');
    expect(counts).toMatchObject({ orders: 1, tickets: 1 });
    expect(await row('shop-72')).toMatchObject({ email: null, holder: null });
    expect(await holders('shop-72')).toEqual([{ holder: null }]);
  });
});
