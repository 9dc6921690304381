import type { Browser } from 'playwright-core';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { wooEvent, wpPost } from '../support/woocommerce-fixtures.js';
import { launchBrowser, openPage } from '../support/browser.js';
import { startStackCli, type RunningStack } from '../stack/stack-support.js';

/**
 * Whoever can edit a product or a post in WordPress must not be able to run script in a
 * visitor's browser: the server sanitises CMS HTML (rules "/blog") and nginx's CSP forbids
 * inline script (nginx/snippets/security-headers.conf). Every payload below, if it ran, would bump `window.__xss`.
 */

const MARK = 'window.__xss=(window.__xss||0)+1';
const PAYLOADS = [
  `<img src=x onerror="${MARK}">`,
  `<script>${MARK}</script>`,
  `<svg onload="${MARK}"><circle r="1"/></svg>`,
  `<a href="javascript:${MARK}" id="xss-link">Mehr erfahren</a>`,
  `<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>`,
  `</script><script>${MARK}</script>`,
  `"><img src=x onerror=${MARK}>`,
  `<details open ontoggle="${MARK}"><summary>x</summary></details>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${MARK}">`,
  `<object data="javascript:${MARK}"></object>`,
  `<form action="javascript:${MARK}"><button id="xss-button">Senden</button></form>`,
];
const ALL = PAYLOADS.join('\n');

let woo: FakeWooCommerce;
let stack: RunningStack;
let browser: Browser;

beforeAll(async () => {
  woo = new FakeWooCommerce({
    products: [
      wooEvent(951, {
        slug: 'xss-abend',
        name: `Abend ${PAYLOADS[6]} ${PAYLOADS[5]}`,
        short_description: ALL,
        description: ALL,
        images: [{ id: 1, src: `javascript:${MARK}`, alt: PAYLOADS[6]! }],
        meta_data: [
          { id: 1, key: 'event_date', value: '2099-06-01 19:00:00' },
          { id: 2, key: 'location', value: `${PAYLOADS[0]} Hamburg` },
        ],
      }),
    ],
    posts: [
      wpPost(961, {
        slug: 'xss-beitrag',
        title: { rendered: `Beitrag ${PAYLOADS[5]}${PAYLOADS[6]}` },
        content: { rendered: ALL },
        excerpt: { rendered: ALL },
        _embedded: { author: [{ name: PAYLOADS[0] }] },
      }),
    ],
  });
  await woo.start();
  stack = await startStackCli({ ...woo.env, CATALOG_TTL_SECONDS: '300' });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await woo?.stop();
});

describe('hostile: XSS payloads in CMS fields never execute', () => {
  it('the API hands out sanitised HTML only', async () => {
    const event = (await (await fetch(`${stack.url}/api/events/xss-abend`)).json()) as Record<
      string,
      unknown
    >;
    const post = (await (await fetch(`${stack.url}/api/blog/xss-beitrag`)).json()) as Record<
      string,
      unknown
    >;
    for (const html of [
      event.descriptionHtml,
      event.shortDescription,
      post.contentHtml,
      post.excerpt,
    ]) {
      expect(typeof html).toBe('string');
      expect(html).not.toMatch(/<script|<iframe|<object|<svg|<math|\son\w+\s*=|javascript:/i);
    }
  });

  it.each(['/events/xss-abend', '/blog/xss-beitrag', '/', '/blog'])(
    'the raw HTML of %s (meta tags, JSON-LD) carries no live markup from the CMS',
    async (path) => {
      const res = await fetch(stack.url + path);
      const html = await res.text();
      expect(html).not.toContain(`<script>${MARK}`);
      expect(html).not.toMatch(/<img src=x onerror/i);
      // JSON-LD must not be closable from inside: "</script" is escaped in JSON.
      for (const block of html.matchAll(
        /<script type="application\/ld\+json">([\s\S]*?)<\/script>/g,
      )) {
        expect(() => JSON.parse(block[1]!)).not.toThrow();
      }
      expect(res.headers.get('content-security-policy')).toMatch(/script-src/);
      expect(res.headers.get('content-security-policy')).not.toMatch(
        /script-src[^;]*'unsafe-inline'/,
      );
    },
  );

  it.each(['/events/xss-abend', '/blog/xss-beitrag', '/', '/blog'])(
    'nothing runs in Chromium on %s, even when the visitor clicks the planted link',
    async (path) => {
      const { page, context } = await openPage(browser);
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(stack.url + path, { waitUntil: 'networkidle' });
      // The CMS content is on the page, else this would prove nothing.
      await page
        .getByText(/Abend|Beitrag/)
        .first()
        .waitFor({ timeout: 10_000 });
      await page.waitForTimeout(300);
      for (const id of ['#xss-link', '#xss-button']) {
        const target = page.locator(id).first();
        if ((await target.count()) > 0 && (await target.isVisible())) {
          await target.click({ timeout: 2_000 }).catch(() => undefined);
        }
      }
      await page.waitForTimeout(300);
      const fired = await page.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? 0);
      expect({ fired, dialogs }).toEqual({ fired: 0, dialogs: [] });
      await context.close();
    },
  );
});
