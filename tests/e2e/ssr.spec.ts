import type { Browser } from 'playwright-core';
import {
  CART_STORAGE_KEY,
  formatEuro,
  type BlogPostSummary,
  type EventDetail,
  type EventSummary,
  type MerchSummary,
} from '@awhh/machines';
import { openPage, VISITOR_USER_AGENT } from '../support/browser.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';

// rules "Rendering": every page is rendered on the server from the route modules the
// browser hydrates. Crawlers and the first paint get the content without JavaScript; the
// browser takes the HTML over without a hydration mismatch; the cart (local storage)
// appears after hydration without moving anything.

let site: RunningSite;
let browser: Browser;
let events: EventSummary[];
let tiered: EventDetail;
let merch: MerchSummary;
let post: BlogPostSummary;

const getJson = async <T>(path: string) => (await (await fetch(`${site.url}${path}`)).json()) as T;

beforeAll(async () => {
  ({ site, browser } = await startSiteAndBrowser());
  events = await getJson<EventSummary[]>('/api/events');
  const withTiers = events.find((e) => e.variants.length > 1) ?? events[0]!;
  tiered = await getJson<EventDetail>(`/api/events/${withTiers.slug}`);
  merch = (await getJson<MerchSummary[]>('/api/merch'))[0]!;
  post = (await getJson<BlogPostSummary[]>('/api/blog'))[0]!;
});

afterAll(() => stopSiteAndBrowser({ site, browser }));

/** The page's text as a crawler reads it: the HTML without scripts, tags and entities. */
async function crawl(path: string): Promise<{ status: number; text: string; html: string }> {
  const res = await fetch(`${site.url}${path}`, {
    headers: { 'user-agent': VISITOR_USER_AGENT },
    redirect: 'manual',
  });
  const html = await res.text();
  const text = html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ');
  return { status: res.status, text, html };
}

const price = (euros: number) => formatEuro(euros).replace(/\s/g, ' ');

describe('content in the HTML (no JavaScript)', () => {
  it('/ lists the upcoming events with names and prices, merch and blog posts', async () => {
    const { status, text } = await crawl('/');
    expect(status).toBe(200);
    for (const event of events.filter((e) => !e.past)) {
      expect(text).toContain(event.name);
      expect(text.replace(/\s/g, ' ')).toContain(price(event.price));
    }
    expect(text).toContain(merch.name);
    expect(text).toContain(post.title);
  });

  it('needs no inline script: only data blocks and the bundles (CSP script-src self)', async () => {
    for (const path of ['/', `/events/${tiered.slug}`, '/faq', '/gibt-es-nicht']) {
      const { html } = await crawl(path);
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      const inline = scripts.filter(
        (tag) => !/\bsrc=|type="application\/(?:json|ld\+json)"/.test(tag),
      );
      expect({ path, inline }).toEqual({ path, inline: [] });
      expect(html).not.toMatch(/<template\b/);
    }
  });

  it('an event page carries description, price and every ticket tier', async () => {
    const { status, text } = await crawl(`/events/${tiered.slug}`);
    expect(status).toBe(200);
    expect(text).toContain(tiered.name);
    expect(text).toContain(price(tiered.price));
    for (const tier of tiered.variants) expect(text).toContain(tier.name);
    const firstWords = tiered.descriptionHtml
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .split(' ')
      .slice(0, 4)
      .join(' ');
    expect(text).toContain(firstWords);
  });

  it('merch, blog, FAQ and the legal pages are readable too; unknown paths are 404', async () => {
    expect((await crawl(`/merch/${merch.slug}`)).text).toContain(merch.name);
    expect((await crawl('/blog')).text).toContain(post.title);
    expect((await crawl(`/blog/${post.slug}`)).text).toContain(post.title);
    expect((await crawl('/faq')).text).toMatch(/Häufige Fragen.*\?/);
    expect((await crawl('/impressum')).text).toContain('Angaben gemäß § 5 DDG');
    expect((await crawl('/datenschutz')).text).toContain('Verantwortlicher');
    const missing = await crawl('/gibt-es-nicht');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('Page not found: /gibt-es-nicht');
    expect((await crawl('/events/gibt-es-nicht')).status).toBe(404);
  });

  it('links the calendar of all evenings as webcal:// on / and in every footer (rules "Calendar of all evenings")', async () => {
    const calendarLinks = (html: string) =>
      [...html.matchAll(/<a href="([^"]*)"[^>]*>Alle Termine abonnieren<\/a>/g)].map((m) => m[1]);
    const home = await crawl('/');
    // The site's public origin, as the page names it in its canonical link.
    const origin = new URL(/<link rel="canonical" href="([^"]+)"/.exec(home.html)![1]!).origin;
    const webcal = `${origin.replace(/^https?:/, 'webcal:')}/events.ics`;
    expect(calendarLinks(home.html)).toEqual([webcal, webcal]);
    expect(calendarLinks((await crawl('/faq')).html)).toEqual([webcal]);
    // The link opens the calendar on this site.
    const feed = await fetch(`${site.url}${new URL(webcal.replace(/^webcal:/, 'http:')).pathname}`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(await feed.text()).toContain('BEGIN:VEVENT');
  });

  it('a crawler gets the 404 status without the error page (rules §2)', async () => {
    const res = await fetch(`${site.url}/gibt-es-nicht`, {
      headers: { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0)' },
    });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('Page Not Found</h1>');
  });

  it('loads / with no stylesheet request and only the small fonts; the next route brings its own CSS', async () => {
    const { page, context, errors } = await openPage(browser);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${site.url}/`);
    await page.waitForLoadState('networkidle');
    // The CSS is in the page; its links are for Vite only and stay unfetched, also after
    // hydration loaded the route chunks that import them.
    expect(requested.filter((path) => path.endsWith('.css'))).toEqual([]);
    // German text needs only the small faces (frontend/build/font-subsets.ts).
    const fonts = requested.filter((path) => path.endsWith('.woff2'));
    expect(fonts).toHaveLength(2);
    for (const font of fonts) expect(font).toMatch(/^\/assets\/[\w-]+-core-[\w-]+\.woff2$/);
    expect(
      await page.evaluate(() => document.fonts.check('600 2rem "Cormorant Garamond"', 'Äußerst')),
    ).toBe(true);

    const before = requested.length;
    const next = events.find((e) => !e.past)!;
    await page.locator(`a[href="/events/${next.slug}"]`).first().click();
    await page.getByRole('heading', { level: 1, name: next.name }).waitFor();
    const later = requested.slice(before);
    expect(later.filter((path) => path.endsWith('.css')).length).toBeGreaterThan(0);
    expect(later.filter((path) => path.startsWith('/assets/home-'))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('paints the event page in the site look with JavaScript off', async () => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await page.goto(`${site.url}/events/${tiered.slug}`);
    await page.getByRole('heading', { level: 1, name: tiered.name }).waitFor();
    // The stylesheets apply: the fixed header sits at the top, the page is dark.
    const header = await page
      .locator('header.site-header')
      .evaluate((el) => getComputedStyle(el).position);
    expect(header).toBe('fixed');
    await context.close();
  });
});

/** React 19 reports mismatches through console.error and onRecoverableError (main.tsx). */
const HYDRATION_PROBLEM =
  /hydrat|did not match|didn't match|server rendered|React hat sich von einem Fehler erholt/i;

describe('hydration', () => {
  const pages = () => [
    '/',
    `/events/${tiered.slug}`,
    `/merch/${merch.slug}`,
    '/cart',
    '/checkout',
    '/success',
    '/blog',
    `/blog/${post.slug}`,
    '/faq',
    '/contact',
    '/impressum',
    '/datenschutz',
    '/coupon-test',
    '/webhook-test',
    '/apple-pay-test',
    '/mail-test',
    '/veranstalter',
    '/gibt-es-nicht',
    // A path Fastify cannot decode: the 404 page for that very address.
    '/events/%ff',
  ];

  it('takes over every page without a mismatch, with a cart in local storage', async () => {
    const { page, context } = await openPage(browser);
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (
        (msg.type() === 'error' || msg.type() === 'warning') &&
        HYDRATION_PROBLEM.test(msg.text())
      )
        problems.push(msg.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${site.url}/faq`);
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key!, value!),
      [
        CART_STORAGE_KEY,
        JSON.stringify([
          {
            id: String(tiered.id),
            productId: tiered.id,
            name: tiered.name,
            price: 10,
            quantity: 3,
          },
        ]),
      ],
    );
    for (const path of pages()) {
      await page.goto(`${site.url}${path}`);
      await page.waitForLoadState('networkidle');
      // The badge comes from local storage, after hydration.
      await page.getByTestId('cart-badge').getByText('3').waitFor();
      expect({ path, problems }).toEqual({ path, problems: [] });
    }
    await context.close();
  });

  it('hydrated pages work: the event page adds to the cart, no layout shift on /', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${site.url}/`);
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key!, value!),
      [CART_STORAGE_KEY, JSON.stringify([{ id: '1', name: 'Ticket', price: 10, quantity: 2 }])],
    );
    await page.addInitScript(() => {
      (window as unknown as { __cls: number }).__cls = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number }[])
          (window as unknown as { __cls: number }).__cls += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.reload();
    await page.getByTestId('cart-badge').getByText('2').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBe(0);

    await page.goto(`${site.url}/events/${tiered.slug}`);
    await page.getByRole('button', { name: 'In den Warenkorb' }).click();
    await page.getByTestId('cart-badge').getByText('3').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
