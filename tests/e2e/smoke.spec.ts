import type { Browser } from 'playwright-core';
import { launchBrowser, openPage } from '../support/browser.js';
import { startSite, type RunningSite } from '../support/site.js';

let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  site = await startSite();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

describe('smoke', () => {
  it('npm start mode: the single-process site loads in Chromium with the shell of rules §2 and no console errors', async () => {
    const { page, errors, context } = await openPage(browser);
    const response = await page.goto(site.url + '/');
    expect(response?.status()).toBe(200);
    // The shell renders after the entry chunk runs; waitFor fails the test after 10 s.
    await page
      .getByRole('link', { name: /Warenkorb/ })
      .first()
      .waitFor({ timeout: 10_000 });
    await page.getByRole('link', { name: 'Nächstes Event' }).first().waitFor({ timeout: 10_000 });
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(errors).toEqual([]);
    await context.close();
  });
});
