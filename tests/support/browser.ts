import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium; these flags keep it off the (closed) network and quiet. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
}

/**
 * A visitor's browser: Chromium's headless user agent says "HeadlessChrome", which the server
 * (isbot) treats as a crawler, and crawlers get no error pages (rules §2). Suites that test
 * crawlers pass their own user agent.
 */
export const VISITOR_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** A fresh context (own storage) and page that records console errors. */
export async function openPage(
  browser: Browser,
  options: { viewport?: { width: number; height: number }; userAgent?: string } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 390, height: 844 },
    userAgent: options.userAgent ?? VISITOR_USER_AGENT,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    // `npm test` runs the compose suite beside this one on the same host: Docker's bridges
    // and veth interfaces come and go, and Chromium aborts loads in flight with
    // ERR_NETWORK_CHANGED. That is the host's network, not the site; a load the page needed
    // still fails the test where the page is asserted.
    if (msg.type() === 'error' && !msg.text().includes('net::ERR_NETWORK_CHANGED')) {
      errors.push(msg.text());
    }
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}
