import type { ParsedMail } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../support/axe.js';
import { openPage } from '../support/browser.js';
import {
  buyTickets,
  chooseEvent,
  claims,
  dismiss,
  enterCode,
  freshDoor,
  moveEventToTonight,
  unlock,
  verdict,
} from '../support/door.js';
import { openGuestList } from '../support/journeys.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';
import { SmtpSink } from '../support/smtp-sink.js';

// rules "The organizer" and "When a ticket stops admitting", then "Tickets and the door", in
// Chromium through the production topology with a real mail server: the organizer cancels
// one ticket of a paid order from the guest list; the door's phone, whose list was loaded
// before, answers "Storniert" for it at once because online it asks the server first; the
// buyer's mail over SMTP names the ticket and the amount refunded; offline the phone decides
// another ticket from its list, says "Offline geprüft" and shows the offline banner.
// Screenshots go to /tmp.

jest.setTimeout(180_000);

const ORGANIZER_CODE = 'Pp8h-Ab6x-Pzdp-5g4f';
const DOOR_CODE = 'Jbxu-Vz5g-Nw27-Y5uq';
const EVENT = 'Sommer-Afterwork auf der MS Hamburg';
const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';
const TIER = 'Regulär';
const BUYER = 'karla@example.org';
const MOBILE = { width: 390, height: 844 };

let smtp: SmtpSink;
let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  ({ site, browser } = await startSiteAndBrowser({
    ORGANIZER_CODE,
    CHECKIN_CODE: DOOR_CODE,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'After Work Hamburg <tickets@awhh.test>',
  }));
}, 120_000);

afterAll(async () => {
  await stopSiteAndBrowser({ site, browser });
  await smtp?.stop();
});

const recipient = (mail: ParsedMail) => (mail.to && 'text' in mail.to ? mail.to.text : '');

/** The mails to `to` whose subject is `subject`, once `count` of them are there. */
async function mailsTo(to: string, subject: string, count = 1): Promise<ParsedMail[]> {
  const matching = () => smtp.mails.filter((m) => recipient(m) === to && m.subject === subject);
  const deadline = Date.now() + 20_000;
  while (matching().length < count) {
    if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${to} in 20 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return matching();
}

/** The ticket's status in the list the door's phone keeps (IndexedDB), not the server's. */
function statusOnPhone(page: Page, eventId: number, ticketId: string): Promise<string | null> {
  return page.evaluate(
    ({ eventId, ticketId }) =>
      new Promise<string | null>((resolve, reject) => {
        const open = indexedDB.open('awhh-door');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('lists').objectStore('lists').get(eventId);
          get.onerror = () => reject(get.error);
          get.onsuccess = () => {
            const list = get.result as { tickets: { id: string; status: string }[] } | undefined;
            resolve(list?.tickets.find((t) => t.id === ticketId)?.status ?? null);
          };
        };
      }),
    { eventId, ticketId },
  );
}

describe('cancelled by the organizer, refused at the door', () => {
  it('one ticket cancelled from the guest list: the buyer is mailed the refund, the door says "Storniert" at once online, and offline checks another ticket from its list', async () => {
    const buyer = await openPage(browser);
    const purchase = await buyTickets(buyer.page, site.url, {
      eventPath: EVENT_PATH,
      tier: TIER,
      quantity: 3,
    });
    await buyer.context.close();
    // The ticket mail first, so the notice below is counted on its own.
    const deadline = Date.now() + 20_000;
    while (
      !smtp.mails.some((m) => recipient(m) === BUYER && /Deine Tickets/.test(m.subject ?? ''))
    ) {
      if (Date.now() > deadline) throw new Error('no ticket mail at the SMTP server');
      await new Promise((r) => setTimeout(r, 200));
    }
    const [cancelToken, keptToken, offlineToken] = purchase.tokens as [string, string, string];
    const cancelId = claims(cancelToken).t;
    const eventId = claims(cancelToken).e;
    await moveEventToTonight(site.dataDir, eventId);

    // The organizer opens the event's guest list and asks to cancel one ticket.
    const organizer = await openPage(browser, { viewport: MOBILE });
    const { page } = organizer;
    await openGuestList(page, site.url, ORGANIZER_CODE, EVENT);
    const guest = page.locator(`li[data-ticket-id="${cancelId}"]`);
    await guest.waitFor();
    expect(await guest.getAttribute('data-status')).toBe('valid');
    await guest.getByRole('button', { name: /^Stornieren/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByLabel(/Nur dieses Ticket/).check();
    expect(await axeViolations(page)).toEqual([]);

    // Meanwhile the door's phone loads tonight's list, with the ticket still valid in it.
    const door = await freshDoor(browser);
    await unlock(door.page, site.url, DOOR_CODE);
    await chooseEvent(door.page, EVENT);
    expect(await statusOnPhone(door.page, eventId, cancelId)).toBe('valid');

    // Confirmed: one ticket's price goes back.
    await dialog.getByRole('button', { name: 'Stornieren und erstatten' }).click();
    await page
      .getByRole('status')
      .getByText('1 Ticket storniert, 35,00\u00a0€ werden erstattet.')
      .waitFor({ timeout: 10_000 });
    await page
      .locator(`li[data-ticket-id="${cancelId}"][data-status="revoked"]`)
      .getByText('Storniert', { exact: true })
      .waitFor();

    // rules "Tickets and the door": online the door asks the server first. Its own list
    // still says valid; the server's answer decides.
    expect(await statusOnPhone(door.page, eventId, cancelId)).toBe('valid');
    await enterCode(door.page, cancelToken);
    const revoked = await verdict(door.page, 'revoked');
    expect(await revoked.textContent()).toContain('Storniert');
    expect(await revoked.getByTestId('verdict-offline').count()).toBe(0);
    expect(await axeViolations(door.page)).toEqual([]);
    await dismiss(door.page);
    // The other tickets of the order still admit.
    await enterCode(door.page, keptToken);
    expect(await (await verdict(door.page, 'valid')).textContent()).toContain('Gültig');
    await dismiss(door.page);

    // rules "When a ticket stops admitting": the buyer is told, once, over SMTP, with the
    // amount refunded in German.
    const subject = `Ticket storniert: „${EVENT}“`;
    const [notice] = await mailsTo(BUYER, subject);
    expect(notice!.from?.value[0]).toMatchObject({ address: 'tickets@awhh.test' });
    const text = notice!.text ?? '';
    expect(text).toContain('Hallo Karla Kundin,');
    expect(text).toMatch(
      new RegExp(`Ein Ticket deiner Bestellung.* für „${EVENT}“.* wurde storniert und erstattet`),
    );
    expect(text).toContain(`(${TIER} ${claims(cancelToken).s} von 3`);
    expect(text).toContain(
      'Es gilt nicht mehr für den Einlass. Deine anderen Tickets bleiben gültig.',
    );
    expect(text).toContain('Erstattet wurden insgesamt 35,00\u00a0€;');
    expect(notice!.html).toContain('35,00');
    expect(text).not.toContain(cancelToken);

    // Offline the phone decides from its list, and says so.
    await door.context.setOffline(true);
    const banner = door.page.getByText(/^Keine Verbindung: das Gerät prüft mit seiner Liste/);
    await banner.waitFor();
    expect(await banner.isVisible()).toBe(true);
    await enterCode(door.page, offlineToken);
    const offline = await verdict(door.page, 'valid');
    expect(await offline.getByText('Gültig', { exact: true }).count()).toBe(1);
    expect(await offline.getByTestId('verdict-offline').textContent()).toBe('Offline geprüft');
    await door.page.screenshot({ path: '/tmp/einlass-offline-geprueft.png' });
    expect(await axeViolations(door.page)).toEqual([]);
    await dismiss(door.page);
    expect(await banner.isVisible()).toBe(true);
    await door.page.getByText('Offline – 1 Scan wartet auf Verbindung').waitFor();

    // Exactly one notice: the door's scans and the sync send no second.
    await door.context.setOffline(false);
    await door.page.getByText('1 Check-in übertragen.').waitFor({ timeout: 20_000 });
    expect(smtp.mails.filter((m) => m.subject === subject)).toHaveLength(1);

    expect(door.errors.filter((e) => !e.includes('net::ERR_INTERNET_DISCONNECTED'))).toEqual([]);
    expect(organizer.errors).toEqual([]);
    await door.context.close();
    await organizer.context.close();
  });
});
