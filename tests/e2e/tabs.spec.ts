import type { Browser } from 'playwright-core';
import type { EventSummary } from '@awhh/machines';
import { openPage } from '../support/browser.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';

// rules §4 "Cart": one cart, synchronised between tabs of the same browser.
let site: RunningSite;
let browser: Browser;
let event: EventSummary;

beforeAll(async () => {
  ({ site, browser } = await startSiteAndBrowser());
  const events = (await (await fetch(`${site.url}/api/events`)).json()) as EventSummary[];
  event = events.find((e) => !e.past && e.availability !== 'sold_out')!;
});

afterAll(() => stopSiteAndBrowser({ site, browser }));

describe('tabs', () => {
  it('a ticket added in one tab shows in the badge and cart of another, and clearing it there empties both', async () => {
    const { context, page: first, errors } = await openPage(browser);
    const second = await context.newPage();
    await second.goto(`${site.url}/cart`);
    await second.getByRole('heading', { level: 1, name: 'Warenkorb' }).waitFor();

    await first.goto(`${site.url}/events/${event.slug}`);
    await first.getByRole('button', { name: 'In den Warenkorb' }).click();
    await first.getByRole('banner').getByRole('link', { name: 'Warenkorb 1 Artikel' }).waitFor();

    // The other tab follows through the storage event, without a reload.
    await second.getByRole('banner').getByRole('link', { name: 'Warenkorb 1 Artikel' }).waitFor();
    await second.getByText(event.name).first().waitFor();

    await second.getByRole('button', { name: `${event.name} entfernen` }).click();
    await first
      .getByRole('banner')
      .getByRole('link', { name: /^Warenkorb$/ })
      .waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
