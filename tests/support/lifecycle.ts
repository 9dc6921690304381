import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { startTarget, type RunningSite } from './site.js';

/**
 * A spec's beforeAll: the site under test (`startTarget(env)`) and a Chromium beside it.
 * The site is stopped again when the browser does not start.
 */
export async function startSiteAndBrowser(
  env: Record<string, string> = {},
): Promise<{ site: RunningSite; browser: Browser }> {
  const site = await startTarget(env);
  try {
    return { site, browser: await launchBrowser() };
  } catch (error) {
    await site.stop();
    throw error;
  }
}

/**
 * A spec's afterAll: closes the browser, then stops the site; either may be missing when
 * the beforeAll failed half-way.
 */
export async function stopSiteAndBrowser(started: {
  site?: RunningSite;
  browser?: Browser;
}): Promise<void> {
  await started.browser?.close();
  await started.site?.stop();
}
