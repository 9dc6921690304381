// Registers the ticket pages' service worker (frontend/public/tickets/sw.js) from the
// ticket page only (its chunk, never the entry), scoped to /tickets/, so no other page of
// the site is ever controlled by it (rules "Tickets and the door": a visited ticket opens
// offline).

export const TICKET_SW_URL = '/tickets/sw.js';
export const TICKET_SW_SCOPE = '/tickets/';

/** This page's address and every same-origin file it has loaded so far. */
function pageFiles(): string[] {
  const files = performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((name) => {
      const url = new URL(name, location.href);
      return url.origin === location.origin && !url.pathname.startsWith('/api/');
    });
  return [location.pathname, ...files];
}

export async function registerTicketWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  try {
    await navigator.serviceWorker.register(TICKET_SW_URL, { scope: TICKET_SW_SCOPE });
    const registration = await navigator.serviceWorker.ready;
    // The first visit loaded everything before the worker existed: it keeps it now.
    registration.active?.postMessage({ type: 'keep', urls: pageFiles() });
  } catch {
    // Without the worker the page still works online; it just cannot reopen offline.
  }
}
