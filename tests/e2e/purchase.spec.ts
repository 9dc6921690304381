import type { Browser, Page } from 'playwright-core';
import {
  CART_STORAGE_KEY,
  COUPON_STORAGE_KEY,
  cartTotals,
  formatCents,
  type EventSummary,
} from '@awhh/machines';
import { openPage } from '../support/browser.js';
import { payOnTestProvider } from '../support/journeys.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';

// The purchase journey (rules §4 Cart, rules "/checkout", "/success") on the embedded defaults (demo catalog, test provider).
let site: RunningSite;
let browser: Browser;
let next: EventSummary;

beforeAll(async () => {
  ({ site, browser } = await startSiteAndBrowser());
  const events = (await (await fetch(`${site.url}/api/events`)).json()) as EventSummary[];
  next = events.find((e) => !e.past && e.availability !== 'sold_out')!;
  expect(next).toBeDefined();
});

afterAll(() => stopSiteAndBrowser({ site, browser }));

const header = (page: Page) => page.getByRole('banner');

async function addTicketsFromHome(page: Page, quantity: number) {
  await page.goto(`${site.url}/`);
  await header(page).getByRole('link', { name: 'Nächstes Event' }).click();
  await page.waitForURL(`**/events/${next.slug}`);
  await page.getByRole('heading', { level: 1, name: next.name }).waitFor();
  for (let i = 1; i < quantity; i++) await page.getByRole('button', { name: 'Mehr' }).click();
  await page.getByRole('button', { name: 'In den Warenkorb' }).click();
  await page.getByText(`${quantity} Tickets wurden in den Warenkorb gelegt.`).waitFor();
}

describe('purchase', () => {
  it('/ → next event → 2 tickets → coupon → checkout → test provider pays → success, cart empty', async () => {
    const { page, errors, context } = await openPage(browser);
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await addTicketsFromHome(page, 2);
    await header(page).getByRole('link', { name: 'Warenkorb 2 Artikel' }).waitFor();

    await header(page)
      .getByRole('link', { name: /Warenkorb/ })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Warenkorb' }).waitFor();
    await page.getByLabel('Gutscheincode').fill('AFTERWORK10');
    await page.getByRole('button', { name: 'Einlösen' }).click();
    await page.getByText(/Gutschein AFTERWORK10 eingelöst/).waitFor();
    const totals = cartTotals([{ price: next.price, quantity: 2 }], {
      discountType: 'percent',
      discount: 10,
    });
    expect(
      await page.getByText(formatCents(totals.total), { exact: true }).count(),
    ).toBeGreaterThan(0);

    await page.getByRole('link', { name: 'Zur Kasse' }).click();
    await page.getByRole('heading', { level: 1, name: 'Kasse' }).waitFor();
    const order = page.getByRole('button', { name: 'Zahlungspflichtig bestellen' });
    expect(await order.isDisabled()).toBe(true);
    await page.getByLabel(/Teilnahmebedingungen/).check();
    await order.click();

    // rules "Everything the shop sells": the test provider asks for e-mail and name like Stripe.
    await payOnTestProvider(page);
    const main = page.getByRole('main');
    await main.getByText(next.name, { exact: true }).waitFor();
    await main.getByText(formatCents(totals.total), { exact: true }).waitFor();
    await main.getByText('Gutschein AFTERWORK10').waitFor();

    // rules "/success": paid → the cart is cleared.
    expect(await header(page).getByTestId('cart-badge').count()).toBe(0);
    expect(await page.evaluate((k) => localStorage.getItem(k), CART_STORAGE_KEY)).toBe('[]');
    expect(await page.evaluate((k) => localStorage.getItem(k), COUPON_STORAGE_KEY)).toBeNull();
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a reload keeps the cart', async () => {
    const { page, errors, context } = await openPage(browser);
    await addTicketsFromHome(page, 2);
    await page.reload();
    await header(page).getByRole('link', { name: 'Warenkorb 2 Artikel' }).waitFor();
    await page.goto(`${site.url}/cart`);
    await page.getByRole('heading', { level: 3, name: next.name }).waitFor();
    expect(
      await page.getByRole('spinbutton', { name: `Anzahl für ${next.name}` }).inputValue(),
    ).toBe('2');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('invalid data in local storage gives an empty cart', async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${site.url}/`);
    await page.evaluate(
      ([cartKey, couponKey]) => {
        localStorage.setItem(cartKey!, '{kein json');
        localStorage.setItem(couponKey!, '"nur ein text"');
      },
      [CART_STORAGE_KEY, COUPON_STORAGE_KEY],
    );
    await page.goto(`${site.url}/cart`);
    await page.getByRole('heading', { name: 'Dein Warenkorb ist leer' }).waitFor();
    expect(await header(page).getByTestId('cart-badge').count()).toBe(0);

    await page.evaluate(
      (k) => localStorage.setItem(k, JSON.stringify([{ id: 5 }, 'x', null])),
      CART_STORAGE_KEY,
    );
    await page.reload();
    await page.getByRole('heading', { name: 'Dein Warenkorb ist leer' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
