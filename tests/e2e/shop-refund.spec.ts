import type { Browser } from 'playwright-core';
import { launchBrowser, openPage } from '../support/browser.js';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { addTierToCart, payInTestMode } from '../support/journeys.js';
import { startTarget, type RunningSite } from '../support/site.js';
import { recordedShop } from '../support/woocommerce-fixtures.js';

// rules "Refunds reach the shop" in the browser: a VIP ticket of the recorded WooCommerce
// shop paid on the test provider's page, then refunded there as the organizer would in
// Stripe's dashboard; the shop's order gets the refund, its seats back, and "Erstattet".

const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';
const VIP = 45;

let woo: FakeWooCommerce;
let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  woo = await FakeWooCommerce.start(recordedShop());
  site = await startTarget({ ...woo.env, CATALOG_TTL_SECONDS: '0' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
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
});
