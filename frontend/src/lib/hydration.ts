import type { HydrationState } from 'react-router';

/**
 * The server's loader results for the page, written into the HTML as a JSON data block
 * (not an inline script: the Content-Security-Policy allows scripts from files only).
 */
export const PAGE_DATA_ID = 'awhh-page-data';

export interface PageData {
  hydration: HydrationState;
  /** The server's per-request decision (lib/bot.ts). */
  bot: boolean;
  /** The site's public origin the page was rendered with (lib/site-origin.ts). */
  origin: string;
}

export function readPageData(): PageData | null {
  const block = document.getElementById(PAGE_DATA_ID);
  if (!block?.textContent) return null;
  try {
    return JSON.parse(block.textContent) as PageData;
  } catch {
    return null;
  }
}
