import type { Browser, Page } from 'playwright-core';
import { CART_STORAGE_KEY, type BlogPostSummary, type EventSummary } from '@awhh/machines';
import { axeViolations } from '../support/axe.js';
import { openPage } from '../support/browser.js';
import { startSiteAndBrowser, stopSiteAndBrowser } from '../support/lifecycle.js';
import type { RunningSite } from '../support/site.js';

// Every route of rules §2 in Chromium against the built site on the embedded defaults.
let site: RunningSite;
let browser: Browser;
let event: EventSummary;
let post: BlogPostSummary;

beforeAll(async () => {
  ({ site, browser } = await startSiteAndBrowser());
  const events = (await (await fetch(`${site.url}/api/events`)).json()) as EventSummary[];
  const posts = (await (await fetch(`${site.url}/api/blog`)).json()) as BlogPostSummary[];
  event = events.find((e) => !e.past)!;
  post = posts[0]!;
});

afterAll(() => stopSiteAndBrowser({ site, browser }));

const APPLE_PAY_ASSOCIATION_FILE = '/.well-known/apple-developer-merchantid-domain-association';

/** A page with a ticket in the cart, so /cart and /checkout show their full content. */
async function withTicket(page: Page) {
  await page.goto(`${site.url}/`);
  await page.evaluate(
    ([key, item]) => localStorage.setItem(key!, item!),
    [
      CART_STORAGE_KEY,
      JSON.stringify([
        {
          id: String(event.id),
          productId: event.id,
          name: event.name,
          price: event.price,
          quantity: 2,
        },
      ]),
    ],
  );
}

const routes = (): { path: string; heading: string | RegExp }[] => [
  { path: '/', heading: /Networking, Music/ },
  { path: `/events/${event.slug}`, heading: event.name },
  { path: '/next', heading: event.name },
  { path: '/cart', heading: 'Warenkorb' },
  { path: '/checkout', heading: 'Kasse' },
  { path: '/success', heading: 'Deine Bestellung' },
  { path: '/blog', heading: 'Blog' },
  { path: `/blog/${post.slug}`, heading: post.title },
  { path: '/faq', heading: 'Häufige Fragen' },
  { path: '/contact', heading: 'Kontakt' },
  { path: '/impressum', heading: 'Impressum' },
  { path: '/datenschutz', heading: 'Datenschutzerklärung' },
  { path: '/coupon-test', heading: 'Gutschein-Test' },
  { path: '/webhook-test', heading: 'Webhook-Test' },
  { path: '/apple-pay-test', heading: 'Apple-Pay-Test' },
  { path: '/einlass', heading: 'Einlass' },
  { path: '/veranstalter', heading: 'Veranstalterbereich' },
];

describe('pages', () => {
  it('every route renders its page without console errors', async () => {
    const { page, context } = await openPage(browser);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      // /apple-pay-test probes for the Apple Pay domain file; its 404 is the answer "nein".
      if (msg.location().url.endsWith(APPLE_PAY_ASSOCIATION_FILE)) return;
      errors.push(`${msg.text()} ${msg.location().url}`);
    });
    await withTicket(page);
    for (const route of routes()) {
      await page.goto(`${site.url}${route.path}`);
      await page.getByRole('heading', { level: 1, name: route.heading }).waitFor();
      expect(await page.title()).not.toBe('');
      expect({ path: route.path, errors }).toEqual({ path: route.path, errors: [] });
    }
    await context.close();
  });

  it('an unknown route shows "Page Not Found" with "Page not found: {path}"', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${site.url}/gibt-es-nicht`);
    await page.getByRole('heading', { level: 1, name: 'Page Not Found' }).waitFor();
    await page.getByText('Page not found: /gibt-es-nicht').waitFor();
    // Client-side navigation to an unknown path ends the same way.
    await page.goto(`${site.url}/`);
    await page.evaluate(() => {
      window.history.pushState({}, '', '/auch/nicht/da');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.getByText('Page not found: /auch/nicht/da').waitFor();
    await context.close();
  });

  it('a bot user agent gets no error page', async () => {
    const { page, context } = await openPage(browser, {
      userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    });
    await page.goto(`${site.url}/gibt-es-nicht`);
    await page
      .getByRole('banner')
      .getByRole('link', { name: /Warenkorb/ })
      .waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('Page Not Found').count()).toBe(0);
    expect(await page.getByText(/Page not found/).count()).toBe(0);
    await context.close();
  });

  it('axe finds no violations on the main pages', async () => {
    const { page, context } = await openPage(browser);
    await withTicket(page);
    const main = [
      '/',
      `/events/${event.slug}`,
      '/cart',
      '/checkout',
      '/blog',
      `/blog/${post.slug}`,
      '/faq',
      '/contact',
      '/impressum',
      '/datenschutz',
    ];
    for (const path of main) {
      await page.goto(`${site.url}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      const violations = await axeViolations(page);
      expect({ path, violations }).toEqual({ path, violations: [] });
    }
    await context.close();
  });
});
