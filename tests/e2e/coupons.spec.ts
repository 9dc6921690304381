import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../support/axe.js';
import { openPage } from '../support/browser.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';

// rules "Coupons" on the embedded defaults: the demo coupon NURVIP holds only for the VIP
// tier of the demo's tiered event; on a Regulär ticket the cart refuses it with the reason
// the server gives. FIRMA15 holds only for addresses `*@firma.example`: /checkout asks for
// the address, refuses another with its reason and pays with a matching one, which the
// payment page then shows fixed.
const EVENT = 'Sommer-Afterwork auf der MS Hamburg';
const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';

let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  ({ site, browser } = await startSiteAndBrowser());
});

afterAll(() => stopSiteAndBrowser({ site, browser }));

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

describe('rules "Coupons" at the checkout', () => {
  it('FIRMA15: /checkout asks for the address, refuses another with the reason and pays with a matching one (mobile width)', async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${site.url}${EVENT_PATH}`);
    const tiers = page.getByRole('group', { name: 'Ticket wählen' });
    await tiers.getByRole('radio', { name: 'Regulär' }).check();
    await page.getByRole('button', { name: 'In den Warenkorb' }).click();
    await header(page).getByRole('link', { name: 'Warenkorb 1 Artikel' }).waitFor();

    await page.goto(`${site.url}/cart`);
    await page.getByLabel('Gutscheincode').fill('FIRMA15');
    await page.getByRole('button', { name: 'Einlösen' }).click();
    await page.getByText(/wir prüfen deine an der Kasse/).waitFor();
    await page.getByRole('link', { name: 'Zur Kasse' }).click();

    await page.getByRole('heading', { level: 1, name: 'Kasse' }).waitFor();
    const email = page.getByLabel('E-Mail-Adresse für deinen Gutschein');
    await email.waitFor();
    await page.waitForLoadState('networkidle');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/checkout-coupon-email.png', fullPage: true });

    // Another company's address: the server's reason beside the field, the cart kept.
    await email.fill('gast@example.org');
    await page.getByLabel(/Teilnahmebedingungen/).check();
    await page.getByRole('button', { name: 'Zahlungspflichtig bestellen' }).click();
    await page.getByText('Dieser Gutschein gilt nicht für diese E-Mail-Adresse.').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toBe(`${site.url}/checkout`);
    await header(page).getByRole('link', { name: 'Warenkorb 1 Artikel' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/checkout-coupon-email-refused.png', fullPage: true });

    // The company's address: on to the payment page, where it stands fixed.
    await email.fill('anna@firma.example');
    await page.getByRole('button', { name: 'Zahlungspflichtig bestellen' }).click();
    await page.waitForURL('**/api/checkout/test-provider/**');
    const fixed = page.getByLabel('E-Mail-Adresse');
    expect(await fixed.inputValue()).toBe('anna@firma.example');
    expect(await fixed.isEditable()).toBe(false);
    await page.getByText('Gutschein FIRMA15').waitFor();
    await page.screenshot({ path: '/tmp/test-provider-fixed-email.png', fullPage: true });
    await page.getByLabel('Vollständiger Name').fill('Anna Firma');
    await page.getByRole('button', { name: 'Jetzt bezahlen' }).click();
    await page.waitForURL('**/success?session_id=*');
    await page
      .getByRole('heading', { name: 'Danke für deine Bestellung!' })
      .waitFor({ timeout: 20_000 });
    await page.getByText('anna@firma.example').first().waitFor();

    // Only the refusal's 422 may show in the console.
    expect(errors.filter((e) => !/422/.test(e))).toEqual([]);
    await context.close();
  });
});
