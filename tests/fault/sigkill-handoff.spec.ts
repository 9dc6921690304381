import { join } from 'node:path';
import Database from 'better-sqlite3';
import { orderSummarySchema } from '@awhh/machines';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { orderReference, wooEvent } from '../support/woocommerce-fixtures.js';
import { deliver, FakeStripe, type FakeSession, sessionEvent } from '../support/fake-stripe.js';
import {
  type BackendProcess,
  createCheckout,
  eventually,
  sleep,
} from './support/backend-process.js';
import { openFakeShop, type FakeShop } from './support/fake-shop.js';

/**
 * rules "Webhook": a paid order reaches WooCommerce through the outbox, so a process
 * killed outright (OOM killer, `docker kill`) after the payment was recorded but before
 * the hand-off went through loses nothing and sends nothing twice.
 */

let woo: FakeWooCommerce;
let stripe: FakeStripe;
let site: BackendProcess | null = null;
let dataDir: string;

let shop: FakeShop;

beforeAll(async () => {
  shop = await openFakeShop(
    new FakeWooCommerce({ products: [wooEvent(701, { price: '12.50', stock_quantity: 30 })] }),
    'fault-kill',
  );
  ({ woo, stripe, dataDir } = shop);
});

afterAll(() => shop?.close());

/**
 * The store's jobs, read beside the process: hand-off jobs that failed once and wait,
 * unleased (the ticket mail, a job of its own, goes out without WooCommerce).
 */
function waitingForRetry(count: number): boolean {
  const db = new Database(join(dataDir, 'awhh.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        "SELECT attempts, lease_until, next_attempt_at, done_at FROM jobs WHERE name = 'order-handoff'",
      )
      .all() as {
      attempts: number;
      lease_until: number | null;
      next_attempt_at: number;
      done_at: number | null;
    }[];
    const now = Date.now();
    return (
      rows.length === count &&
      rows.every(
        (r) =>
          r.done_at === null &&
          r.attempts >= 1 &&
          r.lease_until === null &&
          r.next_attempt_at > now + 700,
      )
    );
  } finally {
    db.close();
  }
}

const handOffs = (session: FakeSession) =>
  woo.orders.filter((o) => orderReference(o) === session.orderId).length;

describe('fault: the checkout process killed with SIGKILL between payment and hand-off', () => {
  it('after the restart the outbox delivers every paid order to WooCommerce exactly once', async () => {
    site = await shop.start();
    const port = site.port;
    const sessions: FakeSession[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await createCheckout(site.url, [
        { productId: 701, name: 'Testevent 701', amount: 12.5, quantity: i + 1 },
      ]);
      expect(res.status).toBe(201);
      sessions.push(stripe.session(((await res.json()) as { id: string }).id)!);
    }

    // WooCommerce refuses the hand-off, so the paid orders sit in the outbox.
    woo.mode = 'down';
    for (const session of sessions) {
      const res = await deliver(site.url, sessionEvent(session, 'checkout.session.completed'));
      expect(res.status).toBe(200);
    }
    // Kill while every hand-off waits for its retry: a kill during an attempt would leave
    // the job's lease, which a new process may take only after
    // JobOptions.leaseMs (60 s), too long for this test.
    await eventually(
      async () => waitingForRetry(sessions.length),
      20_000,
      'a failed hand-off attempt for each order, waiting for its retry',
    );
    await site.kill('SIGKILL');
    site = null;
    expect(woo.orders).toHaveLength(0);

    woo.mode = 'ok';
    site = await shop.start({ port });
    await eventually(
      async () => sessions.every((s) => handOffs(s) >= 1),
      40_000,
      'every paid order handed off after the restart',
    );
    await sleep(2_000);
    expect(sessions.map(handOffs)).toEqual([1, 1, 1]);
    expect(woo.orders).toHaveLength(3);
    for (const session of sessions) {
      const res = await fetch(`${site.url}/api/checkout/session/${session.id}`);
      expect(orderSummarySchema.parse(await res.json()).status).toBe('paid');
    }
    // The same events redelivered after the restart (Stripe retries) change nothing.
    for (const session of sessions) {
      await deliver(site.url, sessionEvent(session, 'checkout.session.completed'));
    }
    await sleep(1_500);
    expect(woo.orders).toHaveLength(3);
  }, 59_000);
});
