/* global self, caches */
// Service worker of the ticket pages /tickets/{token} (rules "Tickets and the door": after
// the first visit a ticket and its code open without network, in a cellar at the door).
// Registered only by the ticket page with scope /tickets/, so it controls those pages
// alone. It keeps:
//   - each visited ticket page's HTML (network first, the copy when offline); the HTML
//     carries the ticket and its QR code, so nothing else is needed to show the code,
//   - the files those pages load (hashed bundles cache first: a hash never changes; other
//     public files network first).
// API requests are never cached here.
const CACHE = 'awhh-tickets-v1';

self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('awhh-tickets-') && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

function sameOrigin(url) {
  return url.origin === self.location.origin;
}

function isTicketPage(url) {
  return sameOrigin(url) && url.pathname.startsWith('/tickets/') && !url.pathname.endsWith('.js');
}

async function keep(cache, request, response) {
  if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
  return response;
}

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    return await keep(cache, key, await fetch(request));
  } catch (error) {
    const hit = await cache.match(key, { ignoreVary: true, ignoreSearch: true });
    if (hit) return hit;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request, { ignoreVary: true });
  if (hit) return hit;
  return keep(cache, request, await fetch(request));
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (!sameOrigin(url) || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate' || isTicketPage(url)) {
    // One copy per ticket, whatever the query.
    event.respondWith(networkFirst(request, url.origin + url.pathname));
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request));
  } else {
    event.respondWith(networkFirst(request, request));
  }
});

// The first visit loaded the page and its files before this worker took control: the page
// names them (its own address and every file it loaded) and they are kept now.
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'keep' || !Array.isArray(data.urls)) return;
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      for (const raw of data.urls) {
        if (typeof raw !== 'string') continue;
        const url = new URL(raw, self.location.origin);
        if (!sameOrigin(url) || url.pathname.startsWith('/api/')) continue;
        const key = isTicketPage(url) ? url.origin + url.pathname : url.href;
        if (url.pathname.startsWith('/assets/') && (await cache.match(key))) continue;
        try {
          await keep(cache, key, await fetch(key, { credentials: 'same-origin' }));
        } catch {
          // Offline already: what is kept stays.
        }
      }
    })(),
  );
});
