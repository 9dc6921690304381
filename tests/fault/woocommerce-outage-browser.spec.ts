import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { CART_STORAGE_KEY } from '@awhh/machines';
import { launchBrowser, openPage } from '../support/browser.js';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { wooCoupon, wooEvent } from '../support/woocommerce-fixtures.js';
import { type BackendProcess, startBackend } from './support/backend-process.js';

/**
 * rules "Errors": when WooCommerce fails in the middle of a purchase, the buyer reads a
 * German message and keeps the cart (local storage), ready to try again.
 */

let woo: FakeWooCommerce;
let site: BackendProcess;
let browser: Browser;
let dataDir: string;

beforeAll(async () => {
  woo = new FakeWooCommerce({
    products: [wooEvent(551, { slug: 'ausfall-abend', name: 'Ausfall-Abend', price: '20.00' })],
    coupons: [wooCoupon('AUSFALL10', { discount_type: 'percent', amount: '10' })],
  });
  await woo.start();
  dataDir = mkdtempSync(join(tmpdir(), 'awhh-fault-browser-'));
  site = await startBackend({
    ...woo.env,
    CATALOG_TTL_SECONDS: '1',
    DATABASE_URL: `sqlite:${join(dataDir, 'awhh.db')}`,
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await site?.kill('SIGTERM');
  await woo?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('fault: WooCommerce fails during a purchase in the browser', () => {
  it('the checkout shows a German error, the cart stays in local storage and on the page', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${site.url}/events/ausfall-abend`);
    await page.getByRole('heading', { level: 1, name: 'Ausfall-Abend' }).waitFor();
    await page.getByRole('button', { name: 'In den Warenkorb' }).click();
    await page.goto(`${site.url}/cart`);
    await page.getByLabel('Gutscheincode').fill('AUSFALL10');
    await page.getByRole('button', { name: 'Einlösen' }).click();
    await page.getByText(/Gutschein AUSFALL10 eingelöst/).waitFor();
    await page.getByRole('link', { name: 'Zur Kasse' }).click();
    await page.getByRole('heading', { level: 1, name: 'Kasse' }).waitFor();
    await page.getByLabel(/Teilnahmebedingungen/).check();

    // WooCommerce goes down after the catalog was read: the coupon cannot be re-checked.
    woo.mode = 'down';
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/checkout/session'));
    await page.getByRole('button', { name: 'Zahlungspflichtig bestellen' }).click();
    const response = await answer;
    expect(response.status()).toBe(503);
    const body = (await response.json()) as { message: string };
    await page.getByText(body.message).first().waitFor({ timeout: 10_000 });
    expect(page.url()).toMatch(/\/checkout/);

    const stored = await page.evaluate((key) => localStorage.getItem(key), CART_STORAGE_KEY);
    expect(stored).toContain('Ausfall-Abend');
    woo.mode = 'ok';
    await page.goto(`${site.url}/cart`);
    await page.getByRole('heading', { level: 3, name: 'Ausfall-Abend' }).waitFor();
    await context.close();
  }, 55_000);
});
