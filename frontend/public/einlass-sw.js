/* global self, caches */
// Service worker of the door check-in page /einlass (rules "Tickets and the door": it
// must open and scan without network). Registered only by /einlass with scope /einlass,
// so it controls that page alone and never touches the rest of the site. It keeps:
//   - the page's HTML (network first, the copy when offline),
//   - the hashed bundles under /assets/ the page loads (cache first: a hash never changes),
//   - a few public files of the shell (logo, favicon).
// API requests are never cached here: the page keeps its data in IndexedDB.
const CACHE = 'awhh-einlass-v1';
const PAGE = '/einlass';
const SHELL_FILES = ['/favicon.svg', '/favicon.ico', '/logo.svg'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.add(new Request(PAGE, { cache: 'reload' }));
      await Promise.all(SHELL_FILES.map((url) => cache.add(url).catch(() => undefined)));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('awhh-einlass-') && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

function isAsset(url) {
  return url.origin === self.location.origin && url.pathname.startsWith('/assets/');
}

function isShellFile(url) {
  return url.origin === self.location.origin && SHELL_FILES.includes(url.pathname);
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request, { ignoreVary: true });
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
  return response;
}

async function page(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) {
      // A new deploy names new bundles: the old ones go, listed before the browser can
      // load (and cache) any of the new ones.
      const stale = await staleAssets(cache, await response.clone().text());
      await cache.put(PAGE, response.clone());
      await Promise.all(stale.map((old) => cache.delete(old)));
    }
    return response;
  } catch (error) {
    const copy = await cache.match(PAGE);
    if (copy) return copy;
    throw error;
  }
}

/** The cached bundles, when the page's entry script is not among them (a new deploy). */
async function staleAssets(cache, html) {
  const entry = /<script[^>]+src="(\/assets\/[^"]+)"/.exec(html);
  if (!entry || (await cache.match(entry[1]))) return [];
  return (await cache.keys()).filter((r) => new URL(r.url).pathname.startsWith('/assets/'));
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (request.mode === 'navigate') {
    if (url.origin === self.location.origin && url.pathname === PAGE) {
      event.respondWith(page(request));
    }
    return;
  }
  if (isAsset(url) || isShellFile(url)) event.respondWith(cacheFirst(request));
});

// The page names the bundles it loaded before this worker controlled it.
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'cache-assets' || !Array.isArray(data.urls)) return;
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      for (const href of data.urls) {
        const url = new URL(href, self.location.origin);
        if (!isAsset(url) && !isShellFile(url)) continue;
        if (await cache.match(url.pathname)) continue;
        await cache.add(url.pathname).catch(() => undefined);
      }
    })(),
  );
});
