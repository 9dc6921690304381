import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { axeViolations } from '../support/axe.js';
import { openPage } from '../support/browser.js';
import { buyTickets } from '../support/door.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';

// rules "The organizer" in Chromium through the production topology: on /veranstalter the
// organizer downloads the event's name badges (from its card and from its guest list),
// writes to every holder (preview, a test to the test mailbox, then the sending with its
// count), and renews the door code, which locks out a door phone unlocked with the old one.
// Screenshots and the badge sheet go to /tmp.

jest.setTimeout(180_000);

const ORGANIZER_CODE = 'Pp8h-Ab6x-Pzdp-5g4f';
const EVENT = 'Sommer-Afterwork auf der MS Hamburg';
const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';
const SUBJECT = 'Neuer Treffpunkt heute Abend';

let site: RunningSite;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  ({ site, browser } = await startSiteAndBrowser({ ORGANIZER_CODE }));
  dir = mkdtempSync(join(tmpdir(), 'awhh-organizer-tools-'));
}, 120_000);

afterAll(async () => {
  await stopSiteAndBrowser({ site, browser });
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The mail preview's frame is left out: it runs no script (sandboxed), so axe cannot enter
 * it, and it shows the mail, whose own layout the mail tests check.
 */
const AXE = { exclude: 'iframe[sandbox]' };

describe("the organizer's tools on /veranstalter", () => {
  it('downloads the badges, mails every holder once, renews the door code', async () => {
    const buyer = await openPage(browser);
    await buyTickets(buyer.page, site.url, { eventPath: EVENT_PATH, tier: 'Regulär', quantity: 2 });
    await buyer.context.close();

    const organizer = await openPage(browser);
    const { page } = organizer;
    await page.goto(`${site.url}/veranstalter`);
    await page.getByLabel('Veranstaltercode').fill(ORGANIZER_CODE);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    const card = page.getByRole('article', { name: EVENT });
    await card.waitFor();
    await card.getByText('Namensschilder und Nachricht an alle').click();

    // The badges: an A4 sheet with both tickets, the buyer's name on the first.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: /Namensschilder \(A4\)/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^namensschilder-\d+-a4\.pdf$/);
    const pdf = join(dir, 'badges.pdf');
    await download.saveAs(pdf);
    expect(execFileSync('pdfinfo', [pdf]).toString()).toMatch(/^Pages:\s+1$/m);
    expect(execFileSync('pdftotext', [pdf, '-']).toString()).toContain('Karla Kundin');
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '60',
      '-singlefile',
      pdf,
      '/tmp/veranstalter-namensschilder',
    ]);

    // The mail: preview, a test, then to every holder (one address: the buyer's).
    await card.getByLabel('Betreff').fill(SUBJECT);
    await card
      .getByLabel('Nachricht')
      .fill('Hallo zusammen,\n\nwir treffen uns heute am Anleger 3.\n\nBis später!');
    await card.getByRole('button', { name: 'Vorschau' }).click();
    const preview = card.frameLocator(`iframe[title="Vorschau: ${SUBJECT}"]`);
    await preview.getByText('wir treffen uns heute am Anleger 3.').waitFor();
    await card.getByText(/Empfänger: 1 Adresse/).waitFor();
    await card.getByRole('button', { name: 'An mich testen' }).click();
    await card.getByText(/Testmail an .+ ist unterwegs\./).waitFor();
    expect(await axeViolations(page, AXE)).toEqual([]);
    await page.screenshot({ path: '/tmp/veranstalter-nachricht.png', fullPage: true });
    await card.getByRole('button', { name: 'An alle senden' }).click();
    await card.getByRole('button', { name: 'Ja, jetzt senden' }).click();
    await card.getByText(`„${SUBJECT}“ geht an 1 Adresse.`).waitFor();
    await card.getByText(/1 von 1 gesendet/).waitFor({ timeout: 15_000 });
    const mails = (await (await fetch(`${site.url}/api/mail-test/messages`)).json()) as {
      to: string;
      subject: string;
    }[];
    expect(mails.filter((m) => m.subject === SUBJECT).map((m) => m.to)).toEqual([
      'karla@example.org',
    ]);
    expect(mails.filter((m) => m.subject === `[Test] ${SUBJECT}`)).toHaveLength(1);

    // The door code: a phone unlocked with it, then renewed here: the phone is locked out.
    const panel = page.getByRole('region', { name: 'Türcode für /einlass' });
    await panel.getByRole('button', { name: 'Anzeigen' }).click();
    const oldCode = await panel.locator('[data-door-code]').getAttribute('data-door-code');
    const unlocked = await fetch(`${site.url}/api/checkin/session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${oldCode}` },
    });
    expect(unlocked.status).toBe(201);
    const { token } = (await unlocked.json()) as { token: string };
    const phone = () =>
      fetch(`${site.url}/api/checkin/events`, { headers: { authorization: `Bearer ${token}` } });
    expect((await phone()).status).toBe(200);
    await panel.getByRole('button', { name: 'Türcode erneuern' }).click();
    await panel.getByRole('button', { name: 'Ja, erneuern' }).click();
    await panel.getByText('Neuer Türcode aktiv.', { exact: false }).waitFor();
    const newCode = await panel.locator('[data-door-code]').getAttribute('data-door-code');
    expect(newCode).not.toBe(oldCode);
    expect((await phone()).status).toBe(401);
    expect(
      (
        await fetch(`${site.url}/api/checkin/events`, {
          headers: { authorization: `Bearer ${newCode}` },
        })
      ).status,
    ).toBe(200);
    expect(await axeViolations(page, AXE)).toEqual([]);

    // The same badges from the guest list, with one click.
    await card.getByRole('link', { name: /Gästeliste/ }).click();
    const [fromList] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Namensschilder (PDF)' }).click(),
    ]);
    const listPdf = join(dir, 'badges-from-list.pdf');
    await fromList.saveAs(listPdf);
    expect(execFileSync('pdftotext', [listPdf, '-']).toString()).toContain('Karla Kundin');
    expect(organizer.errors).toEqual([]);
    await organizer.context.close();
  });
});
