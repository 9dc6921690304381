import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, openPage } from './browser.js';
import { addTierToCart, type Buyer, payInTestMode } from './journeys.js';
import { runOnStore } from './store.js';

// Helpers of the door check-in journeys (rules "Tickets and the door").

export const FFMPEG_PATH = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';

export function hasFfmpeg(): boolean {
  return existsSync(FFMPEG_PATH);
}

/**
 * A looping fake-camera video: the QR code for 3 s, then 3 s of white. The gap makes the
 * door see the same code come back, as when a guest shows a ticket a second time.
 */
export function qrVideo(png: string, out: string): void {
  const frame =
    'scale=640:480:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2:color=white,setsar=1,fps=10,format=yuv420p';
  execFileSync(
    FFMPEG_PATH,
    [
      '-y',
      '-loglevel',
      'error',
      '-loop',
      '1',
      '-t',
      '3',
      '-i',
      png,
      '-f',
      'lavfi',
      '-t',
      '3',
      '-i',
      'color=c=white:s=640x480:r=10',
      '-filter_complex',
      `[0:v]${frame}[qr];[1:v]setsar=1,format=yuv420p[blank];[qr][blank]concat=n=2:v=1[out]`,
      '-map',
      '[out]',
      '-pix_fmt',
      'yuv420p',
      out,
    ],
    { stdio: 'pipe' },
  );
}

/** Chromium whose camera shows the given .y4m video (its fake-device switches). */
export function launchBrowserWithCamera(y4m: string): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${y4m}`,
      // The verdict's beep plays without a tap first.
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}

export interface Purchase {
  tokens: string[];
  sessionId: string;
}

/**
 * Buys `quantity` seats in test mode (of `tier`, on an event with tiers) as `buyer` (Karla
 * unless named) and reads the tickets from /success.
 */
export async function buyTickets(
  page: Page,
  siteUrl: string,
  {
    eventPath,
    tier,
    quantity,
    buyer,
  }: { eventPath: string; tier?: string; quantity: number; buyer?: Buyer },
): Promise<Purchase> {
  await page.goto(`${siteUrl}${eventPath}`);
  if (tier) {
    await addTierToCart(page, tier, quantity);
  } else {
    for (let i = 1; i < quantity; i += 1) await page.getByRole('button', { name: 'Mehr' }).click();
    await page.getByRole('button', { name: 'In den Warenkorb' }).click();
    await page.getByText(/in den Warenkorb gelegt/).waitFor();
  }
  await page.goto(`${siteUrl}/checkout`);
  await payInTestMode(page, buyer);
  const sessionId = new URL(page.url()).searchParams.get('session_id') ?? '';
  const links = page
    .getByRole('region', { name: /^(Dein Ticket|Deine Tickets)$/ })
    .getByRole('link', { name: /^Dein Ticket für/ });
  await links.nth(quantity - 1).waitFor({ timeout: 20_000 });
  const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  return {
    sessionId,
    tokens: hrefs.map((href) => decodeURIComponent(href.split('/tickets/')[1] ?? '')),
  };
}

/**
 * Moves an event's issued tickets to tonight, two hours from now, in the site's store (its
 * SQLite file, or DATABASE_URL's PostgreSQL): the door lets guests in from 12 hours before
 * the start only, and the demo's events lie weeks ahead. The door's lists and check-ins
 * read the event's date from the tickets.
 */
export async function moveEventToTonight(dataDir: string, eventId: number): Promise<string> {
  const startsAt = new Date(Date.now() + 2 * 3_600_000).toISOString();
  await runOnStore(dataDir, 'update tickets set starts_at = ? where event_id = ?', [
    startsAt,
    eventId,
  ]);
  return startsAt;
}

/** A ticket token's claims (ticket id `t`, event `e`, seat `s`; `g` once passed on), unchecked. */
export function claims(token: string): { t: string; e: number; s: number; g?: number } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

/** A ticket as the door's list gives it to /einlass. */
export interface ListedTicket {
  id: string;
  status: string;
  code?: string;
  checkedInAt?: string;
  checkedInDevice?: string;
}

/** The door's list entry of the ticket `token`, read with the door code as /einlass does. */
export async function listedAtDoor(
  siteUrl: string,
  doorCode: string,
  eventId: number,
  token: string,
): Promise<ListedTicket> {
  const path = `/api/checkin/events/${eventId}/tickets`;
  const res = await fetch(`${siteUrl}${path}`, {
    headers: { authorization: `Bearer ${doorCode}` },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const list = (await res.json()) as { tickets: ListedTicket[] };
  return list.tickets.find((t) => t.id === claims(token).t)!;
}

/** Polls until `read` gives `expected` (the server applies a sync or refund within seconds). */
export async function eventually<T>(
  read: () => Promise<T>,
  expected: T,
  timeout = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeout;
  let last: T = await read();
  while (last !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 300));
    last = await read();
  }
  expect(last).toBe(expected);
}

/** The verdict `kind` (`data-verdict`) shown on /einlass within 5 s. */
export async function verdict(page: Page, kind: string) {
  const shown = page.locator(`[data-verdict="${kind}"]`);
  await shown.waitFor({ timeout: 5_000 });
  return shown;
}

/**
 * "Weiter scannen": the verdict goes, the door is ready for the next ticket. The verdict
 * also closes itself after 2.5 s (`VERDICT_MS`): on a loaded machine it may be gone before
 * the click, which is the same end.
 */
export async function dismiss(page: Page) {
  await page
    .getByRole('button', { name: 'Weiter scannen' })
    .click({ timeout: 2_000 })
    .catch(() => undefined);
  await page.locator('[data-verdict]').waitFor({ state: 'detached' });
}

/** The door's phone: /einlass is used upright on one. */
export const DOOR_PHONE = { width: 390, height: 844 };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A fresh phone at the door: its own storage (no door session, no list), upright. */
export function freshDoor(
  browser: Browser,
): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  return openPage(browser, { viewport: DOOR_PHONE });
}

/** /einlass unlocked with the door code: the event picker shows. */
export async function unlock(page: Page, siteUrl: string, code: string): Promise<void> {
  await page.goto(`${siteUrl}/einlass`);
  await page.getByRole('heading', { level: 1, name: 'Einlass' }).waitFor();
  await page.getByLabel('Türcode').fill(code);
  await page.getByRole('button', { name: 'Entsperren' }).click();
  await page.getByRole('heading', { level: 1, name: 'Event wählen' }).waitFor();
}

/**
 * On the event picker: `event` chosen, its list on the phone and the scan screen open;
 * with `device`, the phone named so (its check-ins say which door let the guest in).
 */
export async function chooseEvent(page: Page, event: string, device?: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${escapeRegExp(event)}`) }).click();
  await page.getByRole('heading', { level: 1, name: event }).waitFor();
  if (device) {
    await page.getByLabel('Name dieses Geräts').fill(device);
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.getByText(`Einlass · ${device}`).waitFor();
  }
}

/** A ticket code (or a ticket page's address) typed into the manual entry and checked. */
export async function enterCode(page: Page, text: string): Promise<void> {
  await page.getByLabel('Ticket-Code eingeben').fill(text);
  await page.getByRole('button', { name: 'Prüfen' }).click();
}
