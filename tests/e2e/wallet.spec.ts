import { verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import {
  type AppleTestChain,
  type GoogleTestAccount,
  makeAppleTestChain,
  makeGoogleTestAccount,
  TEST_PASS_TYPE_ID,
} from '../../backend/test/tickets/support/wallet-keys.js';
import { axeViolations } from '../support/axe.js';
import { launchBrowser, openPage } from '../support/browser.js';
import { buyTickets } from '../support/door.js';
import { newestMail, type TestMail } from '../support/mailbox.js';
import { startTarget, type RunningSite } from '../support/site.js';

// rules "Wallet passes" in Chromium through the production topology, on a phone's width: a
// ticket bought through the site shows "Zu Apple Wallet hinzufügen" and "Zu Google Wallet
// hinzufügen" when the checkout side is set up for both (a certificate chain and a service
// account made for the run, as the backend's wallet spec makes them); the Apple link
// downloads the signed pass of that ticket, the Google button leads to Google's save link
// (caught with page.route, so nothing leaves the machine) whose JWT carries the same QR
// payload. The ticket mail links both. A site without them shows neither. Screenshots go
// to /tmp.

jest.setTimeout(300_000);

const EVENT = 'Sommer-Afterwork auf der MS Hamburg';
const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';
const TIER = 'Regulär';
const MOBILE = { width: 390, height: 844 };
const GOOGLE_SAVE = 'https://pay.google.com/gp/v/save/';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Only the variables that are set, as the stack's processes take them. */
function envOf(...parts: NodeJS.ProcessEnv[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const part of parts) {
    for (const [name, value] of Object.entries(part)) if (value !== undefined) env[name] = value;
  }
  return env;
}

/** One ticket bought through the site; its page's token, from the success page ("Dein Ticket"). */
async function buyOneTicket(site: RunningSite, page: Page): Promise<string> {
  const { tokens } = await buyTickets(page, site.url, {
    eventPath: EVENT_PATH,
    tier: TIER,
    quantity: 1,
  });
  return tokens[0]!;
}

/** The ticket mail to Karla from the test mailbox, once the job has sent it. */
function ticketMail(site: RunningSite): Promise<TestMail> {
  return newestMail(
    site.url,
    (m) => m.to === 'karla@example.org' && m.subject.startsWith('Deine Tickets'),
    { what: 'ticket mail to karla@example.org' },
  );
}

/** The page's wallet options have been asked for (the buttons show only after that). */
function walletOptionsAnswered(page: Page) {
  return page.waitForResponse((res) => new URL(res.url()).pathname === '/api/tickets/wallet');
}

describe('wallet passes on the ticket page (rules "Wallet passes")', () => {
  let site: RunningSite;
  let chain: AppleTestChain;
  let google: GoogleTestAccount;

  beforeAll(async () => {
    chain = makeAppleTestChain();
    google = makeGoogleTestAccount();
    site = await startTarget(envOf(chain.env, google.env));
  });

  afterAll(async () => {
    await site?.stop();
    chain?.remove();
  });

  it('set up: both buttons; the Apple link downloads the signed pass of the ticket, the Google button leads to a save link with its QR payload; the mail links both', async () => {
    const { page, context, errors } = await openPage(browser, { viewport: MOBILE });
    const token = await buyOneTicket(site, page);
    expect(token).not.toBe('');
    const ticket = (await (await fetch(`${site.url}/api/tickets/${token}`)).json()) as {
      id: string;
      eventName: string;
      holder: string;
    };

    await page.goto(`${site.url}/tickets/${token}`);
    await page.getByRole('heading', { level: 1, name: EVENT }).waitFor();
    const apple = page.getByRole('link', { name: 'Zu Apple Wallet hinzufügen' });
    const googleButton = page.getByRole('button', { name: 'Zu Google Wallet hinzufügen' });
    await apple.waitFor({ timeout: 20_000 });
    await googleButton.waitFor();
    await page.screenshot({ path: '/tmp/wallet-ticket-page.png', fullPage: true });
    // The buttons as the phone shows them, below the ticket's facts.
    await googleButton.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/wallet-ticket-buttons.png' });
    expect(await axeViolations(page)).toEqual([]);

    // Apple: the link's answer as the browser gets it, and the file it downloads.
    let answer: { status: number; headers: Record<string, string>; body: Buffer } | null = null;
    await page.route('**/wallet/apple', async (route) => {
      const response = await route.fetch();
      answer = {
        status: response.status(),
        headers: response.headers(),
        body: await response.body(),
      };
      await route.fulfill({ response });
    });
    const [download] = await Promise.all([page.waitForEvent('download'), apple.click()]);
    const file = readFileSync((await download.path())!);
    expect(answer).not.toBeNull();
    const got = answer!;
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/vnd.apple.pkpass');
    expect(download.suggestedFilename()).toMatch(/\.pkpass$/);
    expect(file.equals(got.body)).toBe(true);
    const files = unzipSync(new Uint8Array(file));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(['pass.json', 'manifest.json', 'signature']),
    );
    const pass = JSON.parse(Buffer.from(files['pass.json']!).toString('utf8')) as {
      passTypeIdentifier: string;
      serialNumber: string;
      barcodes: { format: string; message: string }[];
      eventTicket: {
        primaryFields: { value: string }[];
        auxiliaryFields: { key: string; value: string }[];
      };
    };
    expect(pass.passTypeIdentifier).toBe(TEST_PASS_TYPE_ID);
    expect(pass.serialNumber).toBe(ticket.id);
    // The same QR payload as the ticket page and the PDF: the signed token.
    expect(pass.barcodes).toEqual([
      expect.objectContaining({ format: 'PKBarcodeFormatQR', message: token }),
    ]);
    expect(pass.eventTicket.primaryFields[0]!.value).toBe(EVENT);
    expect(pass.eventTicket.auxiliaryFields).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: 'holder', value: 'Karla Kundin' })]),
    );

    // Google: the button leads to the save link; the navigation is answered here.
    let saveUrl = '';
    await page.route(`${GOOGLE_SAVE}**`, (route) => {
      saveUrl = route.request().url();
      return route.fulfill({
        status: 200,
        contentType: 'text/html; charset=utf-8',
        body: '<!doctype html><html lang="de"><title>Google Wallet</title><h1>Google Wallet</h1></html>',
      });
    });
    await googleButton.click();
    await page.waitForURL(`${GOOGLE_SAVE}**`);
    expect(saveUrl.startsWith(GOOGLE_SAVE)).toBe(true);
    const jwt = saveUrl.slice(GOOGLE_SAVE.length);
    const [header, claims, signature] = jwt.split('.') as [string, string, string];
    const json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    expect(json(header)).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    // Signed with the service account's key (RS256: RSASSA-PKCS1-v1_5 over SHA-256).
    expect(
      verify(
        'RSA-SHA256',
        Buffer.from(`${header}.${claims}`),
        google.publicKey,
        Buffer.from(signature, 'base64url'),
      ),
    ).toBe(true);
    const payload = json(claims) as Record<string, unknown>;
    expect(payload).toMatchObject({ iss: google.clientEmail, aud: 'google' });
    expect(payload).toMatchObject({ typ: 'savetowallet', origins: [new URL(site.url).origin] });
    const objects = (payload.payload as { eventTicketObjects: Record<string, unknown>[] })
      .eventTicketObjects;
    expect(objects).toEqual([
      expect.objectContaining({
        barcode: expect.objectContaining({ type: 'QR_CODE', value: token }),
        ticketHolderName: 'Karla Kundin',
      }),
    ]);
    expect(errors).toEqual([]);
    await context.close();

    // The ticket mail links both for this ticket, and the links lead there.
    const mail = await ticketMail(site);
    const base = `${site.url}/api/tickets/${token}/wallet`;
    expect(mail.text).toContain(`Zu Apple Wallet hinzufügen: ${base}/apple`);
    expect(mail.text).toContain(`Zu Google Wallet hinzufügen: ${base}/google/save`);
    expect(mail.html).toContain(`href="${base}/apple"`);
    expect(mail.html).toContain(`href="${base}/google/save"`);
    const fromMail = await fetch(`${base}/apple`);
    expect(fromMail.status).toBe(200);
    expect(fromMail.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
    const save = await fetch(`${base}/google/save`, { redirect: 'manual' });
    expect(save.status).toBe(303);
    expect(save.headers.get('location')?.startsWith(GOOGLE_SAVE)).toBe(true);
  });
});

describe('wallet passes on a site without them (rules "Wallet passes")', () => {
  let site: RunningSite;

  beforeAll(async () => {
    site = await startTarget();
  });

  afterAll(async () => {
    await site?.stop();
  });

  it('not set up: the ticket page offers no wallet, and the mail names none', async () => {
    const { page, context, errors } = await openPage(browser, { viewport: MOBILE });
    const token = await buyOneTicket(site, page);
    const options = walletOptionsAnswered(page);
    await page.goto(`${site.url}/tickets/${token}`);
    await page.getByRole('heading', { level: 1, name: EVENT }).waitFor();
    expect(await (await options).json()).toEqual({ apple: false, google: false });
    // The answer has been rendered (or not) by the time the page is idle again.
    await page.waitForLoadState('networkidle');
    expect(await page.getByText(/Wallet/).count()).toBe(0);
    await page.screenshot({ path: '/tmp/wallet-ticket-page-off.png', fullPage: true });
    expect(errors).toEqual([]);
    await context.close();

    const mail = await ticketMail(site);
    expect(mail.text).not.toContain('Wallet');
    expect(mail.html).not.toContain('Wallet');
  });
});
