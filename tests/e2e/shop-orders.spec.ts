import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../support/axe.js';
import { launchBrowser, openPage } from '../support/browser.js';
import { buyTickets, moveEventToTonight } from '../support/door.js';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { stopSiteAndBrowser } from '../support/lifecycle.js';
import { startTarget, type RunningSite } from '../support/site.js';
import { runOnStore } from '../support/store.js';
import { recordedShop, type WooOrder } from '../support/woocommerce-fixtures.js';

// rules "Cancelled in the shop" and "Orders made in the shop" in Chromium, with the one
// fake WooCommerce sending its signed webhooks to the site: an order bought on the site
// and cancelled in the shop is "Storniert" on its ticket page and at /einlass; an order
// made in the shop (a guest list) gets its ticket mail on /mail-test, valid at /einlass;
// a cancellation whose webhook is lost is applied by the sweep, made due at once as the
// runner would find it after five minutes. Screenshots go to /tmp.

jest.setTimeout(180_000);

const EVENT = 'Sommer-Afterwork auf der MS Hamburg';
const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';
const EVENT_ID = 42;
const REGULAR = 44;
const SECRET = 'whsec_browser_shop';
const CODE = 'Skj2-Tyax-2yc8-Jqj2';

let woo: FakeWooCommerce;
let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  woo = await FakeWooCommerce.start(recordedShop());
  site = await startTarget({
    ...woo.env,
    CATALOG_TTL_SECONDS: '0',
    WOOCOMMERCE_WEBHOOK_SECRET: SECRET,
    CHECKIN_CODE: CODE,
  });
  // As the organizer sets them up in WooCommerce (docs/operations.md "WooCommerce webhooks").
  const deliveryUrl = `${site.url}/api/webhooks/woocommerce`;
  for (const topic of ['order.created', 'order.updated', 'order.deleted']) {
    await woo.addWebhook({ topic, deliveryUrl, secret: SECRET });
  }
  expect(woo.deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
  browser = await launchBrowser();
});

afterAll(async () => {
  await stopSiteAndBrowser({ site, browser });
  await woo?.stop();
});

async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, what: string) {
  const start = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - start > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function ticketStatus(token: string): Promise<string> {
  const res = await fetch(`${site.url}/api/tickets/${encodeURIComponent(token)}`);
  return ((await res.json()) as { status: string }).status;
}

/** /einlass unlocked with the door code, the event chosen, a ticket's token typed in. */
async function doorVerdict(page: Page, token: string, kind: string) {
  await page.goto(`${site.url}/einlass`);
  await page.getByRole('heading', { level: 1, name: 'Einlass' }).waitFor();
  await page.getByLabel('Türcode').fill(CODE);
  await page.getByRole('button', { name: 'Entsperren' }).click();
  await page.getByRole('heading', { level: 1, name: 'Event wählen' }).waitFor();
  await page.getByRole('button', { name: new RegExp(`^${EVENT}`) }).click();
  await page.getByRole('heading', { level: 1, name: EVENT }).waitFor();
  await page.getByLabel('Ticket-Code eingeben').fill(token);
  await page.getByRole('button', { name: 'Prüfen' }).click();
  const shown = page.locator(`[data-verdict="${kind}"]`);
  await shown.waitFor({ timeout: 5_000 });
  return (await shown.textContent()) ?? '';
}

/**
 * The sweep's recurring job made due now in the site's store (its SQLite file, or
 * DATABASE_URL's PostgreSQL), as shop-handoff.spec makes a job due again: the runner polls
 * every second.
 */
async function sweepNow(): Promise<void> {
  await runOnStore(
    site.dataDir,
    "update jobs set next_attempt_at = ? where name = 'shop-order-sweep'",
    [Date.now()],
  );
}

describe('the shop and the site never disagree', () => {
  it('rules "Cancelled in the shop": bought on the site, cancelled in the shop: "Storniert" on the ticket page and at /einlass', async () => {
    const { page, errors, context } = await openPage(browser);
    const before = new Set(woo.orders.map((o) => o.id));
    const { tokens } = await buyTickets(page, site.url, {
      eventPath: EVENT_PATH,
      tier: 'Regulär',
      quantity: 1,
    });
    const handedOff = await eventually(
      () => woo.orders.find((o) => !before.has(o.id) && o.status === 'processing'),
      'the hand-off',
    );
    await woo.settleWebhooks();

    // The organizer cancels it in WooCommerce; its signed webhook reaches the site.
    woo.setOrderStatus(handedOff.id, 'cancelled');
    await woo.settleWebhooks();
    expect(woo.deliveries.at(-1)).toMatchObject({ topic: 'order.updated', status: 200 });
    await eventually(async () => (await ticketStatus(tokens[0]!)) === 'revoked', 'the revocation');

    await page.goto(`${site.url}/tickets/${encodeURIComponent(tokens[0]!)}`);
    await page.getByRole('status').getByText('Storniert', { exact: true }).waitFor();
    expect(await page.getByRole('img', { name: /QR-Code/ }).count()).toBe(0);
    await page.screenshot({ path: '/tmp/shop-cancelled-ticket.png', fullPage: true });
    expect(await axeViolations(page, { iframes: false })).toEqual([]);

    await moveEventToTonight(site.dataDir, EVENT_ID);
    const door = await openPage(browser);
    expect(await doorVerdict(door.page, tokens[0]!, 'revoked')).toContain('Storniert');
    await door.page.screenshot({ path: '/tmp/shop-cancelled-door.png' });
    expect(errors).toEqual([]);
    await door.context.close();
    await context.close();
  });

  it('rules "Orders made in the shop": a guest list entered in the shop gets its ticket mail on /mail-test, valid at /einlass as "Gästeliste"', async () => {
    const order: WooOrder = woo.placeOrder({
      status: 'completed',
      billing: { first_name: 'Gustav', last_name: 'Gast', email: 'gustav@example.org' },
      line_items: [
        {
          product_id: EVENT_ID,
          variation_id: REGULAR,
          quantity: 1,
          subtotal: '0.00',
          total: '0.00',
        },
      ],
    });
    expect(order.total).toBe('0.00');
    await woo.settleWebhooks();

    const { page, errors, context } = await openPage(browser);
    await page.goto(`${site.url}/mail-test`);
    await page.getByRole('heading', { level: 1, name: 'Testpostfach' }).waitFor();
    const mail = page
      .getByRole('navigation', { name: 'Mails' })
      .getByRole('button', { name: /gustav@example\.org/ });
    await mail.first().waitFor({ timeout: 20_000 });
    await mail.first().click();
    await page.getByText(`Gästeliste: Deine Tickets für „${EVENT}“`).first().waitFor();
    const link = page
      .frameLocator('iframe')
      .getByRole('link', { name: 'Ticket mit QR-Code öffnen' });
    const href = (await link.getAttribute('href')) ?? '';
    const token = decodeURIComponent(href.split('/tickets/')[1] ?? '');
    expect(token.split('.')).toHaveLength(3);
    await page.screenshot({ path: '/tmp/shop-guest-mail.png', fullPage: true });

    await page.goto(`${site.url}/tickets/${encodeURIComponent(token)}`);
    await page.getByRole('heading', { level: 1, name: EVENT }).waitFor();
    await page.getByText('Gästeliste', { exact: true }).waitFor();
    await page.getByText('Gustav Gast').waitFor();
    await page.getByText(String(order.number)).waitFor();
    await page.screenshot({ path: '/tmp/shop-guest-ticket.png', fullPage: true });
    expect(await axeViolations(page, { iframes: false })).toEqual([]);

    await moveEventToTonight(site.dataDir, EVENT_ID);
    const door = await openPage(browser);
    const verdict = await doorVerdict(door.page, token, 'valid');
    expect(verdict).toContain('Gültig');
    expect(verdict).toContain('Gustav Gast');
    expect(verdict).toContain('Gästeliste');
    await door.page.screenshot({ path: '/tmp/shop-guest-door.png' });
    expect(errors).toEqual([]);
    await door.context.close();
    await context.close();
  });

  it('rules "Orders made in the shop": a cancellation whose webhook is lost is applied by the sweep, shown on /webhook-test', async () => {
    const order = woo.placeOrder({
      status: 'processing',
      billing: { first_name: 'Paula', last_name: 'Telefon', email: 'paula@example.org' },
      line_items: [{ product_id: EVENT_ID, variation_id: REGULAR, quantity: 1 }],
    });
    await woo.settleWebhooks();
    const token = await eventually(async () => {
      const res = await fetch(`${site.url}/api/mail-test/messages`);
      const mails = (await res.json()) as { id: string; to: string }[];
      const found = mails.find((m) => m.to === 'paula@example.org');
      if (!found) return undefined;
      const message = (await (
        await fetch(`${site.url}/api/mail-test/messages/${found.id}`)
      ).json()) as { text: string };
      return /\/tickets\/([\w.-]+)/.exec(message.text)?.[1];
    }, "the phone sale's ticket mail");
    expect(await ticketStatus(token)).toBe('valid');

    // Cancelled in the shop; WooCommerce's delivery never arrives.
    woo.loseDeliveries(1);
    woo.setOrderStatus(order.id, 'cancelled');
    await woo.settleWebhooks();
    expect(woo.deliveries.at(-1)?.status).toBe('lost');
    expect(await ticketStatus(token)).toBe('valid');

    await sweepNow();
    await eventually(async () => (await ticketStatus(token)) === 'revoked', 'the sweep');

    const { page, errors, context } = await openPage(browser);
    await page.goto(`${site.url}/tickets/${encodeURIComponent(token)}`);
    await page.getByRole('status').getByText('Storniert', { exact: true }).waitFor();

    await page.goto(`${site.url}/webhook-test`);
    await page.getByRole('heading', { name: 'Abgleich mit dem Shop' }).waitFor();
    await page.getByText('Letzter Abgleich').waitFor();
    await page.getByRole('cell', { name: 'Abgleich' }).first().waitFor();
    await page.getByRole('cell', { name: 'tickets_revoked' }).first().waitFor();
    await page.screenshot({ path: '/tmp/shop-sweep-webhook-test.png', fullPage: true });
    expect(await axeViolations(page, { iframes: false })).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
