import type { Browser } from 'playwright-core';
import { axeViolations } from '../support/axe.js';
import { openPage } from '../support/browser.js';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { addTierToCart, payInTestMode } from '../support/journeys.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';
import { recordedShop } from '../support/woocommerce-fixtures.js';

// rules "Refunds reach the shop" in the browser: a VIP ticket of the recorded WooCommerce
// shop paid on the test provider's page, then refunded there as the organizer would in
// Stripe's dashboard; the shop's order gets the refund, its seats back, and "Erstattet".

const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';
const VIP = 45;
const REGULAR = 44;

let woo: FakeWooCommerce;
let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  woo = await FakeWooCommerce.start(recordedShop());
  ({ site, browser } = await startSiteAndBrowser({ ...woo.env, CATALOG_TTL_SECONDS: '0' }));
});

afterAll(async () => {
  await stopSiteAndBrowser({ site, browser });
  await woo?.stop();
});

async function eventually<T>(probe: () => T | undefined, what: string, timeoutMs = 20_000) {
  const start = Date.now();
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('rules "Refunds reach the shop"', () => {
  it("refunding a paid order on the test provider's page refunds the shop's order, with its stock back", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${site.url}${EVENT_PATH}`);
    await addTierToCart(page, 'VIP', 1);
    await page.goto(`${site.url}/cart`);
    await page.getByRole('link', { name: 'Zur Kasse' }).click();
    await page.getByRole('heading', { level: 1, name: 'Kasse' }).waitFor();
    const before = new Set(woo.orders.map((o) => o.id));
    await payInTestMode(page);
    const sessionId = new URL(page.url()).searchParams.get('session_id')!;
    const vip = woo.variations.find((v) => v.id === VIP)!;
    const handedOff = await eventually(
      () => woo.orders.find((o) => !before.has(o.id) && o.status === 'processing'),
      'the hand-off',
    );
    const stockAfterSale = vip.stock_quantity;

    // The test provider's page of the paid session: "Zahlung erstatten (Testmodus)".
    await page.goto(`${site.url}/api/checkout/test-provider/${sessionId}`);
    await page.getByRole('button', { name: 'Zahlung erstatten (Testmodus)' }).click();
    await page.getByText('Diese Zahlung wurde erstattet').waitFor();

    await eventually(
      () => woo.refundsOf(handedOff.id).length === 1 || undefined,
      'the shop refund',
    );
    expect(woo.refundsOf(handedOff.id)[0]).toMatchObject({
      amount: '49.00',
      refunded_payment: false,
    });
    expect(handedOff.status).toBe('refunded');
    expect(vip.stock_quantity).toBe(Number(stockAfterSale) + 1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('rules "Refunds": "Teilweise erstatten (Testmodus)" with one ticket\'s price revokes one of two tickets; a wrong amount is refused in German', async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${site.url}${EVENT_PATH}`);
    await addTierToCart(page, 'Regulär', 2);
    await page.goto(`${site.url}/cart`);
    await page.getByRole('link', { name: 'Zur Kasse' }).click();
    await page.getByRole('heading', { level: 1, name: 'Kasse' }).waitFor();
    const before = new Set(woo.orders.map((o) => o.id));
    await payInTestMode(page);
    const sessionId = new URL(page.url()).searchParams.get('session_id')!;
    const regular = woo.variations.find((v) => v.id === REGULAR)!;
    const handedOff = await eventually(
      () => woo.orders.find((o) => !before.has(o.id) && o.status === 'processing'),
      'the hand-off',
    );
    const stockAfterSale = Number(regular.stock_quantity);

    await page.goto(`${site.url}/api/checkout/test-provider/${sessionId}`);
    const amount = page.getByLabel('Betrag in Euro');
    const refundPart = page.getByRole('button', { name: 'Teilweise erstatten (Testmodus)' });
    // More than was paid: the page again with the reason beside the field.
    await amount.fill('80');
    await refundPart.click();
    await page.getByText('Es sind höchstens 70,00 € erstattbar.').waitFor();
    expect(await page.getByLabel('Betrag in Euro').getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/test-provider-partial-refund-error.png', fullPage: true });

    // One Regulär ticket's price: that ticket goes back, the other still admits.
    await page.getByLabel('Betrag in Euro').fill('35,00');
    await page.getByRole('button', { name: 'Teilweise erstatten (Testmodus)' }).click();
    await page.getByText('Bisher erstattet: 35,00 € von 70,00 €.').waitFor();
    await page.getByText('Diese Bestellung ist bereits bezahlt.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/test-provider-partial-refund.png', fullPage: true });

    await eventually(
      () => woo.refundsOf(handedOff.id).length === 1 || undefined,
      'the shop refund',
    );
    expect(woo.refundsOf(handedOff.id)[0]).toMatchObject({ amount: '35.00' });
    expect(handedOff.status).toBe('processing');
    expect(regular.stock_quantity).toBe(stockAfterSale + 1);

    // The success page's tickets: one "Storniert", one still with its code.
    await page.goto(`${site.url}/success?session_id=${encodeURIComponent(sessionId)}`);
    const links = page
      .getByRole('region', { name: 'Deine Tickets' })
      .getByRole('link', { name: /^Dein Ticket für/ });
    await links.first().waitFor();
    const tickets = await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(tickets).toHaveLength(2);
    const states: string[] = [];
    for (const href of tickets) {
      await page.goto(href);
      await page.getByRole('heading', { level: 1 }).waitFor();
      states.push(
        (await page.getByText('Storniertes Ticket').count()) > 0 ? 'Storniert' : 'Gültig',
      );
    }
    expect(states.sort()).toEqual(['Gültig', 'Storniert']);
    // The refused amount's page came with its 422, as meant; nothing else went wrong.
    expect(errors).toEqual([
      'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ]);
    await context.close();
  });
});
