import type { JsonWebKey } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { axeViolations } from '../support/axe.js';
import { openPage } from '../support/browser.js';
import { addTierToCart, payInTestMode } from '../support/journeys.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';
import { jsQR, tampered, verifiesWith } from '../support/tickets.js';

// rules "Tickets and the door" on the embedded defaults: two seats bought with the test
// provider become two tickets, listed on /success, each with its own page and QR code,
// and one mail with two PDFs in the test mailbox (/mail-test).

const EVENT = 'Sommer-Afterwork auf der MS Hamburg';
const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';
const TIER = 'Regulär';

let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  ({ site, browser } = await startSiteAndBrowser());
});

afterAll(() => stopSiteAndBrowser({ site, browser }));

/** Two seats of one tier → Kasse → the test provider's page → paid → /success. */
async function buyTwoTickets(page: Page) {
  await page.goto(`${site.url}${EVENT_PATH}`);
  await addTierToCart(page, TIER, 2);
  await page.goto(`${site.url}/checkout`);
  await payInTestMode(page);
}

// The mail's sandboxed frame runs no script, so axe cannot enter it (legacy mode skips it).
const AXE = { iframes: false, legacy: false };

describe('tickets', () => {
  it('2 seats → 2 tickets on /success → ticket page with a QR code that verifies → mail with 2 PDFs on /mail-test', async () => {
    const { page, errors, context } = await openPage(browser);
    await buyTwoTickets(page);

    const list = page.getByRole('region', { name: 'Deine Tickets' });
    const links = list.getByRole('link', { name: /^Dein Ticket für/ });
    await links.first().waitFor();
    expect(await links.allTextContents()).toEqual([
      `Dein Ticket für ${EVENT} – ${TIER} (1 von 2)`,
      `Dein Ticket für ${EVENT} – ${TIER} (2 von 2)`,
    ]);
    await list.getByText(/Deine Tickets kommen auch per E-Mail/).waitFor();
    const mailbox = list.getByRole('link', { name: 'Zum Testpostfach' });
    expect(await mailbox.getAttribute('href')).toBe('/mail-test');
    expect(await axeViolations(page, AXE)).toEqual([]);

    await links.nth(1).click();
    await page.waitForURL('**/tickets/*');
    const token = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.getByRole('heading', { level: 1, name: EVENT }).waitFor();
    await page.getByText('Ticket 2 von 2').first().waitFor();
    // rules "Named tickets": the second seat carries no name yet; its page asks for one.
    const holder = page.getByRole('region', { name: 'Wer kommt mit diesem Ticket?' });
    expect(await holder.getByLabel('Vor- und Nachname').inputValue()).toBe('');
    await page.getByText('Zeig diesen Code am Einlass.').waitFor();

    // The QR code as the browser paints it decodes to the page's token, signed by the site.
    const qr = page.getByRole('img', { name: /QR-Code/ });
    const png = PNG.sync.read(await qr.screenshot());
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(token);
    const jwk = (await (await fetch(`${site.url}/api/tickets/public-key`)).json()) as JsonWebKey;
    expect(verifiesWith(token, jwk)).toBe(true);
    expect(verifiesWith(tampered(token), jwk)).toBe(false);

    const pdfHref = await page
      .getByRole('link', { name: 'Als PDF speichern' })
      .getAttribute('href');
    const pdf = await fetch(`${site.url}${pdfHref}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toMatch(/^application\/pdf/);
    const ics = await page
      .getByRole('link', { name: 'Zum Kalender hinzufügen' })
      .getAttribute('href');
    expect((await fetch(`${site.url}${ics}`)).headers.get('content-type')).toMatch(
      /^text\/calendar/,
    );
    const robots = await page.locator('meta[name="robots"]').getAttribute('content');
    expect(robots).toBe('noindex, nofollow');
    expect(await axeViolations(page, AXE)).toEqual([]);

    // The outbox sends within seconds; the page refreshes itself.
    await page.goto(`${site.url}/mail-test`);
    await page.getByRole('heading', { level: 1, name: 'Testpostfach' }).waitFor();
    const mail = page
      .getByRole('navigation', { name: 'Mails' })
      .getByRole('button', { name: /karla@example\.org/ });
    await mail.first().waitFor({ timeout: 20_000 });
    expect(await mail.count()).toBe(1);
    const attachments = page.getByRole('region', { name: 'Anhänge' }).getByRole('link');
    await attachments.first().waitFor();
    const names = await attachments.allTextContents();
    expect(names.filter((n) => n.endsWith('.pdf'))).toHaveLength(2);
    expect(names.filter((n) => n.endsWith('.ics'))).toHaveLength(1);
    const frame = page.locator('iframe');
    expect(await frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    await page.frameLocator('iframe').getByText(EVENT).first().waitFor();
    expect(await axeViolations(page, { ...AXE, legacy: true })).toEqual([]);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('an unknown token gets the German not-found state, kept out of the index', async () => {
    const { page, context } = await openPage(browser);
    const response = await page.goto(`${site.url}/tickets/eyJhbGciOiJFZERTQSJ9.e30.AAAA`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toMatch(/Ticket/);
    await page.getByRole('heading', { level: 1, name: 'Ticket nicht gefunden' }).waitFor();
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe(
      'noindex, nofollow',
    );
    await context.close();
  });
});
