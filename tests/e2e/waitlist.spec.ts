import type { Browser, Page } from 'playwright-core';
import { openPage } from '../support/browser.js';
import { addTierToCart, payInTestMode } from '../support/journeys.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import { linkIn, mailTo } from '../support/mailbox.js';
import type { RunningSite } from '../support/site.js';

// rules "Waiting list" on the embedded defaults, as the organizer would show it: a tier is
// bought out by an open checkout, a second visitor joins its waiting list and confirms
// through the test mailbox, the first checkout is canceled on the payment page, the offer
// mail arrives and its link leads to a paid order.

const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';
const TIER = 'VIP';
const WAITER = 'warteliste@example.org';
const SCREENSHOTS = process.env.WAITLIST_SCREENSHOTS ?? '';

let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  ({ site, browser } = await startSiteAndBrowser());
});

afterAll(() => stopSiteAndBrowser({ site, browser }));

async function shot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS)
    await page.screenshot({ path: `${SCREENSHOTS}/waitlist-${name}.png`, fullPage: true });
}

describe('waiting list', () => {
  it('bought-out tier → join and confirm → a checkout is canceled → offer mail → paid order through the offer', async () => {
    // The first visitor holds all four VIP places on the payment page.
    const first = await openPage(browser);
    await first.page.goto(`${site.url}${EVENT_PATH}`);
    await addTierToCart(first.page, TIER, 4);
    await first.page.goto(`${site.url}/checkout`);
    await first.page.getByLabel(/Teilnahmebedingungen/).check();
    await first.page.getByRole('button', { name: 'Zahlungspflichtig bestellen' }).click();
    await first.page.waitForURL('**/api/checkout/test-provider/**');

    // The second visitor sees VIP sold out (held, though the catalog still has four) and joins.
    const second = await openPage(browser);
    const page = second.page;
    await page.goto(`${site.url}${EVENT_PATH}`);
    const vip = page
      .getByRole('group', { name: 'Ticket wählen' })
      .getByRole('radio', { name: TIER });
    await vip.waitFor();
    // Early Bird is sold out in the catalog; VIP becomes so once the checkout side answered.
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('input[type=radio]')].filter(
          (r) => (r as HTMLInputElement).disabled,
        ).length >= 2,
    );
    expect(await vip.isDisabled()).toBe(true);
    const waitlist = page.getByRole('region', { name: 'Warteliste' });
    await waitlist.getByRole('button', { name: 'Auf die Warteliste' }).click();
    await waitlist.getByLabel('Ticketart').selectOption({ label: TIER });
    await waitlist.getByRole('textbox', { name: 'E-Mail' }).fill(WAITER);
    await waitlist.getByLabel(/Datenschutzerklärung/).check();
    await shot(page, 'join');
    await waitlist.getByRole('button', { name: 'Auf die Warteliste' }).click();
    await waitlist.getByText('Fast geschafft!').waitFor();

    await page.goto(`${site.url}${linkIn(await mailTo(site.url, WAITER, /bestätige/), 'confirm')}`);
    await page.getByText('Du stehst auf der Warteliste').waitFor();
    await shot(page, 'confirm');

    // The first visitor gives up on the payment page: the place goes to the waiting list.
    await first.page.getByRole('button', { name: 'Abbrechen' }).click();
    await first.page.waitForURL('**/checkout');

    await page.goto(`${site.url}${linkIn(await mailTo(site.url, WAITER, /Plätze frei/), 'offer')}`);
    await page.getByText(/^Gültig bis /).waitFor();
    await shot(page, 'offer');
    // Another visitor without the offer cannot take the held place.
    const other = await fetch(`${site.url}/api/waitlist/availability/109`);
    const live = (await other.json()) as { variants: { id: number; free: number | null }[] };
    expect(live.variants.find((v) => v.id === 1093)?.free).toBe(3);

    await page.getByRole('button', { name: 'In den Warenkorb und zur Kasse' }).click();
    await page.waitForURL('**/checkout?angebot=*');
    await page.getByText(`Sommer-Afterwork auf der MS Hamburg – ${TIER}`).first().waitFor();
    await payInTestMode(page);

    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
    await first.context.close();
    await second.context.close();
  });
});
