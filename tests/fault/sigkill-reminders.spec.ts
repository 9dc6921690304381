import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { wooEvent } from '../support/woocommerce-fixtures.js';
import { deliver, sessionEvent } from '../support/fake-stripe.js';
import {
  type BackendProcess,
  createCheckout,
  eventually,
  waitsForRetry,
  sleep,
  startBackend,
} from './support/backend-process.js';
import { openFakeShop, type FakeShop } from './support/fake-shop.js';

/**
 * rules "Reminders": REMINDER_HOURS_BEFORE before the start every valid ticket's holder
 * gets one reminder, exactly once per holder across restarts and several processes. The
 * sweep enqueues one job per kind, event and address (its key), so a process killed
 * outright (OOM killer, `docker kill`) while the reminder waits for its retry loses
 * nothing, and the sweeps of the processes after it add no second one.
 */

const EVENT = 703;
const HOLDER = 'gast@example.org';
const HOUR = 3_600_000;
const REMINDER_SWEEP = 'reminders.sweep';
const REMINDER_MAIL = 'reminders.mail';

let shop: FakeShop;
let sites: BackendProcess[] = [];
let smtp: SmtpSink;
let dataDir: string;
let smtpPort: number;

/** A free port nobody listens on yet: the mail server is down until the sink takes it. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `time` as WooCommerce writes an event's date: Berlin local time, no zone. */
const berlinLocal = (time: number) =>
  new Date(time).toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' });

beforeAll(async () => {
  smtpPort = await freePort();
  smtp = new SmtpSink();
  shop = await openFakeShop(
    new FakeWooCommerce({
      products: [wooEvent(EVENT, { price: '15.00', stock_quantity: 40, startsInDays: 14 })],
    }),
    'fault-kill-reminders',
    {
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'After Work Hamburg <tickets@fault.test>',
      REMINDER_HOURS_BEFORE: '24',
    },
  );
  ({ dataDir } = shop);
});

afterAll(async () => {
  for (const site of sites) await site.kill('SIGTERM');
  await smtp?.stop();
  await shop?.close();
});

interface JobRow {
  key: string | null;
  attempts: number;
  lease_until: number | null;
  next_attempt_at: number;
  done_at: number | null;
}

/** The store beside the processes: the ticket rows, the reminder jobs and the sweep's row. */
function store() {
  const db = new Database(join(dataDir, 'awhh.db'), { readonly: true, fileMustExist: true });
  try {
    const tickets = db.prepare('SELECT id FROM tickets').all() as { id: string }[];
    const jobs = (name: string) =>
      db
        .prepare(
          'SELECT key, attempts, lease_until, next_attempt_at, done_at FROM jobs WHERE name = ?',
        )
        .all(name) as JobRow[];
    return { tickets, reminders: jobs(REMINDER_MAIL), sweep: jobs(REMINDER_SWEEP) };
  } finally {
    db.close();
  }
}

/** Writes to the store (the processes wait for the lock: busy_timeout). */
function write(change: (db: Database.Database) => void) {
  const db = new Database(join(dataDir, 'awhh.db'), { fileMustExist: true, timeout: 5_000 });
  try {
    change(db);
  } finally {
    db.close();
  }
}

/**
 * The sweep runs every 5 minutes; a test cannot wait that long, so its row is made due
 * now, as if the 5 minutes had passed.
 */
const sweepDueNow = (db: Database.Database) =>
  db
    .prepare('UPDATE jobs SET next_attempt_at = 0 WHERE name = ? AND done_at IS NULL')
    .run(REMINDER_SWEEP);

/** The sweep has run since `since` (after a run it is due again 5 minutes later). */
const sweptSince = (since: number) =>
  store().sweep.some((s) => s.lease_until === null && s.next_attempt_at > since + 4 * 60_000);

const reminderMails = () => smtp.mails.filter((m) => m.subject?.startsWith('Erinnerung:'));
const recipient = (m: { to?: unknown }) =>
  ((m.to as { text?: string } | undefined)?.text ?? '').toLowerCase();

describe('fault: the checkout process killed with SIGKILL while a due reminder waits for its retry', () => {
  it('after the restart, with two processes sweeping, the holder gets the reminder exactly once', async () => {
    const first = await shop.start();
    sites.push(first);
    const port = first.port;
    const res = await createCheckout(first.url, [
      { productId: EVENT, name: `Testevent ${EVENT}`, amount: 15, quantity: 1 },
    ]);
    expect(res.status).toBe(201);
    const session = shop.stripe.session(((await res.json()) as { id: string }).id)!;
    const paid = sessionEvent(session, 'checkout.session.completed', {
      email: HOLDER,
      name: 'Gast Muster',
    });
    expect((await deliver(first.url, paid)).status).toBe(200);
    // The ticket is issued; the sweep ran at the start and found nothing due (14 days ahead).
    const before = Date.now();
    await eventually(
      async () => store().tickets.length === 1 && sweptSince(before - 10_000),
      20_000,
      'the ticket issued and the first sweep run',
    );
    expect(store().reminders).toHaveLength(0);
    await first.kill('SIGTERM');
    sites = [];

    // A day later: the evening starts in 23 hours, so its reminder (24 h before) is due, and
    // the ticket was bought three days ago. The sweep reads the ticket's own `starts_at` and
    // `issued_at` (reminders.repository.ts); the shop's date moves along with it.
    const startsAt = Date.now() + 23 * HOUR;
    const product = shop.woo.products.find((p) => p.id === EVENT)!;
    product.meta_data = product.meta_data.map((m) =>
      m.key === 'event_date' ? { ...m, value: berlinLocal(startsAt) } : m,
    );
    write((db) => {
      db.prepare('UPDATE tickets SET starts_at = ?, issued_at = ?').run(
        new Date(startsAt).toISOString(),
        Date.now() - 3 * 24 * HOUR,
      );
      sweepDueNow(db);
    });

    // The mail server is down: the sweep enqueues the reminder, whose first attempts fail.
    const second = await shop.start({ port });
    sites.push(second);
    await eventually(
      async () => {
        const { reminders } = store();
        const now = Date.now();
        return reminders.length === 1 && reminders.every((j) => waitsForRetry(j, now));
      },
      20_000,
      'the reminder enqueued and waiting for its retry',
    );
    await second.kill('SIGKILL');
    sites = [];
    expect(reminderMails()).toHaveLength(0);

    // Two processes at once, the mail server up, the sweep due again: both may sweep, both
    // race for the waiting job.
    write(sweepDueNow);
    const restarted = Date.now();
    await smtp.start(smtpPort);
    sites = await Promise.all([shop.start({ port }), startBackend(shop.env)]);
    await eventually(
      async () => reminderMails().length >= 1 && sweptSince(restarted),
      30_000,
      'the reminder sent after the restart and the sweep run again',
    );

    // Another sweep, as 5 minutes later, and time for a retry or a second sending.
    const later = Date.now();
    write(sweepDueNow);
    await eventually(async () => sweptSince(later), 10_000, 'a later sweep');
    await sleep(3_000);

    const mails = reminderMails();
    expect(mails).toHaveLength(1);
    expect(recipient(mails[0]!)).toBe(HOLDER);
    expect(mails[0]!.subject).toContain(`Testevent ${EVENT}`);
    const address = createHash('sha256').update(HOLDER).digest('base64url').slice(0, 32);
    const { reminders } = store();
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.key).toBe(`reminder:${EVENT}:${address}`);
    expect(reminders[0]!.done_at).not.toBeNull();
  }, 90_000);
});
