import { formatTicketCode, type Ticket } from '@awhh/machines';
import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { openPage, VISITOR_USER_AGENT } from '../support/browser.js';
import { addTierToCart, payInTestMode } from '../support/journeys.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';
import { jsQR } from '../support/tickets.js';

// rules "Tickets and the door": a ticket's page needs one request. Its server HTML carries
// the event, the holder, the short code and the QR code as inline SVG; it is kept by no
// shared cache (private, no-store; nginx's microcache never stores it); after one visit
// its service worker (scope /tickets/) opens it again without network.

const EVENT = 'Sommer-Afterwork auf der MS Hamburg';
const EVENT_PATH = '/events/sommer-afterwork-ms-hamburg';
const TIER = 'Regulär';
const HOLDER = 'Karla Kundin';

let site: RunningSite;
let browser: Browser;
let token: string;
/** The second seat's token, passed on in the last test. */
let second: string;

beforeAll(async () => {
  ({ site, browser } = await startSiteAndBrowser());
  const { page, context } = await openPage(browser);
  await page.goto(`${site.url}${EVENT_PATH}`);
  await addTierToCart(page, TIER, 2);
  await page.goto(`${site.url}/checkout`);
  await payInTestMode(page);
  const links = page
    .getByRole('region', { name: 'Deine Tickets' })
    .getByRole('link', { name: /^Dein Ticket für/ });
  await links.nth(1).waitFor();
  const tokenOf = async (i: number) =>
    decodeURIComponent((await links.nth(i).getAttribute('href'))!.split('/').pop()!);
  token = await tokenOf(0);
  second = await tokenOf(1);
  await context.close();
}, 120_000);

afterAll(() => stopSiteAndBrowser({ site, browser }));

function pageUrl(): string {
  return `${site.url}/tickets/${encodeURIComponent(token)}`;
}

describe('a ticket page in one request', () => {
  it('the server HTML is the whole ticket: event, holder, short code and the QR code as inline SVG', async () => {
    const ticket = (await (
      await fetch(`${site.url}/api/tickets/${encodeURIComponent(token)}`)
    ).json()) as Ticket;
    expect(ticket.holder).toBe(HOLDER);

    const response = await fetch(pageUrl(), { headers: { 'user-agent': VISITOR_USER_AGENT } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const html = await response.text();
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).toContain(EVENT);
    expect(root).toContain(HOLDER);
    expect(root).not.toContain('Ticket wird geladen');
    expect(ticket.code).toBeTruthy();
    expect(root).toContain(formatTicketCode(ticket.code!));
    // The code itself, drawn on the server: an <svg> with the modules' path.
    const svg = /<svg[^>]*data-token="([^"]+)"[^>]*>[\s\S]*?<\/svg>/.exec(root);
    expect(svg?.[1]).toBe(token);
    expect(svg?.[0]).toMatch(/<path d="M\d+ \d+h1v1h-1z/);
  });

  it('is never kept by the shared cache: a second request is rendered again', async () => {
    const headers = { 'user-agent': VISITOR_USER_AGENT };
    const first = await fetch(pageUrl(), { headers });
    const second = await fetch(pageUrl(), { headers });
    expect(second.status).toBe(200);
    for (const response of [first, second]) {
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      expect(response.headers.get('x-cache-status')).not.toBe('HIT');
    }
    // The home page does go through the microcache on the stack (a control for the above).
    if (process.env.E2E_TARGET === 'stack') {
      await fetch(`${site.url}/`, { headers });
      const home = await fetch(`${site.url}/`, { headers });
      expect(home.headers.get('x-cache-status')).toMatch(/HIT|UPDATING|STALE/);
    }
  });

  it('says so in the server HTML when the link names no ticket, or one passed on since', async () => {
    const headers = { 'user-agent': VISITOR_USER_AGENT };
    const unknown = await fetch(`${site.url}/tickets/eyJhbGciOiJFZERTQSJ9.e30.AAAA`, { headers });
    expect(unknown.headers.get('cache-control')).toBe('private, no-store');
    expect(await unknown.text()).toContain('Ticket nicht gefunden');

    const transfer = await fetch(`${site.url}/api/tickets/${encodeURIComponent(second)}/transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: site.url },
      body: JSON.stringify({ name: 'Paul Partner', email: 'paul@example.org' }),
    });
    expect(transfer.status).toBe(200);
    const html = await (
      await fetch(`${site.url}/tickets/${encodeURIComponent(second)}`, { headers })
    ).text();
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).toContain('Ticket weitergegeben');
    expect(root).toContain('Dieser Link gilt nicht mehr');
    // No code to show: the old link's QR code is void.
    expect(root).not.toContain('data-token=');
  });

  it('shows its code before any script runs, and again offline after one visit', async () => {
    const { page, context, errors } = await openPage(browser, {
      viewport: { width: 390, height: 844 },
    });
    // Without JavaScript: what the server sent is the ticket.
    const bare = await browser.newContext({
      javaScriptEnabled: false,
      userAgent: VISITOR_USER_AGENT,
    });
    const plain = await bare.newPage();
    await plain.goto(pageUrl());
    await plain.getByRole('heading', { level: 1, name: EVENT }).waitFor();
    const shot = PNG.sync.read(await plain.getByRole('img', { name: /QR-Code/ }).screenshot());
    expect(jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height)?.data).toBe(token);
    await bare.close();

    // One visit with the network; the worker keeps the page and what it loaded.
    const apiCalls: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path === `/api/tickets/${encodeURIComponent(token)}`) apiCalls.push(path);
    });
    await page.goto(pageUrl());
    await page.getByRole('heading', { level: 1, name: EVENT }).waitFor();
    const kept = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration('/tickets/');
        if (!registration?.active || !navigator.serviceWorker.controller) return false;
        const cache = await caches.open('awhh-tickets-v1');
        return (await cache.keys()).some((r) => new URL(r.url).pathname === location.pathname);
      });
    for (let i = 0; i < 100 && !(await kept()); i += 1) await page.waitForTimeout(100);
    expect(await kept()).toBe(true);
    // The ticket came with the HTML: the page never asked the tickets API for it.
    expect(apiCalls).toEqual([]);

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: EVENT }).waitFor();
    await page.getByText(HOLDER).first().waitFor();
    const qr = page.getByRole('img', { name: /QR-Code/ });
    const png = PNG.sync.read(await qr.screenshot());
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(token);
    await page.screenshot({ path: '/tmp/ticket-offline-390.png', fullPage: true });
    await context.setOffline(false);
    expect(
      errors.filter((e) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(e)),
    ).toEqual([]);
    await context.close();
  });
});
