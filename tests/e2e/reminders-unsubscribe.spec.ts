import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { axeViolations } from '../support/axe.js';
import { openPage } from '../support/browser.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';

// rules "Reminders": the mails' "Keine Erinnerungen mehr" link in Chromium through the
// production topology, on a phone's width. The page (served by the checkout side, plain HTML
// without scripts) asks first and stops reminders only when its button is pressed; here by
// keyboard alone. The address's token is written into the store as the reminder mail's job
// writes it on its first reminder (`reminder_addresses`): when that mail goes out is the
// reminders' API spec's business. Screenshots go to /tmp.

jest.setTimeout(120_000);

const MOBILE = { width: 390, height: 844 };
const EMAIL = 'anna@example.org';

let site: RunningSite;
let browser: Browser;
let token: string;

const store = () => new Database(join(site.dataDir, 'awhh.db'), { fileMustExist: true });

function unsubscribedAt(): number | null {
  const db = store();
  try {
    const row = db
      .prepare('select unsubscribed_at from reminder_addresses where email = ?')
      .get(EMAIL) as { unsubscribed_at: number | null };
    return row.unsubscribed_at;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  ({ site, browser } = await startSiteAndBrowser());
  token = randomBytes(24).toString('base64url');
  const db = store();
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(
      'insert into reminder_addresses (email, token, unsubscribed_at, created_at) values (?, ?, null, ?)',
    ).run(EMAIL, token, Date.now());
  } finally {
    db.close();
  }
});

afterAll(() => stopSiteAndBrowser({ site, browser }));

describe('unsubscribing from reminders (rules "Reminders")', () => {
  it('asks in German, is axe clean at 390 px, and unsubscribes by keyboard alone', async () => {
    const { page, context, errors } = await openPage(browser, { viewport: MOBILE });
    const res = await page.goto(`${site.url}/api/reminders/unsubscribe/${token}`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    await page.getByRole('heading', { level: 1, name: 'Keine Erinnerungen mehr?' }).waitFor();
    await page.getByText('Deine Tickets bleiben gültig.').waitFor();
    expect(await page.title()).toBe('Keine Erinnerungen mehr? – After Work Hamburg');
    // Nothing changes by opening the link (a mail scanner follows links).
    expect(unsubscribedAt()).toBeNull();
    await page.screenshot({ path: '/tmp/reminders-unsubscribe-ask.png', fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    // No horizontal scrolling at a phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      MOBILE.width,
    );

    // The keyboard reaches the button with Tab, and Enter sends the form.
    const button = page.getByRole('button', { name: 'Erinnerungen abbestellen' });
    for (let i = 0; i < 5 && !(await button.evaluate((b) => b === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    expect(await button.evaluate((b) => b === document.activeElement)).toBe(true);
    // Its focus is visible: the outline the page draws for keyboard focus.
    expect(await button.evaluate((b) => getComputedStyle(b).outlineStyle)).toBe('solid');
    await page.screenshot({ path: '/tmp/reminders-unsubscribe-focus.png' });
    await Promise.all([
      page.waitForURL(`**/api/reminders/unsubscribe/${token}`),
      page.keyboard.press('Enter'),
    ]);
    await page.getByRole('heading', { level: 1, name: 'Erinnerungen abbestellt' }).waitFor();
    await page
      .getByText('Du bekommst keine Erinnerungen und keinen Dank nach dem Event mehr.')
      .waitFor();
    expect(unsubscribedAt()).toEqual(expect.any(Number));
    await page.screenshot({ path: '/tmp/reminders-unsubscribe-done.png', fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.getByRole('link', { name: 'Zur Startseite' }).getAttribute('href')).toBe(
      site.url,
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an unknown link says so in German, axe clean', async () => {
    const { page, context } = await openPage(browser, { viewport: MOBILE });
    await page.goto(`${site.url}/api/reminders/unsubscribe/${'x'.repeat(32)}`);
    await page.getByRole('button', { name: 'Erinnerungen abbestellen' }).click();
    await page.getByRole('heading', { level: 1, name: 'Link ungültig' }).waitFor();
    await page.getByText('Diesen Abmelde-Link kennen wir nicht.').waitFor();
    await page.screenshot({ path: '/tmp/reminders-unsubscribe-unknown.png', fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
