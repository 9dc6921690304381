import { WooCommerceCatalogAdapter } from './catalog/adapters/woocommerce-catalog.adapter.js';
import { ConfigError, parseConfig } from './config/config.js';
import { KyselyOrderRepository } from './orders/order.repository.js';
import { SHOP_VERIFY_JOB, verifyOrder } from './shop/shop-verification.js';
import { StoreDatabase } from './store/store.database.js';

// `npm run shop:verify` (in a container: `node backend/dist/shop-verify.cli.js`):
// docs/ledger.md "A hand-off is done only when the shop holds what was charged". Checks
// every handed-off order of the coming evenings against the shop and prints what
// disagrees; then asks a running checkout process to run its daily check at once, which
// applies orders the shop cancelled meanwhile and mails ORGANIZER_EMAIL the list. Reads the
// site's configuration (DATABASE_URL, WOOCOMMERCE_*).

/** Exit code: 0 all agree, 1 some disagree, 2 no shop configured. */
export async function shopVerifyCli(
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
): Promise<number> {
  const config = parseConfig(env);
  if (!config.woocommerce) {
    print('WOOCOMMERCE_URL ist nicht gesetzt: ohne Shop gibt es nichts abzugleichen.');
    return 2;
  }
  const shop = new WooCommerceCatalogAdapter(config.woocommerce);
  const store = await StoreDatabase.open(config.database);
  let disagree = 0;
  let checked = 0;
  try {
    const orders = new KyselyOrderRepository(store.db, store.kind);
    const since = new Date(Date.now() - 6 * 60 * 60 * 1000).toISOString();
    for (const order of await orders.handedOffUpcoming(since, 2_000)) {
      checked += 1;
      const catalogOrderId = order.context.catalogOrderId!;
      const problems = verifyOrder(
        { id: order.id, couponCode: order.couponCode, catalogOrderId, total: order.context.total },
        await orders.lines(order.id),
        await shop.findOrder(catalogOrderId),
      );
      if (problems.length === 0) continue;
      disagree += 1;
      print(`${order.id} (Shop #${catalogOrderId}): ${problems.join(' ')}`);
    }
    // The running checkout process's daily check, due now: it fixes what it can and mails.
    await store.db
      .updateTable('jobs')
      .set({ next_attempt_at: Date.now() })
      .where('name', '=', SHOP_VERIFY_JOB)
      .where('done_at', 'is', null)
      .execute();
  } finally {
    await store.close();
  }
  print(
    disagree === 0
      ? `${checked} übergebene Bestellungen kommender Abende geprüft: alle stimmen mit dem Shop überein.`
      : `${checked} geprüft, ${disagree} weichen ab. Ein laufender Checkout-Prozess gleicht Stornierungen aus dem Shop gleich nach und schickt die Liste an ORGANIZER_EMAIL.`,
  );
  return disagree === 0 ? 0 : 1;
}

if (process.argv[1]?.endsWith('shop-verify.cli.js')) {
  shopVerifyCli(process.env, (line) => console.log(line)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof ConfigError ? err.message : err);
      process.exit(1);
    },
  );
}
