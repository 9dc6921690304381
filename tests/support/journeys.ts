import type { Page } from 'playwright-core';

/** Who pays on the test provider's page (it asks for e-mail and name, like Stripe Checkout). */
export interface Buyer {
  email: string;
  name: string;
}

/** The buyer of the journeys unless one names another. */
export const KARLA: Buyer = { email: 'karla@example.org', name: 'Karla Kundin' };

/**
 * On /checkout with a filled cart: accept the terms, order, fill in the test provider's
 * page as `buyer`, pay, and wait for the thanks on /success.
 */
export async function payInTestMode(page: Page, buyer: Buyer = KARLA): Promise<void> {
  await page.getByLabel(/Teilnahmebedingungen/).check();
  await page.getByRole('button', { name: 'Zahlungspflichtig bestellen' }).click();
  await payOnTestProvider(page, buyer);
}

/**
 * After the order on /checkout: fill in the test provider's page as `buyer`, pay, and wait
 * for the thanks on /success.
 */
export async function payOnTestProvider(page: Page, buyer: Buyer = KARLA): Promise<void> {
  await page.waitForURL('**/api/checkout/test-provider/**');
  await page.getByLabel('E-Mail-Adresse').fill(buyer.email);
  await page.getByLabel('Vollständiger Name').fill(buyer.name);
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

/**
 * On /veranstalter, signed in with the organizer code: opens the guest list of `event`
 * from its card and waits for it.
 */
export async function openGuestList(
  page: Page,
  siteUrl: string,
  organizerCode: string,
  event: string,
): Promise<void> {
  await page.goto(`${siteUrl}/veranstalter`);
  await page.getByLabel('Veranstaltercode').fill(organizerCode);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await page
    .getByRole('article', { name: event })
    .getByRole('link', { name: `Gästeliste von ${event}` })
    .click();
  await page.getByRole('heading', { level: 2, name: /^Gästeliste/ }).waitFor();
}
