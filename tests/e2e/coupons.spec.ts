import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage } from '../support/browser.js';
import { startTarget, type RunningSite } from '../support/site.js';

// rules "Coupons" on the embedded defaults: the demo coupon NURVIP holds only for the VIP
// tier of the demo's tiered event; on a Regulär ticket the cart refuses it with the reason
// the server gives.
const EVENT = 'Sommer-Afterwork auf der MS Hamburg';
const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';

let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  site = await startTarget();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

const header = (page: Page) => page.getByRole('banner');

describe('rules "Coupons" in the cart', () => {
  it('NURVIP on a Regulär ticket is refused in the cart with its reason (mobile width)', async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${site.url}${EVENT_PATH}`);
    const tiers = page.getByRole('group', { name: 'Ticket wählen' });
    await tiers.getByRole('radio', { name: 'Regulär' }).check();
    await page.getByRole('button', { name: 'In den Warenkorb' }).click();
    await header(page).getByRole('link', { name: 'Warenkorb 1 Artikel' }).waitFor();

    await page.goto(`${site.url}/cart`);
    await page.getByRole('heading', { level: 3, name: `${EVENT} – Regulär` }).waitFor();
    await page.getByLabel('Gutscheincode').fill('NURVIP');
    await page.getByRole('button', { name: 'Einlösen' }).click();
    const reason = page.getByText(/^Dieser Gutschein gilt nur für .*VIP/);
    await reason.waitFor();
    expect(await page.getByText(/eingelöst/).count()).toBe(0);
    expect(await page.getByLabel('Gutscheincode').getAttribute('aria-invalid')).toBe('true');
    await page.screenshot({ path: '/tmp/cart-coupon-refused.png', fullPage: true });

    // Only the refusal's 422 may show in the console.
    expect(errors.filter((e) => !/422/.test(e))).toEqual([]);
    await context.close();
  });
});
