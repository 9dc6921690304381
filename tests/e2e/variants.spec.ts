import type { Browser, Page } from 'playwright-core';
import { CART_STORAGE_KEY, cartItemId, formatCents } from '@awhh/machines';
import { openPage } from '../support/browser.js';
import { payInTestMode } from '../support/journeys.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';

// rules "Everything the shop sells" on the embedded defaults: the demo's tiered event
// (Early Bird sold out, Regulär, VIP on sale with 4 seats) and the T-shirt in sizes.
const EVENT = 'Sommer-Afterwork auf der MS Hamburg';
const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';

let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  ({ site, browser } = await startSiteAndBrowser());
});

afterAll(() => stopSiteAndBrowser({ site, browser }));

const header = (page: Page) => page.getByRole('banner');

/** Cart → Kasse → terms → order → the test provider's page → paid → /success. */
async function payFromCart(page: Page) {
  await page.goto(`${site.url}/cart`);
  await page.getByRole('link', { name: 'Zur Kasse' }).click();
  await page.getByRole('heading', { level: 1, name: 'Kasse' }).waitFor();
  await payInTestMode(page);
}

describe('tiers and sizes', () => {
  it('buys a VIP ticket: tier chosen on the event page, "Event – VIP" through cart, checkout and success', async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${site.url}${EVENT_PATH}`);
    const tiers = page.getByRole('group', { name: 'Ticket wählen' });
    await tiers.waitFor();
    const vip = tiers.getByRole('radio', { name: 'VIP' });
    await vip.check();
    // The sale shows the regular price struck through.
    await tiers.getByText('statt 59,00 €').waitFor();
    await page.getByRole('button', { name: 'Mehr' }).click();
    await page.getByRole('button', { name: 'In den Warenkorb' }).click();
    await page.getByText('2 Tickets „VIP“ wurden in den Warenkorb gelegt.').waitFor();
    await header(page).getByRole('link', { name: 'Warenkorb 2 Artikel' }).waitFor();

    await page.goto(`${site.url}/cart`);
    await page.getByRole('heading', { level: 3, name: `${EVENT} – VIP` }).waitFor();
    await page.getByText(formatCents(9800), { exact: true }).first().waitFor();

    await payFromCart(page);
    const main = page.getByRole('main');
    await main.getByText(`${EVENT} – VIP`, { exact: true }).waitFor();
    await main.getByText(formatCents(9800), { exact: true }).first().waitFor();

    expect(errors).toEqual([]);
    await context.close();
  });

  it('the sold-out tier cannot be chosen; a forged cart line for it is refused and explained', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${site.url}${EVENT_PATH}`);
    const earlyBird = page
      .getByRole('group', { name: 'Ticket wählen' })
      .getByRole('radio', { name: 'Early Bird' });
    await earlyBird.waitFor();
    expect(await earlyBird.isDisabled()).toBe(true);

    // A cart written by hand (an old tab, a tampered storage): the server has the last word.
    const line = {
      id: cartItemId(109, 1091),
      name: `${EVENT} – Early Bird`,
      price: 25,
      quantity: 1,
      productId: 109,
      variationId: 1091,
      currency: 'eur',
    };
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key!, value!),
      [CART_STORAGE_KEY, JSON.stringify([line])],
    );
    await page.goto(`${site.url}/checkout`);
    await page.getByLabel(/Teilnahmebedingungen/).check();
    await page.getByRole('button', { name: 'Zahlungspflichtig bestellen' }).click();
    // The server refuses it (409); the line leaves the cart and the page says why.
    await page
      .getByRole('alert')
      .getByText(`${EVENT} – Early Bird: leider ausverkauft – aus dem Warenkorb entfernt.`)
      .waitFor();
    await page.getByRole('heading', { name: 'Dein Warenkorb ist leer' }).waitFor();
    expect(page.url()).toContain('/checkout');
    const cart = await page.evaluate((k) => localStorage.getItem(k), CART_STORAGE_KEY);
    expect(JSON.parse(cart!)).toEqual([]);
    await context.close();
  });

  it('buys a T-shirt in L from the merch on /', async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${site.url}/`);
    await page
      .getByRole('link', { name: /AWHH T-Shirt/ })
      .first()
      .click();
    await page.waitForURL('**/merch/awhh-t-shirt');
    await page.getByRole('heading', { level: 1, name: 'AWHH T-Shirt' }).waitFor();
    const sizes = page.getByRole('group', { name: 'Größe wählen' });
    expect(await sizes.getByRole('radio', { name: 'XL' }).isDisabled()).toBe(true);
    await sizes.getByRole('radio', { name: 'L', exact: true }).check();
    await page.getByRole('button', { name: 'In den Warenkorb' }).click();
    await page.getByText(/AWHH T-Shirt – L wurde in den Warenkorb gelegt/).waitFor();

    await payFromCart(page);
    await page.getByRole('main').getByText('AWHH T-Shirt – L', { exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
