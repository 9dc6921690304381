import type { Browser } from 'playwright-core';
import { axeViolations } from '../support/axe.js';
import { openPage } from '../support/browser.js';
import { buyTickets, moveEventToTonight } from '../support/door.js';
import { openGuestList } from '../support/journeys.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';

// rules "The organizer", the guest list, in Chromium through the production topology: the
// organizer finds a guest on a phone, checks them in by hand, and the door's /einlass lists
// that check-in after its download; a guest's name is corrected in the card and the door's
// list carries it; a ticket is cancelled after the confirmation; the CSV comes as a download. Screenshots go to /tmp.

jest.setTimeout(180_000);

const ORGANIZER_CODE = 'Pp8h-Ab6x-Pzdp-5g4f';
const DOOR_CODE = 'Jbxu-Vz5g-Nw27-Y5uq';
const EVENT = 'Sommer-Afterwork auf der MS Hamburg';
const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';
const MOBILE = { width: 390, height: 844 };

let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  ({ site, browser } = await startSiteAndBrowser({ ORGANIZER_CODE, CHECKIN_CODE: DOOR_CODE }));
}, 120_000);

afterAll(() => stopSiteAndBrowser({ site, browser }));

describe('the guest list on /veranstalter', () => {
  it('finds a guest, checks them in by hand (the door lists it after its download), renames them, cancels a ticket after confirming, exports CSV', async () => {
    const buyer = await openPage(browser);
    const purchase = await buyTickets(buyer.page, site.url, {
      eventPath: EVENT_PATH,
      tier: 'Regulär',
      quantity: 2,
    });
    await buyer.context.close();
    const eventId = JSON.parse(
      Buffer.from(purchase.tokens[0]!.split('.')[1]!, 'base64url').toString(),
    ).e as number;
    await moveEventToTonight(site.dataDir, eventId);

    const organizer = await openPage(browser, { viewport: MOBILE });
    const { page } = organizer;
    await openGuestList(page, site.url, ORGANIZER_CODE, EVENT);
    expect(new URL(page.url()).searchParams.get('gaeste')).toBe(String(eventId));

    // Umlauts and case do not count: "KUNDIN" finds Karla Kundin.
    await page.getByLabel('Gast suchen').fill('KUNDIN');
    await page.getByText(/^\d Tickets? gefunden$/).waitFor();
    const guests = page.locator('li[data-ticket-id]');
    const first = guests.first();
    await first.getByText('Karla Kundin', { exact: true }).waitFor();
    await first.getByRole('button', { name: /^Einchecken/ }).click();
    await page
      .getByRole('status')
      .getByText(/ist eingecheckt\.$/)
      .waitFor();
    await first.getByText(/^Eingecheckt um \d\d:\d\d Uhr · Veranstalter$/).waitFor();
    expect(await first.getAttribute('data-status')).toBe('checkedIn');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/veranstalter-gaesteliste-390.png', fullPage: true });
    // What the phone shows: the list's heading under the sticky header.
    await page.evaluate(() => {
      const heading = [...document.querySelectorAll('h2')].find((h) =>
        h.textContent?.startsWith('Gästeliste'),
      );
      const header = document.querySelector('header');
      window.scrollTo(
        0,
        (heading?.getBoundingClientRect().top ?? 0) +
          window.scrollY -
          (header?.getBoundingClientRect().height ?? 0) -
          60,
      );
    });
    await page.screenshot({ path: '/tmp/veranstalter-gaesteliste-390-view.png' });

    // The door learns it with its download of the list: its guest list says who checked in.
    const door = await openPage(browser, { viewport: MOBILE });
    await door.page.goto(`${site.url}/einlass`);
    await door.page.getByLabel('Türcode').fill(DOOR_CODE);
    await door.page.getByRole('button', { name: 'Entsperren' }).click();
    await door.page.getByRole('button', { name: new RegExp(`^${EVENT}`) }).click();
    await door.page.getByRole('heading', { level: 1, name: EVENT }).waitFor();
    await door.page.getByLabel('Gästeliste durchsuchen').fill('Kundin');
    await door.page
      .getByRole('list', { name: 'Treffer' })
      .getByText(/Eingecheckt .*Veranstalter/)
      .first()
      .waitFor({ timeout: 10_000 });
    await door.page.screenshot({ path: '/tmp/einlass-gaesteliste-390.png', fullPage: true });
    await door.context.close();

    // Taken back: the ticket is valid again.
    await first.getByRole('button', { name: /^Check-in zurücknehmen/ }).click();
    await first.getByText('Gültig', { exact: true }).waitFor();

    // rules "Named tickets": the organizer corrects the name in the card; the door's list
    // carries it from its next download.
    const firstId = await first.getAttribute('data-ticket-id');
    await first.getByRole('button', { name: /^Name ändern/ }).click();
    const rename = first.getByRole('form', { name: /^Name ändern/ });
    await rename.getByLabel('Name', { exact: true }).fill('Karla Kundin-Meyer');
    await rename.getByLabel('Firma (optional)').fill('Hafenkontor GmbH');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/veranstalter-name-aendern-390.png' });
    await rename.getByRole('button', { name: 'Speichern' }).click();
    await page
      .getByRole('status')
      .getByText('Gespeichert: Das Ticket ist jetzt auf Karla Kundin-Meyer ausgestellt.')
      .waitFor();
    // The card's name line carries the company beneath the name.
    await first.getByText('Hafenkontor GmbH', { exact: true }).waitFor();
    expect(
      await first.locator('p', { has: page.getByText('Hafenkontor GmbH') }).innerText(),
    ).toMatch(/^Karla Kundin-Meyer\s+Hafenkontor GmbH$/);
    const unlocked = await fetch(`${site.url}/api/checkin/session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DOOR_CODE}` },
    });
    expect(unlocked.status).toBe(201);
    const { token } = (await unlocked.json()) as { token: string };
    const doorList = await fetch(`${site.url}/api/checkin/events/${eventId}/tickets`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(doorList.status).toBe(200);
    const { tickets } = (await doorList.json()) as {
      tickets: { id: string; holder: string | null; company?: string }[];
    };
    expect(tickets.find((t) => t.id === firstId)).toMatchObject({
      holder: 'Karla Kundin-Meyer',
      company: 'Hafenkontor GmbH',
    });

    // Cancelling asks first; one ticket is refunded at its price.
    await page.getByLabel('Gast suchen').fill('');
    await page.getByText(/^2 Tickets$/).waitFor();
    const second = guests.nth(1);
    const secondId = await second.getAttribute('data-ticket-id');
    await second.getByRole('button', { name: /^Stornieren/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByLabel(/Nur dieses Ticket/).check();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/veranstalter-stornieren-390.png' });
    await dialog.getByRole('button', { name: 'Stornieren und erstatten' }).click();
    await page
      .getByRole('status')
      .getByText('1 Ticket storniert, 35,00\u00a0€ werden erstattet.')
      .waitFor({ timeout: 10_000 });
    await page
      .locator(`li[data-ticket-id="${secondId}"][data-status="revoked"]`)
      .getByText('Storniert', { exact: true })
      .waitFor();
    expect(await dialog.count()).toBe(0);
    // A cancelled ticket keeps its name; its card says why it cannot be changed.
    const cancelled = page.locator(`li[data-ticket-id="${secondId}"]`);
    expect(await cancelled.getByRole('button', { name: /^Name ändern/ }).count()).toBe(0);
    await cancelled
      .getByText('Der Name lässt sich nicht mehr ändern: Das Ticket ist storniert.')
      .waitFor();
    await cancelled.screenshot({ path: '/tmp/veranstalter-storniert-390.png' });

    // The CSV link downloads the list.
    const href = await page.getByRole('link', { name: 'CSV herunterladen' }).getAttribute('href');
    const csv = await organizer.context.request.get(`${site.url}${href}`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-disposition']).toMatch(/^attachment; filename="gaesteliste-/);
    const bytes = await csv.body();
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8').split('\r\n')[0]).toMatch(/^\uFEFF"Name";"Firma";"E-Mail";/);
    await organizer.context.close();
  });
});
