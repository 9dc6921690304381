import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { MAX_UNITS_PER_ORDER } from '@awhh/machines';
import { launchBrowser, openPage } from '../support/browser.js';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { REPO_ROOT, type RunningSite, startSite } from '../support/site.js';
import { type RunningStack, startStackCli } from '../stack/stack-support.js';
import { wooEvent } from '../support/woocommerce-fixtures.js';
import { percentile } from './tickets.bench.js';

/**
 * The budgets of the door check-in (the door's phone loads the whole list before the doors
 * open and judges every scan offline, so the queue never waits on the network), on one site
 * process (the built backend serving the built frontend) with one event of 2,000+ tickets
 * bought through the test provider:
 * - the event's ticket list (`GET /api/checkin/events/:eventId/tickets`) ≤ 150 KB gzip,
 *   compressed here at nginx's gzip_comp_level (and at zlib's default, 6), once before the
 *   doors open and once with every ticket checked in (the largest the list gets);
 * - one sync of 500 queued first-time scans (`POST /api/checkin/scans`) ≤ 2 s;
 * - scan to verdict on /einlass in Chromium, offline, ≤ 100 ms (p95): the ticket code typed
 *   into the manual entry, so the camera's decoding is not part of it, timed in the page
 *   from the form's submit to the first frame showing "Gültig";
 * - a guest-list search by name over the event's 2,000+ tickets on /einlass, offline, ≤ 30 ms
 *   (p95): timed in the page from the search field's input to the first frame showing the
 *   hits (the list with its short codes, order numbers and e-mail keys is the one measured
 *   above).
 *
 * And online, on the production topology (`npm run stack`: nginx in front of the products
 * and checkout processes) with an event of 220 tickets (`measureOnlineScans`):
 * - door scan → server verdict ≤ 300 ms (p95): a phone online asks the server about each
 *   scan before it shows the verdict (it waits 1.5 s at most, then decides offline), so the
 *   round trip is what a guest waits at the door. One first-time scan per
 *   `POST /api/checkin/scans` through nginx with a door session, timed from the request to
 *   the full answer; beside each scan, as the reference in the same run, the same round trip
 *   through nginx to the same process without the store (`GET /api/tickets/public-key`).
 */

export const CHECKIN_LIST_BUDGET_KB = 150;
export const CHECKIN_SYNC_BUDGET_MS = 2_000;
export const CHECKIN_VERDICT_BUDGET_MS = 100;
export const CHECKIN_SEARCH_BUDGET_MS = 30;
export const CHECKIN_ONLINE_BUDGET_P95_MS = 300;

export interface CheckinFigures {
  /** nginx's gzip_comp_level, read from nginx/ (1, nginx's default, when unset). */
  nginxGzipLevel: number;
  /** The ticket list before any check-in, gzip KB at nginx's level and at level 6. */
  listGzipKb: { nginx: number; level6: number };
  /** The same list once every ticket is checked in. */
  listAllCheckedInGzipKb: { nginx: number; level6: number };
  /** Tickets of the event (all valid). */
  tickets: number;
  /** ms per POST of 500 first-time scans (fresh tickets, fresh scan ids), per run. */
  sync500Ms: number[];
  /** ms from the manual entry's submit to the first frame with the verdict, per ticket. */
  scanToVerdictMs: number[];
  /** ms from the same submit to the verdict in the DOM, per ticket. */
  scanToVerdictDomMs: number[];
  /** ms from a name typed into the guest-list search to the first frame with its hits. */
  guestSearchMs: number[];
}

/** The door's online round trip on the stack, per scan. */
export interface OnlineScanFigures {
  /** ms from POST /api/checkin/scans (one first-time scan) to its full answer, per scan. */
  scanMs: number[];
  /** ms of GET /api/tickets/public-key through the same nginx, taken beside each scan. */
  referenceMs: number[];
}

/** One row in the shape of all.bench.ts's `row(group, metric, runs, unit, budget)`. */
export interface CheckinRow {
  group: string;
  metric: string;
  runs: number[];
  unit: string;
  budget?: { op: '<=' | '>='; value: number };
}

const KB = 1024;
/** Seats per checkout: the most one order may hold (MAX_TICKETS_PER_ORDER is raised to it). */
const PER_ORDER = MAX_UNITS_PER_ORDER;
/** About 2,000 tickets, an evening of a large venue. */
const ORDERS = Number(process.env.BENCH_CHECKIN_ORDERS ?? 104);
const SYNC_RUNS = 3;
const SYNC_SIZE = 500;
const WARM_UP_SCANS = 20;
const BROWSER_SCANS = 20;
const PRODUCT_ID = 1401;
const EVENT_NAME = 'Einlass-Messung im Hafenklang';
const PRICE = 25;
const CODE = 'A6DH-ZQF8-SK6M-G87Y';
const HOLDERS = ['Karla Kundin', 'Jonas Becker', 'Aylin Yilmaz', 'Mia Schröder', 'Finn Hansen'];
/** rules "Named tickets": every seat named, with a company, as a company's group would be. */
const COMPANIES = ['Hafenkontor GmbH', 'Elbwerk AG', 'Speicherstadt Digital', 'Nordlicht & Co. KG'];
/** Names as the door staff type them: parts, without umlauts, in other spellings. */
const SEARCHES = ['kun', 'Becker', 'yilm', 'schroeder', 'Finn H', 'mia', 'aylin y', 'hans'];
const SEARCH_ROUNDS = 3;

/** nginx's gzip_comp_level for the site (nginx/templates first, then nginx.conf). */
export function nginxGzipLevel(): number {
  for (const file of ['nginx/templates/default.conf.template', 'nginx/nginx.conf']) {
    const path = join(REPO_ROOT, file);
    if (!existsSync(path)) continue;
    const match = /^\s*gzip_comp_level\s+(\d+)\s*;/m.exec(readFileSync(path, 'utf8'));
    if (match) return Number(match[1]);
  }
  return 1;
}

function claims(token: string): { t: string; e: number; s: number } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function measureCheckin(dataDir: string): Promise<CheckinFigures> {
  const level = nginxGzipLevel();
  const woo = new FakeWooCommerce({ products: [tonightsEvent()] });
  await woo.start();
  let site: RunningSite | null = null;
  let browser: Browser | null = null;
  try {
    site = await startSite({
      ...woo.env,
      DATABASE_URL: `sqlite:${join(dataDir, 'awhh-checkin.db')}`,
      CHECKIN_CODE: CODE,
      MAX_TICKETS_PER_ORDER: String(PER_ORDER),
      LOG_LEVEL: 'error',
    });
    const url = site.url;
    const tokens: string[] = [];
    for (let i = 0; i < ORDERS; i += 1) tokens.push(...(await buySeats(url, i)));
    // The ticket mails (a PDF per seat) are rendered after the payment: wait until they
    // are all out, so they do not run beside the measurements.
    await mailsDelivered(url, ORDERS);
    const eventId = claims(tokens[0]!).e;
    if (!tokens.every((t) => claims(t).e === eventId)) throw new Error('tickets of two events');
    if (tokens.length < WARM_UP_SCANS + SYNC_RUNS * SYNC_SIZE + 1 + BROWSER_SCANS)
      throw new Error(`only ${tokens.length} tickets`);

    const list = await ticketList(url, eventId);
    if (list.count !== tokens.length)
      throw new Error(`the list has ${list.count} tickets, not ${tokens.length}`);
    const listGzipKb = gzipKb(list.body, level);

    let next = 0;
    const take = (n: number) => tokens.slice(next, (next += n));
    // Warm-up: JIT, statement cache, the signer's key.
    await sync(url, take(WARM_UP_SCANS));
    const sync500Ms: number[] = [];
    for (let run = 0; run < SYNC_RUNS; run += 1) sync500Ms.push(await sync(url, take(SYNC_SIZE)));

    browser = await launchBrowser();
    const scanned = take(1 + BROWSER_SCANS);
    const verdicts = await scanOffline(browser, url, scanned);

    // Every ticket checked in (the browser's scans never left it): the list at its largest.
    const rest = [...scanned, ...take(tokens.length)];
    for (let i = 0; i < rest.length; i += SYNC_SIZE) await sync(url, rest.slice(i, i + SYNC_SIZE));
    const full = await ticketList(url, eventId);
    if (full.checkedIn !== tokens.length)
      throw new Error(`${full.checkedIn} of ${tokens.length} tickets checked in`);

    return {
      nginxGzipLevel: level,
      listGzipKb,
      listAllCheckedInGzipKb: gzipKb(full.body, level),
      tickets: list.count,
      sync500Ms,
      scanToVerdictMs: verdicts.frame,
      scanToVerdictDomMs: verdicts.dom,
      guestSearchMs: verdicts.search,
    };
  } finally {
    await browser?.close();
    await site?.stop();
    await woo.stop();
  }
}

const ONLINE_WARM_UP = 20;
const ONLINE_SCANS = Number(process.env.BENCH_CHECKIN_ONLINE_SCANS ?? 200);

/**
 * The door online on the stack: an event tonight with enough tickets for every scan, a door
 * session, then one first-time scan per request through nginx, each followed by the
 * reference request. The first ONLINE_WARM_UP pairs warm up and are not kept.
 */
export async function measureOnlineScans(): Promise<OnlineScanFigures> {
  const woo = new FakeWooCommerce({ products: [tonightsEvent()] });
  await woo.start();
  let stack: RunningStack | null = null;
  try {
    stack = await startStackCli({
      ...woo.env,
      CHECKIN_CODE: CODE,
      MAX_TICKETS_PER_ORDER: String(PER_ORDER),
      LOG_LEVEL: 'error',
    });
    const url = stack.url;
    const needed = ONLINE_WARM_UP + ONLINE_SCANS;
    const orders = Math.ceil(needed / PER_ORDER);
    const tokens: string[] = [];
    for (let i = 0; i < orders; i += 1) tokens.push(...(await buySeats(url, i, false)));
    // The ticket mails and their PDFs are rendered by the checkout process: out of the way
    // before the clock runs.
    await mailsDelivered(url, orders);

    const unlocked = await fetch(`${url}/api/checkin/session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CODE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ device: 'Tür 1' }),
    });
    if (unlocked.status !== 201) throw new Error(`door session: ${unlocked.status}`);
    const { token: session } = (await unlocked.json()) as { token: string };

    const scanMs: number[] = [];
    const referenceMs: number[] = [];
    for (const [i, token] of tokens.slice(0, needed).entries()) {
      const scan = await scanOnline(url, session, token);
      const reference = await timed(`${url}/api/tickets/public-key`);
      if (i >= ONLINE_WARM_UP) {
        scanMs.push(scan);
        referenceMs.push(reference);
      }
    }
    return { scanMs, referenceMs };
  } finally {
    await stack?.stop();
    if (stack) rmSync(stack.dir, { recursive: true, force: true });
    await woo.stop();
  }
}

/** The bench's event, tonight in two hours: the door takes scans from 12 hours before. */
function tonightsEvent() {
  return wooEvent(PRODUCT_ID, {
    name: EVENT_NAME,
    price: PRICE.toFixed(2),
    stock_quantity: 100_000,
    meta_data: [
      {
        id: PRODUCT_ID * 10 + 1,
        key: 'event_start_date',
        value: new Date(Date.now() + 2 * 3_600_000).toISOString(),
      },
      { id: PRODUCT_ID * 10 + 2, key: 'location', value: 'Hafenklang, Hamburg' },
    ],
  });
}

/** One scan as the phone sends it online; ms to the full answer, which must be "ok". */
async function scanOnline(url: string, session: string, token: string): Promise<number> {
  const body = JSON.stringify({
    scans: [{ scanId: randomUUID(), token, scannedAt: new Date().toISOString(), device: 'Tür 1' }],
  });
  const start = performance.now();
  const res = await fetch(`${url}/api/checkin/scans`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
    body,
  });
  const answer = (await res.json()) as { results?: { status: string }[] };
  const ms = performance.now() - start;
  if (res.status !== 200 || answer.results?.[0]?.status !== 'ok') {
    throw new Error(`online scan answered ${res.status}: ${JSON.stringify(answer)}`);
  }
  return ms;
}

/** ms of one GET to its full answer, which must be 200. */
async function timed(url: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  const ms = performance.now() - start;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return ms;
}

function gzipKb(body: Buffer, level: number): { nginx: number; level6: number } {
  return {
    nginx: gzipSync(body, { level }).length / KB,
    level6: gzipSync(body, { level: 6 }).length / KB,
  };
}

/**
 * One order of PER_ORDER seats through the test provider; the tickets' tokens. `named`:
 * every seat named with its own token, as a company's group would (the list is larger).
 */
async function buySeats(url: string, i: number, named = true): Promise<string[]> {
  // Each order as its own buyer: the checkout's per-address limit is not what is measured.
  const ip = `10.10.${i >> 8}.${(i & 255) + 1}`;
  const request = () =>
    fetch(`${url}/api/checkout/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({
        line_items: [
          {
            productId: PRODUCT_ID,
            name: EVENT_NAME,
            amount: PRICE,
            quantity: PER_ORDER,
            currency: 'eur',
          },
        ],
        success_url: `${url}/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${url}/cart`,
        payment_method: 'card',
      }),
    });
  let res = await request();
  // Through nginx every order comes from one address, whose checkouts nginx paces (20 a
  // minute after a burst): a refused one is sent again when the limit lets it.
  for (let tries = 0; res.status === 429 && tries < 10; tries += 1) {
    await res.arrayBuffer();
    await sleep(Number(res.headers.get('retry-after') ?? 3) * 1000);
    res = await request();
  }
  if (res.status !== 201) throw new Error(`checkout answered ${res.status}: ${await res.text()}`);
  const session = (await res.json()) as { id: string; url: string };
  const paid = await fetch(`${session.url}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    body: new URLSearchParams({
      email: `einlass${i}@example.org`,
      name: HOLDERS[i % HOLDERS.length]!,
    }).toString(),
    redirect: 'manual',
  });
  if (paid.status !== 303) throw new Error(`payment answered ${paid.status}`);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const state = await fetch(`${url}/api/checkout/session/${encodeURIComponent(session.id)}`, {
      headers: { 'x-forwarded-for': ip },
    });
    if (state.ok) {
      const { tickets = [] } = (await state.json()) as { tickets?: { token: string }[] };
      if (tickets.length === PER_ORDER) {
        const tokens = tickets.map((t) => t.token);
        if (named) await nameSeats(url, ip, i, tokens);
        return tokens;
      }
    }
    if (Date.now() > deadline) throw new Error(`no ${PER_ORDER} tickets for order ${i}`);
    await sleep(50);
  }
}

/** Names every seat of an order with its own token (rules "Named tickets"). */
async function nameSeats(url: string, ip: string, order: number, tokens: string[]): Promise<void> {
  for (const [seat, token] of tokens.entries()) {
    const res = await fetch(`${url}/api/tickets/${encodeURIComponent(token)}/holder`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({
        name: HOLDERS[(order + seat) % HOLDERS.length],
        company: COMPANIES[(order + seat) % COMPANIES.length],
      }),
    });
    if (!res.ok) throw new Error(`naming a seat answered ${res.status}`);
  }
}

/**
 * The test mailbox lists its newest 50 mails only: the mails are out once the last order's
 * is there (the job runner sends them in the order the payments queued them).
 */
async function mailsDelivered(url: string, count: number): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  const last = `einlass${count - 1}@example.org`;
  for (;;) {
    const res = await fetch(`${url}/api/mail-test/messages`);
    if (!res.ok) throw new Error(`the test mailbox answered ${res.status}`);
    const mails = (await res.json()) as { to: string }[];
    if (mails.length >= Math.min(count, 50) && mails.some((m) => m.to === last)) return;
    if (Date.now() > deadline) throw new Error(`fewer than ${count} ticket mails in 10 minutes`);
    await sleep(500);
  }
}

const door = { authorization: `Bearer ${CODE}` };

/** The list as sent (uncompressed: the body is gzipped here at the levels compared). */
async function ticketList(
  url: string,
  eventId: number,
): Promise<{ body: Buffer; count: number; checkedIn: number }> {
  const res = await fetch(`${url}/api/checkin/events/${eventId}/tickets`, {
    headers: { ...door, 'accept-encoding': 'identity' },
  });
  if (!res.ok) throw new Error(`ticket list: ${res.status} ${await res.text()}`);
  const body = Buffer.from(await res.arrayBuffer());
  const { tickets } = JSON.parse(body.toString('utf8')) as {
    tickets: { status: string; checkedInAt?: string }[];
  };
  return {
    body,
    count: tickets.filter((t) => t.status === 'valid').length,
    checkedIn: tickets.filter((t) => t.checkedInAt).length,
  };
}

/** One POST of first-time scans, as a door's queue sends it; ms to the full answer. */
async function sync(url: string, batch: string[]): Promise<number> {
  // Scanned in the last seconds, 10 ms apart: after every ticket was issued (an earlier
  // time would be answered "invalid") and never later than the sync.
  const scannedAt = Date.now() - batch.length * 10;
  const body = JSON.stringify({
    scans: batch.map((token, i) => ({
      scanId: randomUUID(),
      token,
      scannedAt: new Date(scannedAt + i * 10).toISOString(),
      device: `Tür ${(i % 4) + 1}`,
    })),
  });
  const start = performance.now();
  const res = await fetch(`${url}/api/checkin/scans`, {
    method: 'POST',
    headers: { ...door, 'content-type': 'application/json' },
    body,
  });
  const answer = (await res.json()) as { results?: { status: string }[] };
  const ms = performance.now() - start;
  if (res.status !== 200) throw new Error(`sync answered ${res.status}: ${JSON.stringify(answer)}`);
  const ok = answer.results?.filter((r) => r.status === 'ok').length ?? 0;
  if (ok !== batch.length) throw new Error(`${ok} of ${batch.length} scans answered "ok"`);
  return ms;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * /einlass as in tests/e2e/checkin.spec.ts: unlocked with the door code, the event chosen
 * (its list and the verifier loaded), then offline; each ticket code typed into the manual
 * entry and submitted. The first scan warms up and is not counted.
 */
async function scanOffline(
  browser: Browser,
  url: string,
  batch: string[],
): Promise<{ frame: number[]; dom: number[]; search: number[] }> {
  const { page, context, errors } = await openPage(browser);
  try {
    await page.goto(`${url}/einlass`);
    await page.getByRole('heading', { level: 1, name: 'Einlass' }).waitFor();
    await page.getByLabel('Türcode').fill(CODE);
    await page.getByRole('button', { name: 'Entsperren' }).click();
    await page.getByRole('heading', { level: 1, name: 'Event wählen' }).waitFor();
    await page.getByRole('button', { name: new RegExp(`^${escapeRegExp(EVENT_NAME)}`) }).click();
    // The scan screen opens once the list and the public key are on the device.
    await page.getByRole('heading', { level: 1, name: EVENT_NAME }).waitFor({ timeout: 30_000 });
    await page.getByText(/^\d+ von \d+ eingecheckt$/).waitFor();
    await context.setOffline(true);
    await page.getByText(/^Offline/).waitFor();

    const frame: number[] = [];
    const dom: number[] = [];
    for (const [i, token] of batch.entries()) {
      const timing = await submitAndTime(page, token);
      if (i > 0) {
        frame.push(timing.frame);
        dom.push(timing.dom);
      }
      await page.getByRole('button', { name: 'Weiter scannen' }).click();
      await page.locator('[data-verdict]').waitFor({ state: 'detached' });
    }
    await page.getByText(`Offline – ${batch.length} Scans warten auf Verbindung`).waitFor();

    // The guest list, offline: the first search warms up and is not counted.
    const search: number[] = [];
    for (let round = 0; round < SEARCH_ROUNDS; round += 1) {
      for (const [i, query] of SEARCHES.entries()) {
        const ms = await searchAndTime(page, query);
        if (round > 0 || i > 0) search.push(ms);
      }
    }
    // The sync's requests fail while offline, as they should; anything else is a fault.
    const faults = errors.filter((e) => !e.includes('net::ERR_INTERNET_DISCONNECTED'));
    if (faults.length) throw new Error(`/einlass: ${faults.join('; ')}`);
    return { frame, dom, search };
  } finally {
    await context.close();
  }
}

/** Types the code (untimed), then times submit → verdict inside the page. */
async function submitAndTime(page: Page, token: string): Promise<{ frame: number; dom: number }> {
  const input = page.getByLabel('Ticket-Code eingeben');
  await input.fill(token);
  const result = await input.evaluate(
    (element) =>
      new Promise<{ kind: string; text: string; frame: number; dom: number }>((resolve) => {
        const form = (element as HTMLInputElement).form!;
        let start = 0;
        const timeout = setTimeout(
          () => resolve({ kind: 'none', text: '', frame: NaN, dom: NaN }),
          5_000,
        );
        const observer = new MutationObserver(() => {
          const shown = document.querySelector<HTMLElement>('[data-verdict]');
          if (!shown) return;
          const dom = performance.now() - start;
          observer.disconnect();
          clearTimeout(timeout);
          // The frame that paints it: its callbacks run just before the paint.
          requestAnimationFrame(() =>
            resolve({
              kind: shown.dataset.verdict ?? '',
              text: shown.textContent ?? '',
              frame: performance.now() - start,
              dom,
            }),
          );
        });
        observer.observe(document.body, { childList: true, subtree: true });
        start = performance.now();
        form.requestSubmit();
      }),
  );
  if (result.kind !== 'valid' || !result.text.includes('Gültig'))
    throw new Error(`verdict "${result.kind}" (${result.text}) for ticket ${claims(token).t}`);
  return { frame: result.frame, dom: result.dom };
}

/**
 * Types `query` into the empty guest-list search at once (as a paste) and times, in the
 * page, the input event to the first frame showing its hits; then empties the field.
 */
async function searchAndTime(page: Page, query: string): Promise<number> {
  const input = page.getByLabel('Gästeliste durchsuchen');
  const result = await input.evaluate(
    (element, text) =>
      new Promise<{ hits: number; ms: number }>((resolve) => {
        const field = element as HTMLInputElement;
        const section = field.closest('section')!;
        let start = 0;
        const timeout = setTimeout(() => resolve({ hits: 0, ms: NaN }), 5_000);
        const observer = new MutationObserver(() => {
          const hits = section.querySelectorAll('li').length;
          if (hits === 0) return;
          observer.disconnect();
          clearTimeout(timeout);
          requestAnimationFrame(() => resolve({ hits, ms: performance.now() - start }));
        });
        observer.observe(section, { childList: true, subtree: true });
        // React listens for the input event; the value goes in through the native setter.
        const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
        start = performance.now();
        setValue.call(field, text);
        field.dispatchEvent(new Event('input', { bubbles: true }));
      }),
    query,
  );
  if (!(result.hits > 0)) throw new Error(`the guest list found nobody for "${query}"`);
  await input.fill('');
  await page.getByRole('list', { name: 'Treffer' }).waitFor({ state: 'detached' });
  return result.ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The figures as all.bench.ts rows: `for (const r of checkinRows(f)) row(r.group, …)`. */
export function checkinRows(f: CheckinFigures): CheckinRow[] {
  const list = CHECKIN_LIST_BUDGET_KB * KB;
  const scans = f.scanToVerdictMs.length;
  return [
    {
      group: 'checkin',
      metric: `ticket list with short codes, ${f.tickets} tickets (gzip ${f.nginxGzipLevel}, as nginx)`,
      runs: [f.listGzipKb.nginx * KB],
      unit: 'B',
      budget: { op: '<=', value: list },
    },
    {
      group: 'checkin',
      metric: `ticket list with short codes, ${f.tickets} tickets (gzip 6)`,
      runs: [f.listGzipKb.level6 * KB],
      unit: 'B',
    },
    {
      group: 'checkin',
      metric: `ticket list, all checked in (gzip ${f.nginxGzipLevel}, as nginx)`,
      runs: [f.listAllCheckedInGzipKb.nginx * KB],
      unit: 'B',
      budget: { op: '<=', value: list },
    },
    {
      group: 'checkin',
      metric: 'ticket list, all checked in (gzip 6)',
      runs: [f.listAllCheckedInGzipKb.level6 * KB],
      unit: 'B',
    },
    {
      group: 'checkin',
      metric: `sync of ${SYNC_SIZE} first-time scans, one POST`,
      runs: f.sync500Ms,
      unit: 'ms',
      budget: { op: '<=', value: CHECKIN_SYNC_BUDGET_MS },
    },
    {
      group: 'checkin',
      metric: `scan → verdict offline in Chromium, decode excluded, median of ${scans}`,
      runs: [median(f.scanToVerdictMs)],
      unit: 'ms',
    },
    {
      group: 'checkin',
      metric: `scan → verdict offline in Chromium, decode excluded, p95 of ${scans}`,
      runs: [percentile(f.scanToVerdictMs, 95)],
      unit: 'ms',
      budget: { op: '<=', value: CHECKIN_VERDICT_BUDGET_MS },
    },
    {
      group: 'checkin',
      metric: `guest-list search by name, ${f.tickets} tickets, offline in Chromium, median of ${f.guestSearchMs.length}`,
      runs: [median(f.guestSearchMs)],
      unit: 'ms',
    },
    {
      group: 'checkin',
      metric: `guest-list search by name, ${f.tickets} tickets, offline in Chromium, p95 of ${f.guestSearchMs.length}`,
      runs: [percentile(f.guestSearchMs, 95)],
      unit: 'ms',
      budget: { op: '<=', value: CHECKIN_SEARCH_BUDGET_MS },
    },
  ];
}

/** The online figures as all.bench.ts rows, the reference beside them. */
export function onlineScanRows(f: OnlineScanFigures): CheckinRow[] {
  const n = f.scanMs.length;
  const via = 'one scan per POST /api/checkin/scans, via nginx on the stack';
  const reference = 'reference: GET /api/tickets/public-key via the same nginx, no store';
  return [
    {
      group: 'checkin',
      metric: `door scan → server verdict online, median of ${n} (${via})`,
      runs: [median(f.scanMs)],
      unit: 'ms',
    },
    {
      group: 'checkin',
      metric: `door scan → server verdict online, p95 of ${n} (${via})`,
      runs: [percentile(f.scanMs, 95)],
      unit: 'ms',
      budget: { op: '<=', value: CHECKIN_ONLINE_BUDGET_P95_MS },
    },
    {
      group: 'checkin',
      metric: `${reference}, median of ${f.referenceMs.length}`,
      runs: [median(f.referenceMs)],
      unit: 'ms',
    },
    {
      group: 'checkin',
      metric: `${reference}, p95 of ${f.referenceMs.length}`,
      runs: [percentile(f.referenceMs, 95)],
      unit: 'ms',
    },
  ];
}
