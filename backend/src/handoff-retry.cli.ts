import { transitionOrder } from '@awhh/machines';
import { ConfigError, parseDatabase } from './config/config.js';
import { KyselyJobRepository } from './jobs/job.repository.js';
import { ORDER_JOBS, orderJob } from './orders/order-jobs.js';
import { KyselyOrderRepository } from './orders/order.repository.js';
import { StoreDatabase } from './store/store.database.js';

// `npm run handoff:retry -- <order>` (in a container: `node backend/dist/handoff-retry.cli.js
// <order>`): rules "Hand-off refused". Once the organizer has fixed what WooCommerce
// refused (a coupon, a product), this hands the paid order to the shop again: the order
// machine's `handoff.retry` clears the refusal and its hand-off job is due again, which a
// running checkout process picks up within a second. Only DATABASE_URL and DATABASE_PASSWORD
// are read.

const USAGE = 'Aufruf: npm run handoff:retry -- <Bestellnummer, z. B. ord_…>';

type Outcome = 'retried' | 'unknown' | 'not-refused';

/** Exit code: 0 queued, 1 nothing to retry, 2 no order given. */
export async function handoffRetryCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
): Promise<number> {
  const orderId = argv.find((arg) => !arg.startsWith('-'))?.trim() ?? '';
  if (orderId === '') {
    print(USAGE);
    return 2;
  }
  const store = await StoreDatabase.open(parseDatabase(env));
  let outcome: Outcome;
  try {
    outcome = await store.write(async (trx): Promise<Outcome> => {
      const orders = new KyselyOrderRepository(trx, store.kind);
      const order = await orders.lock({ id: orderId });
      if (!order) return 'unknown';
      const next = transitionOrder(order.status, order.context, { type: 'handoff.retry' });
      if (!next.changed) return 'not-refused';
      const now = Date.now();
      await orders.save({ ...order, status: next.status, context: next.context }, now);
      for (const effect of next.effects) {
        // The one effect of `handoff.retry` (machines/src/order/order.machine.ts), as
        // OrderService runs it.
        if (effect !== 'handoff.retry') throw new Error(`unexpected effect ${effect}`);
        await new KyselyJobRepository(trx).enqueueAgain(orderJob(ORDER_JOBS.handoff, orderId), now);
      }
      return 'retried';
    });
  } finally {
    await store.close();
  }
  if (outcome === 'unknown') {
    print(`Eine Bestellung ${orderId} gibt es nicht.`);
    return 1;
  }
  if (outcome === 'not-refused') {
    print(`Die Übergabe von ${orderId} ist nicht fehlgeschlagen; es gibt nichts zu wiederholen.`);
    return 1;
  }
  print(
    `Die Übergabe von ${orderId} an WooCommerce wird wiederholt; ein laufender Checkout-Prozess übernimmt sie gleich.`,
  );
  return 0;
}

if (process.argv[1]?.endsWith('handoff-retry.cli.js')) {
  handoffRetryCli(process.argv.slice(2), process.env, (line) => console.log(line)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof ConfigError ? err.message : err);
      process.exit(1);
    },
  );
}
