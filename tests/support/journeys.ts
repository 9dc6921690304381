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

/**
 * On an event page with tiers: choose `tier`, raise the quantity to `quantity` and add to
 * the cart; waits for the page's confirmation.
 */
export async function addTierToCart(page: Page, tier: string, quantity: number): Promise<void> {
  await page
    .getByRole('group', { name: 'Ticket wählen' })
    .getByRole('radio', { name: tier })
    .check();
  for (let i = 1; i < quantity; i += 1) await page.getByRole('button', { name: 'Mehr' }).click();
  await page.getByRole('button', { name: 'In den Warenkorb' }).click();
  const what = quantity === 1 ? `1 Ticket „${tier}“ wurde` : `${quantity} Tickets „${tier}“ wurden`;
  await page.getByText(`${what} in den Warenkorb gelegt.`).waitFor();
}
