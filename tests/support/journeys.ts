import type { Page } from 'playwright-core';

/**
 * On /checkout with a filled cart: accept the terms, order, fill in the test provider's
 * page as a buyer would (e-mail and name, like Stripe Checkout), pay, and wait for the
 * thanks on /success.
 */
export async function payInTestMode(page: Page): Promise<void> {
  await page.getByLabel(/Teilnahmebedingungen/).check();
  await page.getByRole('button', { name: 'Zahlungspflichtig bestellen' }).click();
  await page.waitForURL('**/api/checkout/test-provider/**');
  await page.getByLabel('E-Mail-Adresse').fill('karla@example.org');
  await page.getByLabel('Vollständiger Name').fill('Karla Kundin');
  await page.getByRole('button', { name: 'Jetzt bezahlen' }).click();
  await page.waitForURL('**/success?session_id=*');
  await page
    .getByRole('heading', { name: 'Danke für deine Bestellung!' })
    .waitFor({ timeout: 20_000 });
}
