// Registers /einlass's service worker (frontend/public/einlass-sw.js) from this page only,
// with the page's own scope, so no other page of the site is ever controlled by it.

export const DOOR_SW_URL = '/einlass-sw.js';
export const DOOR_SW_SCOPE = '/einlass';

/** Everything from /assets/ this page has loaded so far (entry, route chunks, fonts, wasm). */
function loadedAssets(): string[] {
  return performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((name) => {
      const url = new URL(name, location.href);
      return url.origin === location.origin && url.pathname.startsWith('/assets/');
    });
}

/** Asks the worker to keep what was loaded before it took control. */
export async function cacheLoadedAssets(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const registration = await navigator.serviceWorker.getRegistration(DOOR_SW_SCOPE);
  const worker = registration?.active ?? registration?.waiting ?? registration?.installing;
  worker?.postMessage({ type: 'cache-assets', urls: loadedAssets() });
}

export async function registerDoorWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  try {
    await navigator.serviceWorker.register(DOOR_SW_URL, { scope: DOOR_SW_SCOPE });
    await navigator.serviceWorker.ready;
    await cacheLoadedAssets();
  } catch {
    // Without the worker the page still works online; it just cannot reload offline.
  }
}
