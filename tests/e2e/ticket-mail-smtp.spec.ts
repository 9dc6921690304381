import type { JsonWebKey } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { openPage } from '../support/browser.js';
import { addTierToCart, payInTestMode } from '../support/journeys.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { jsQR, verifiesWith } from '../support/tickets.js';

// rules "Tickets and the door" with a real mail server: a purchase made in Chromium
// (payments still on the test provider) is mailed over SMTP_URL; the mail's ticket link
// leads to a QR code that decodes to a token signed by the site; a refund revokes it.

const EVENT = 'Sommer-Afterwork auf der MS Hamburg';
const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';
const TIER = 'Regulär';

let smtp: SmtpSink;
let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  ({ site, browser } = await startSiteAndBrowser({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'After Work Hamburg <tickets@awhh.test>',
  }));
});

afterAll(async () => {
  await stopSiteAndBrowser({ site, browser });
  await smtp?.stop();
});

async function eventually(condition: () => boolean, timeoutMs: number, what: string) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`not in time: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('ticket mail over SMTP', () => {
  it('a purchase in Chromium arrives at the SMTP server: German, a PDF per ticket, the .ics, a ticket link whose QR code verifies; a refund revokes the ticket and tells the buyer', async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${site.url}${EVENT_PATH}`);
    await addTierToCart(page, TIER, 2);
    await page.goto(`${site.url}/checkout`);
    await payInTestMode(page);
    const sessionId = new URL(page.url()).searchParams.get('session_id');
    expect(sessionId).toBeTruthy();
    // Mail goes over SMTP, so the test mailbox is not offered.
    const tickets = page.getByRole('region', { name: 'Deine Tickets' });
    await tickets
      .getByRole('link', { name: /^Dein Ticket für/ })
      .first()
      .waitFor();
    expect(await tickets.getByRole('link', { name: 'Zum Testpostfach' }).count()).toBe(0);

    await eventually(() => smtp.mails.length >= 1, 20_000, 'the ticket mail at the SMTP server');
    const [mail] = smtp.mails;
    expect(smtp.mails).toHaveLength(1);
    expect(mail!.to && 'text' in mail!.to ? mail!.to.text : '').toBe('karla@example.org');
    expect(mail!.from?.value[0]).toMatchObject({
      name: 'After Work Hamburg',
      address: 'tickets@awhh.test',
    });
    expect(mail!.subject).toMatch(/Deine Tickets/);
    expect(mail!.text).toContain('Karla');
    expect(mail!.html).toContain(EVENT);
    const pdfs = mail!.attachments.filter((a) => a.contentType === 'application/pdf');
    expect(pdfs).toHaveLength(2);
    for (const pdf of pdfs) expect(pdf.content.subarray(0, 5).toString()).toBe('%PDF-');
    const calendars = mail!.attachments.filter((a) => a.contentType.startsWith('text/calendar'));
    expect(calendars).toHaveLength(1);
    expect(calendars[0]!.content.toString()).toContain('BEGIN:VEVENT');

    // The mail's link to the first ticket, opened as the buyer would.
    const links = [...String(mail!.html).matchAll(/href="([^"]*\/tickets\/[^"]+)"/g)].map((m) =>
      m[1]!.replace(/&amp;/g, '&'),
    );
    expect(new Set(links).size).toBe(2);
    const ticketPath = new URL(links[0]!).pathname;
    await page.goto(`${site.url}${ticketPath}`);
    await page.getByRole('heading', { level: 1, name: EVENT }).waitFor();
    const token = decodeURIComponent(ticketPath.split('/').pop()!);
    const png = PNG.sync.read(await page.getByRole('img', { name: /QR-Code/ }).screenshot());
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(token);
    const jwk = (await (await fetch(`${site.url}/api/tickets/public-key`)).json()) as JsonWebKey;
    expect(verifiesWith(token, jwk)).toBe(true);

    // The organizer refunds the payment (the test provider stands in for Stripe's dashboard).
    await page.goto(`${site.url}/api/checkout/test-provider/${sessionId}`);
    await page.getByRole('button', { name: 'Zahlung erstatten (Testmodus)' }).click();
    await page.getByText('Diese Zahlung wurde erstattet').waitFor();
    await page.goto(`${site.url}${ticketPath}`);
    await page.getByText('Storniert', { exact: true }).waitFor();
    expect(await page.getByRole('img', { name: /QR-Code/ }).count()).toBe(0);
    // rules "When a ticket stops admitting": the buyer is told, once, with the amount.
    await eventually(() => smtp.mails.length >= 2, 20_000, 'the cancellation notice');
    const notice = smtp.mails[1]!;
    expect(notice.to && 'text' in notice.to ? notice.to.text : '').toBe('karla@example.org');
    expect(notice.subject).toBe(`Storniert: deine Tickets für „${EVENT}“`);
    expect(notice.text).toContain('wurden storniert');
    expect(notice.text).toMatch(/Erstattet wurden insgesamt \d+,\d{2}\s€/);
    expect(notice.text).not.toContain(token);
    expect(smtp.mails).toHaveLength(2);

    expect(errors).toEqual([]);
    await context.close();
  });
});
