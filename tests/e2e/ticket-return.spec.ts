import type { Browser } from 'playwright-core';
import { axeViolations } from '../support/axe.js';
import { openPage } from '../support/browser.js';
import { addTierToCart, payInTestMode } from '../support/journeys.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import { linkIn, mailTo } from '../support/mailbox.js';
import type { RunningSite } from '../support/site.js';

// rules "Giving a ticket back" on the embedded defaults: a buyer takes all four VIP places,
// somebody joins VIP's waiting list, the buyer gives one ticket back on its page (and takes
// it back once), the waiting visitor's offer leads to a paid order, and the returned
// ticket's page then says its place found a new guest.

const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';
const TIER = 'VIP';
const WAITER = 'rueckgabe-warteliste@example.org';
const MOBILE = { width: 390, height: 844 };

let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  ({ site, browser } = await startSiteAndBrowser());
});

afterAll(() => stopSiteAndBrowser({ site, browser }));

describe('giving a ticket back (rules "Giving a ticket back")', () => {
  it('sold out with people waiting: "Ticket zurückgeben", its undo, the waiting visitor buys the place, the ticket is cancelled and its money goes back', async () => {
    const buyer = await openPage(browser, { viewport: MOBILE });
    await buyer.page.goto(`${site.url}${EVENT_PATH}`);
    await addTierToCart(buyer.page, TIER, 4);
    await buyer.page.goto(`${site.url}/checkout`);
    await payInTestMode(buyer.page);
    const hrefs = await buyer.page
      .getByRole('region', { name: 'Deine Tickets' })
      .getByRole('link', { name: /^Dein Ticket für/ })
      .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs).toHaveLength(4);
    const ticketPath = hrefs[0]!;

    // Sold out, nobody waiting yet: nothing to give back.
    await buyer.page.goto(`${site.url}${ticketPath}`);
    await buyer.page.getByText('Zeig diesen Code am Einlass.').waitFor();
    const nothing = await fetch(`${site.url}/api${ticketPath}/return`);
    expect(await nothing.json()).toEqual({ state: 'unavailable' });

    // Somebody joins VIP's waiting list and confirms.
    const waiter = await openPage(browser, { viewport: MOBILE });
    await waiter.page.goto(`${site.url}${EVENT_PATH}`);
    const waitlist = waiter.page.getByRole('region', { name: 'Warteliste' });
    await waitlist.getByRole('button', { name: 'Auf die Warteliste' }).click();
    await waitlist.getByLabel('Ticketart').selectOption({ label: TIER });
    await waitlist.getByRole('textbox', { name: 'E-Mail' }).fill(WAITER);
    await waitlist.getByLabel(/Datenschutzerklärung/).check();
    await waitlist.getByRole('button', { name: 'Auf die Warteliste' }).click();
    await waitlist.getByText('Fast geschafft!').waitFor();
    await waiter.page.goto(
      `${site.url}${linkIn(await mailTo(site.url, WAITER, /bestätige/), 'confirm')}`,
    );
    await waiter.page.getByText('Du stehst auf der Warteliste').waitFor();

    // The buyer gives the first ticket back, by keyboard.
    const page = buyer.page;
    await page.reload();
    const summary = page.getByText('Ticket zurückgeben', { exact: true }).first();
    await summary.waitFor();
    await summary.focus();
    await page.keyboard.press('Enter');
    await page.getByText(/Sobald ihn jemand kauft, erstatten wir dir 49,00\s€/).waitFor();
    await page.screenshot({ path: '/tmp/ticket-return-available.png', fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Ticket zurückgeben' }).click();
    const offered = page.getByText(
      /Zur Rückgabe angeboten – du erhältst dein Geld zurück, sobald jemand von der Warteliste kauft/,
    );
    await offered.waitFor();
    await page.screenshot({ path: '/tmp/ticket-return-offered.png', fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    // The ticket still admits: its code stays on the page.
    expect(await page.getByText('Zeig diesen Code am Einlass.').isVisible()).toBe(true);

    // Taken back, and given back again: the waiting visitor gets a fresh offer.
    await mailTo(site.url, WAITER, /Plätze frei/);
    await page.getByRole('button', { name: 'Rückgabe zurücknehmen' }).click();
    await page.getByText('Ticket zurückgeben', { exact: true }).first().waitFor();
    await page.getByText('Ticket zurückgeben', { exact: true }).first().click();
    await page.getByRole('button', { name: 'Ticket zurückgeben' }).click();
    await offered.waitFor();

    // The waiting visitor's newest offer buys the place.
    const offerMail = await mailTo(site.url, WAITER, /Plätze frei/, { count: 2 });
    await waiter.page.goto(`${site.url}${linkIn(offerMail, 'offer')}`);
    await waiter.page.getByRole('button', { name: 'In den Warenkorb und zur Kasse' }).click();
    await waiter.page.waitForURL('**/checkout?angebot=*');
    await payInTestMode(waiter.page);

    // The returned ticket: cancelled, and its page says why and that the money goes back.
    await page.waitForFunction(
      async (path) => {
        const res = await fetch(`/api${path}/return`);
        return ((await res.json()) as { state: string }).state === 'taken';
      },
      ticketPath,
      { timeout: 20_000, polling: 300 },
    );
    await page.reload();
    await page.getByText('Dein Platz hat einen neuen Gast gefunden').waitFor();
    await page.getByText('Storniert', { exact: true }).waitFor();
    await page.screenshot({ path: '/tmp/ticket-return-taken.png', fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await mailTo(site.url, 'karla@example.org', /^Ticket zurückgegeben/);

    expect(buyer.errors).toEqual([]);
    expect(waiter.errors).toEqual([]);
    await buyer.context.close();
    await waiter.context.close();
  });
});
