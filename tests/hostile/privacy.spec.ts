import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createCheckout, eventually } from '../fault/support/backend-process.js';
import { REPO_ROOT, startSite, type RunningSite } from '../support/site.js';
import { SmtpSink } from '../support/smtp-sink.js';

/**
 * The built `npm start` process as an auditor sees it (docs/privacy.md): the store's files
 * are private, /datenschutz states the configured periods in its server HTML, the erasure
 * job logs counts only, `npm run privacy:erase` erases an address, and the ticket mail never
 * goes to a mail server in plain text.
 */

const run = promisify(execFile);
const CLI = join(REPO_ROOT, 'backend', 'dist', 'privacy-erase.cli.js');

interface EventInfo {
  id: number;
  name: string;
  price: number;
  startsAt: string | null;
  past?: boolean;
  availability: string;
  variants: { id: number; price: number; availability: string }[];
}

/** One seat of the first upcoming event with places, as the cart would send it. */
async function anEventLine(site: RunningSite) {
  const events = (await (await fetch(`${site.url}/api/events`)).json()) as EventInfo[];
  for (const event of events) {
    if (!event.startsAt || event.past || event.availability === 'sold_out') continue;
    const variant = event.variants.find((v) => v.availability !== 'sold_out');
    if (event.variants.length > 0 && !variant) continue;
    return {
      productId: event.id,
      ...(variant ? { variationId: variant.id } : {}),
      name: event.name,
      amount: variant?.price ?? event.price,
      quantity: 1,
    };
  }
  throw new Error('the demo catalog has no upcoming event with places');
}

async function erase(databaseUrl: string, ...args: string[]) {
  return run(process.execPath, [CLI, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl },
  }).catch((err: { code: number; stdout: string; stderr: string }) => err);
}

describe('personal data on npm start', () => {
  let site: RunningSite;
  let databaseUrl: string;

  beforeAll(async () => {
    site = await startSite({ LOG_LEVEL: 'info', PERSONAL_DATA_DAYS_AFTER_EVENT: '45' });
  }, 60_000);

  afterAll(async () => {
    await site?.stop();
  });

  it('keeps the store in a folder and files nobody else can read', () => {
    databaseUrl = `sqlite:${join(site.dataDir, 'awhh.db')}`;
    for (const file of ['awhh.db', 'awhh.db-wal', 'awhh.db-shm']) {
      expect(statSync(join(site.dataDir, file)).mode & 0o777).toBe(0o600);
    }
  });

  it('/datenschutz states the configured periods in its server HTML', async () => {
    // React separates text pieces with empty comments.
    const html = (await (await fetch(`${site.url}/datenschutz`)).text()).replaceAll('<!-- -->', '');
    expect(html).toContain('Speicherdauer');
    expect(html).toMatch(/45 Tage nach der letzten Veranstaltung der Bestellung/);
    expect(html).toMatch(/Nachrichten löschen wir nach 90 Tagen/);
    expect(html).toMatch(/nach 7 Tagen/);
  });

  it('the erasure job runs at start-up and logs counts only', async () => {
    await eventually(
      async () => site.logs().includes('personal data past its retention period erased'),
      10_000,
      'the erasure job in the log',
    );
    const line = site
      .logs()
      .split('\n')
      .find((l) => l.includes('personal data past its retention period erased'))!;
    // Counts and nothing else.
    expect(JSON.parse(line).message).toEqual({
      msg: 'personal data past its retention period erased',
      orders: 0,
      tickets: 0,
      scans: 0,
      mails: 0,
      contactMessages: 0,
      waitlistEntries: 0,
      reminderAddresses: 0,
      organizerSessions: 0,
    });
  });

  it('npm run privacy:erase erases an address and says what it did', async () => {
    const contact = await fetch(`${site.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Greta Gast',
        email: 'Greta.Gast@Example.org',
        message: 'Bitte löscht meine Daten.',
        consent: true,
      }),
    });
    expect(contact.status).toBeLessThan(300);

    const done = await erase(databaseUrl, 'greta.gast@example.ORG');
    expect(done).toMatchObject({
      stdout: expect.stringMatching(/Kontaktnachrichten gelöscht:\s+1\n/),
    });
    const again = await erase(databaseUrl, 'greta.gast@example.org');
    expect(again.stdout).toContain('Zu greta.gast@example.org ist nichts gespeichert.');

    const usage = await erase(databaseUrl);
    expect(usage).toMatchObject({ code: 2, stdout: expect.stringContaining('Aufruf:') });
  });
});

/** An address of this machine that is not loopback: a mail server "elsewhere". */
function otherAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
}

const elsewhere = otherAddress();

// Without a network interface there is no address that is not loopback to listen on; the
// transport's choice is then covered by backend/test/tickets/smtp-transport.spec.ts alone.
(elsewhere ? describe : describe.skip)('the ticket mail and a server without STARTTLS', () => {
  let site: RunningSite;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await new SmtpSink({ host: elsewhere, auth: true }).start();
    const url = new URL(smtp.url);
    url.username = 'tickets';
    url.password = 'geheim-smtp';
    site = await startSite({ LOG_LEVEL: 'info', SMTP_URL: url.href.replace(/\/$/, '') });
  }, 60_000);

  afterAll(async () => {
    await site?.stop();
    await smtp?.stop();
  });

  it('gets neither the password nor the mail', async () => {
    const created = await createCheckout(site.url, [await anEventLine(site)], {
      email: 'smtp.test@example.org',
    });
    expect(created.status).toBe(201);
    const { url: payUrl } = (await created.json()) as { url: string };
    const paid = await fetch(`${payUrl}/pay`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'smtp.test@example.org', name: 'Sam Test' }).toString(),
    });
    expect(paid.status).toBe(303);
    // The outbox tries: the server is reached, and refused for want of STARTTLS.
    await eventually(async () => smtp.connections > 0, 20_000, 'a connection to the server');
    await eventually(async () => /STARTTLS/.test(site.logs()), 20_000, 'the refusal in the log');
    expect(smtp.logins).toEqual([]);
    expect(smtp.mails).toEqual([]);
  });
});
