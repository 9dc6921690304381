import { createServer } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { wooEvent } from '../support/woocommerce-fixtures.js';
import { deliver, type FakeSession, sessionEvent } from '../support/fake-stripe.js';
import {
  type BackendProcess,
  createCheckout,
  eventually,
  waitsForRetry,
  sleep,
} from './support/backend-process.js';
import { openFakeShop, type FakeShop } from './support/fake-shop.js';

/**
 * rules "Tickets and the door" (E-mail: once per paid order, through a job): the
 * tickets are issued in the paid transition and the mail is a job of the same
 * transaction, so a process killed outright between issuing and sending (OOM killer,
 * `docker kill`) loses no mail, and a restart sends none twice.
 */

let shop: FakeShop;
let site: BackendProcess | null = null;
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

beforeAll(async () => {
  smtpPort = await freePort();
  smtp = new SmtpSink();
  shop = await openFakeShop(
    new FakeWooCommerce({ products: [wooEvent(702, { price: '20.00', stock_quantity: 40 })] }),
    'fault-kill-mail',
    {
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'After Work Hamburg <tickets@fault.test>',
    },
  );
  ({ dataDir } = shop);
});

afterAll(async () => {
  await smtp?.stop();
  await shop?.close();
});

/** The store beside the process: ticket rows and the mail jobs waiting for their retry. */
function store() {
  const db = new Database(join(dataDir, 'awhh.db'), { readonly: true, fileMustExist: true });
  try {
    const tickets = db.prepare('SELECT order_id FROM tickets').all() as { order_id: string }[];
    const jobs = db
      .prepare(
        "SELECT subject AS order_id, attempts, lease_until, next_attempt_at, done_at FROM jobs WHERE name = 'ticket-mail'",
      )
      .all() as {
      order_id: string;
      attempts: number;
      lease_until: number | null;
      next_attempt_at: number;
      done_at: number | null;
    }[];
    return { tickets, jobs };
  } finally {
    db.close();
  }
}

describe('fault: the checkout process killed with SIGKILL between issuing the tickets and sending their mail', () => {
  it('after the restart every paid order gets its ticket mail exactly once', async () => {
    site = await shop.start();
    const port = site.port;
    const sessions: FakeSession[] = [];
    for (let i = 0; i < 2; i += 1) {
      const res = await createCheckout(site.url, [
        { productId: 702, name: 'Testevent 702', amount: 20, quantity: i + 1 },
      ]);
      expect(res.status).toBe(201);
      sessions.push(shop.stripe.session(((await res.json()) as { id: string }).id)!);
    }
    for (const [i, session] of sessions.entries()) {
      const event = sessionEvent(session, 'checkout.session.completed', {
        email: `gast${i}@example.org`,
        name: `Gast ${i} Muster`,
      });
      expect((await deliver(site.url, event)).status).toBe(200);
    }

    // The tickets are issued with the payment (1 + 2 seats); the mail server is down, so
    // each mail job failed once and waits, unleased, for its retry. Killing now is killing
    // between issuing and sending.
    await eventually(
      async () => {
        const { tickets, jobs } = store();
        const now = Date.now();
        return (
          tickets.length === 3 && jobs.length === 2 && jobs.every((j) => waitsForRetry(j, now))
        );
      },
      20_000,
      'tickets issued and each mail waiting for its retry',
    );
    await site.kill('SIGKILL');
    site = null;
    expect(smtp.mails).toHaveLength(0);

    await smtp.start(smtpPort);
    site = await shop.start({ port });
    await eventually(
      async () => smtp.mails.length >= 2,
      40_000,
      'both ticket mails sent after the restart',
    );
    // Time for a second sending, had there been one; Stripe's retries change nothing either.
    for (const session of sessions) {
      await deliver(site.url, sessionEvent(session, 'checkout.session.completed'));
    }
    await sleep(2_000);
    expect(smtp.mails).toHaveLength(2);
    const recipients = smtp.mails.map((m) => m.to && 'text' in m.to && m.to.text).sort();
    expect(recipients).toEqual(['gast0@example.org', 'gast1@example.org']);
    for (const mail of smtp.mails) {
      expect(mail.subject).toMatch(/Ticket/);
      expect(mail.attachments.filter((a) => a.contentType === 'application/pdf').length).toBe(
        mail.to && 'text' in mail.to && mail.to.text === 'gast1@example.org' ? 2 : 1,
      );
    }
    expect(store().jobs.every((j) => j.done_at !== null)).toBe(true);
  }, 90_000);
});
