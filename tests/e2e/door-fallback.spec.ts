import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../support/axe.js';
import { openPage } from '../support/browser.js';
import {
  buyTickets,
  claims,
  dismiss,
  eventually,
  listedAtDoor,
  moveEventToTonight,
  verdict,
} from '../support/door.js';
import { KARLA } from '../support/journeys.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';
import { runOnStore } from '../support/store.js';

// rules "Tickets and the door" in Chromium through the production topology, for when the
// QR code will not scan: the short code printed on the PDF, read back as pdftotext extracts
// it and typed into /einlass ("Gültig", then "Bereits eingecheckt"), typed sloppily (lower
// case, spaces, O for 0), a revoked ticket's code ("Storniert"), another event's code (it
// names the event), and the guest list searched offline by a name spelled without its
// umlaut, checked in with one tap. Screenshots go to /tmp.

jest.setTimeout(180_000);

const EVENT = 'Sommer-Afterwork auf der MS Hamburg';
const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';
const OTHER_EVENT = 'Elbstrand Sundowner';
const OTHER_PATH = '/events/elbstrand-sundowner';
const CODE = 'Jbxu-Vz5g-Nw27-Y5uq';
const MOBILE = { width: 390, height: 844 };
const PDFTOTEXT = '/usr/bin/pdftotext';
const PDFTOPPM = '/usr/bin/pdftoppm';

let site: RunningSite;
let browser: Browser;
let work: string;
let eventId: number;
/**
 * Karla Kundin's three seats: one by the PDF's code, one by a sloppy spelling of its code,
 * and one nobody was named for, found on the guest list by her name.
 */
let karla: string[];
/** Jonas Müller's seat: found on the guest list as "muller", offline. */
let jonas: string[];
/** One seat, refunded before the door opens. */
let refunded: { tokens: string[]; sessionId: string };
/** A seat of another event. */
let other: string[];

const listed = (token: string) => listedAtDoor(site.url, CODE, eventId, token);

/**
 * Gives a ticket the short code `code` in the site's store. The codes are random; one with a
 * 0 and a 1 in it shows that O and I or L are read as those. The PDF is drawn from the store
 * on every request, so it prints this code.
 */
async function setCode(ticketId: string, code: string): Promise<void> {
  await runOnStore(site.dataDir, 'update tickets set code = ? where id = ?', [code, ticketId]);
}

/** The short code as the ticket's PDF prints it, in the words pdftotext extracts. */
async function codeFromPdf(token: string, name: string): Promise<string> {
  const res = await fetch(`${site.url}/api/tickets/${encodeURIComponent(token)}/pdf`);
  expect(res.status).toBe(200);
  const pdf = join(work, `${name}.pdf`);
  writeFileSync(pdf, Buffer.from(await res.arrayBuffer()));
  execFileSync(PDFTOPPM, ['-r', '110', '-png', '-singlefile', pdf, `/tmp/door-fallback-${name}`]);
  const text = execFileSync(PDFTOTEXT, ['-layout', pdf, '-']).toString('utf8');
  const match = /TICKET-CODE\s+(\S+)/.exec(text);
  expect(match).not.toBeNull();
  return match![1]!;
}

beforeAll(async () => {
  if (!existsSync(PDFTOTEXT) || !existsSync(PDFTOPPM)) {
    throw new Error(
      'pdftotext and pdftoppm are missing: install poppler-utils (`npm test` does so through scripts/setup.mjs).',
    );
  }
  work = mkdtempSync(join(tmpdir(), 'awhh-door-fallback-'));
  ({ site, browser } = await startSiteAndBrowser({ CHECKIN_CODE: CODE }));
  const { page, context } = await openPage(browser);
  const regular = { eventPath: EVENT_PATH, tier: 'Regulär' };
  karla = (await buyTickets(page, site.url, { ...regular, quantity: 3, buyer: KARLA })).tokens;
  jonas = (
    await buyTickets(page, site.url, {
      ...regular,
      quantity: 1,
      buyer: { name: 'Jonas Müller', email: 'jonas@example.org' },
    })
  ).tokens;
  refunded = await buyTickets(page, site.url, {
    ...regular,
    quantity: 1,
    buyer: { name: 'Rita Rückgabe', email: 'rita@example.org' },
  });
  other = (
    await buyTickets(page, site.url, {
      eventPath: OTHER_PATH,
      quantity: 1,
      buyer: { name: 'Otto Anders', email: 'otto@example.org' },
    })
  ).tokens;
  await context.close();
  eventId = claims(karla[0]!).e;
  await moveEventToTonight(site.dataDir, eventId);
  // The refund revokes the ticket (rules "Tickets and the door").
  const refund = await fetch(
    `${site.url}/api/checkout/test-provider/${encodeURIComponent(refunded.sessionId)}/refund`,
    { method: 'POST', redirect: 'manual' },
  );
  expect(refund.status).toBeLessThan(400);
  await eventually(async () => (await listed(refunded.tokens[0]!)).status, 'revoked');
}, 300_000);

afterAll(async () => {
  await stopSiteAndBrowser({ site, browser });
  if (work) rmSync(work, { recursive: true, force: true });
});

async function openDoor(): Promise<{
  page: Page;
  close: () => Promise<void>;
  setOffline: (offline: boolean) => Promise<void>;
  errors: string[];
}> {
  const { page, context, errors } = await openPage(browser, { viewport: MOBILE });
  await page.goto(`${site.url}/einlass`);
  await page.getByLabel('Türcode').fill(CODE);
  await page.getByRole('button', { name: 'Entsperren' }).click();
  await page.getByRole('button', { name: new RegExp(`^${EVENT}`) }).click();
  await page.getByRole('heading', { level: 1, name: EVENT }).waitFor();
  return {
    page,
    errors,
    close: () => context.close(),
    setOffline: (offline) => context.setOffline(offline),
  };
}

async function enterCode(page: Page, text: string) {
  await page.getByLabel('Ticket-Code eingeben').fill(text);
  await page.getByRole('button', { name: 'Prüfen', exact: true }).click();
}

describe('when the QR code will not scan (rules "Tickets and the door")', () => {
  it('the short code from the PDF typed in: "Gültig", typed again: "Bereits eingecheckt"; the hint says what to type', async () => {
    const printed = await codeFromPdf(karla[0]!, 'karla');
    expect(printed).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(printed.replace('-', '')).toBe((await listed(karla[0]!)).code);

    // The ticket page shows the same code under its QR code.
    const ticket = await openPage(browser, { viewport: MOBILE });
    await ticket.page.goto(`${site.url}/tickets/${encodeURIComponent(karla[0]!)}`);
    await ticket.page.getByText(printed, { exact: true }).waitFor();
    expect(await axeViolations(ticket.page)).toEqual([]);
    await ticket.page.screenshot({ path: '/tmp/ticket-page-code.png' });
    await ticket.context.close();

    const door = await openDoor();
    const { page } = door;
    await page
      .getByText('Der Code unter dem QR-Code, z. B. K7QM-3XPA, oder der Link zum Ticket.')
      .waitFor();
    await enterCode(page, printed);
    const valid = await verdict(page, 'valid');
    expect(await valid.textContent()).toContain('Gültig');
    expect(await valid.textContent()).toContain('Karla Kundin');
    await page.screenshot({ path: '/tmp/einlass-code-valid.png' });
    await dismiss(page);
    await enterCode(page, printed);
    expect(await (await verdict(page, 'already')).textContent()).toMatch(
      /Bereits eingecheckt.*um \d\d:\d\d \(Tür 1\)/,
    );
    await dismiss(page);
    // The check-in reaches the server as the code with its event.
    await eventually(async () => (await listed(karla[0]!)).checkedInDevice, 'Tür 1');
    expect(door.errors).toEqual([]);
    await door.close();
  });

  it('typed in lower case, with spaces, O for 0 and l for 1: the same ticket', async () => {
    await setCode(claims(karla[1]!).t, 'K7QM10PA');
    const printed = await codeFromPdf(karla[1]!, 'karla-2');
    expect(printed).toBe('K7QM-10PA');
    const door = await openDoor();
    await enterCode(door.page, 'k7 qm l o p a');
    expect(await (await verdict(door.page, 'valid')).textContent()).toContain('Ticket 2 von 3');
    await dismiss(door.page);
    await enterCode(door.page, 'K7QM-10PA');
    await verdict(door.page, 'already');
    await door.close();
  });

  it('a revoked ticket\'s code: "Storniert"; another event\'s code names that event', async () => {
    const door = await openDoor();
    const revokedCode = (await listed(refunded.tokens[0]!)).code!;
    // The revoked ticket's PDF prints no code: the door staff have it from the list here.
    await enterCode(door.page, revokedCode.toLowerCase());
    expect(await (await verdict(door.page, 'revoked')).textContent()).toContain('Storniert');
    await door.page.screenshot({ path: '/tmp/einlass-code-revoked.png' });
    await dismiss(door.page);

    const otherCode = await codeFromPdf(other[0]!, 'other');
    await enterCode(door.page, otherCode);
    const wrong = await verdict(door.page, 'otherEvent');
    expect(await wrong.textContent()).toContain('Anderes Event');
    expect(await wrong.textContent()).toContain(`„${OTHER_EVENT}“`);
    await door.page.screenshot({ path: '/tmp/einlass-code-other-event.png' });
    await dismiss(door.page);

    await enterCode(door.page, 'ZZZZ-ZZZZ');
    expect(await (await verdict(door.page, 'invalid')).textContent()).toContain(
      'Nicht in der Ticketliste',
    );
    await door.close();
  });

  it('"kund" lists Karla Kundin\'s seat nobody was named for under her name; one tap checks it in', async () => {
    const door = await openDoor();
    const { page } = door;
    await page.getByLabel('Gästeliste durchsuchen').fill('kund');
    const hits = page.getByRole('list', { name: 'Treffer' });
    const unnamed = hits
      .getByRole('listitem')
      .filter({ hasText: 'Ohne Namen · gekauft von Karla Kundin' })
      .filter({ hasText: 'Ticket 3 von 3' });
    await unnamed.waitFor();
    expect(await hits.getByRole('listitem').count()).toBe(3);
    expect(await unnamed.textContent()).toContain('Noch nicht eingecheckt');
    await page.screenshot({ path: '/tmp/einlass-search-kund.png', fullPage: true });
    await unnamed.getByRole('button', { name: /einchecken$/ }).click();
    expect(await (await verdict(page, 'valid')).textContent()).toContain('Ticket 3 von 3');
    await dismiss(page);
    await eventually(async () => (await listed(karla[2]!)).checkedInDevice, 'Tür 1');
    expect(door.errors).toEqual([]);
    await door.close();
  });

  it('offline: the guest list finds "Jonas Müller" as "muller", one tap checks him in; the check-in syncs later', async () => {
    const door = await openDoor();
    const { page } = door;
    await door.setOffline(true);
    await page.getByText(/^Offline/).waitFor();

    const search = page.getByLabel('Gästeliste durchsuchen');
    await search.fill('m');
    await page.getByText('Bitte mindestens zwei Buchstaben oder Ziffern eingeben.').waitFor();
    await search.fill('muller');
    const hits = page.getByRole('list', { name: 'Treffer' });
    const hit = hits.getByRole('listitem').filter({ hasText: 'Jonas Müller' });
    await hit.waitFor();
    expect(await hits.getByRole('listitem').count()).toBe(1);
    expect(await hit.textContent()).toContain('Noch nicht eingecheckt');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/einlass-search.png', fullPage: true });

    // By e-mail address (the list keeps only a key of it) and a refunded guest's status.
    await search.fill('JONAS@example.org');
    await hits.getByRole('listitem').filter({ hasText: 'Jonas Müller' }).waitFor();
    await search.fill('rückgabe');
    await hits.getByRole('listitem').filter({ hasText: 'Storniert' }).waitFor();

    await search.fill('Mueller');
    await hit.getByRole('button', { name: /einchecken$/ }).click();
    const valid = await verdict(page, 'valid');
    expect(await valid.textContent()).toContain('Jonas Müller');
    await dismiss(page);
    await page.getByText('Offline – 1 Scan wartet auf Verbindung').waitFor();
    await search.fill('jonas');
    await hit.getByText(/^Eingecheckt um \d\d:\d\d \(Tür 1\)$/).waitFor();
    await page.screenshot({ path: '/tmp/einlass-search-checked-in.png', fullPage: true });
    // Tapped again: "Bereits eingecheckt", as a second scan would say.
    await hit.getByRole('button', { name: /prüfen$/ }).click();
    await verdict(page, 'already');
    await dismiss(page);
    expect((await listed(jonas[0]!)).checkedInAt).toBeUndefined();

    await door.setOffline(false);
    await page.getByText('1 Check-in übertragen.').waitFor({ timeout: 20_000 });
    expect(await listed(jonas[0]!)).toMatchObject({ checkedInDevice: 'Tür 1' });
    await door.close();
  });
});
