import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { MerchDetail } from '@awhh/machines';
import { createTestApp } from '../../test/support/test-app.js';

// rules "Rendering": the products process renders every page with the frontend's server
// entry (built by `vite build --ssr`). These tests put a stand-in entry with the same
// contract (machines' render/render.contract.ts) beside a stand-in build, so they check the
// backend's side: data straight from the catalog services, the HTML around the render,
// status codes, headers, hints, the crawler decision, robots.txt and the sitemap. The real render is
// checked in the browser (tests/e2e/ssr.spec.ts) and through nginx (tests/stack).

const PUBLIC_URL = 'https://awhh.example';

const INDEX_HTML =
  '<!doctype html><html lang="de"><head><title>AWHH</title>' +
  '<meta name="description" content="Vorlage">' +
  '<script type="module" crossorigin src="/assets/index-A.js"></script>' +
  '<link rel="stylesheet" crossorigin href="/assets/index-A.css"></head>' +
  '<body><div id="root"></div></body></html>';

const MANIFEST = {
  'index.html': { file: 'assets/index-A.js', isEntry: true },
  'src/app/routes/merch.tsx': {
    file: 'assets/merch-M.js',
    imports: ['index.html'],
    css: ['assets/merch-M.css'],
  },
  'src/app/routes/home.tsx': {
    file: 'assets/home-H.js',
    imports: ['index.html'],
    dynamicImports: ['src/features/merch/merch-card.tsx'],
  },
  'src/features/merch/merch-card.tsx': {
    file: 'assets/merch-card-C.js',
    css: ['assets/merch-card-C.css'],
  },
};

/** The contract of frontend/src/entry-server.tsx, answering from the data source it is given. */
const RENDERER = `
const page = (status, head, html, routeIds, image = null) =>
  ({ kind: 'page', status, head, html, data: '<script type="application/json" id="awhh-page-data">{}</script>', routeIds, image });
const notFound = (bot) => page(404, '<title>Page Not Found</title><meta name="robots" content="noindex, nofollow">',
  bot ? '' : '<h1>Page Not Found</h1>', ['root', 'pages', 'not-found']);
export function createRenderer(source) {
  return async ({ url, origin, bot }) => {
    const { pathname, search } = new URL(url, origin);
    if (pathname === '/next') return { kind: 'redirect', status: 302, location: '/events/x' };
    if (pathname === '/kaputt') throw new Error('render bug');
    if (pathname === '/') {
      try {
        const merch = await source.merch();
        return page(200, '<title>Start</title>', '<h1>' + merch.length + ' Produkte ' + search + '</h1>', ['root', 'pages', 'home']);
      } catch (error) {
        return page(error.status ?? 500, '<title>Fehler</title>', '<h1>Fehler</h1>', ['root', 'pages', 'home']);
      }
    }
    const merch = /^\\/merch\\/([^/]+)$/.exec(pathname);
    if (merch) {
      const item = await source.merchItem(decodeURIComponent(merch[1]));
      if (!item) return notFound(bot);
      return page(200, '<title>' + item.name + '</title>', '<h1>' + item.name + '</h1><p>' + item.variants.length + ' Größen</p>',
        ['root', 'pages', 'merch'], item.image ? item.image.src : null);
    }
    return notFound(bot);
  };
}
`;

/** A visitor's browser (the test client's own user agent counts as a crawler for isbot). */
const PERSON =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function builtSite(): { dir: string; entry: string } {
  const dir = mkdtempSync(join(tmpdir(), 'awhh-site-'));
  const staticDir = join(dir, 'dist');
  mkdirSync(join(staticDir, '.vite'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), INDEX_HTML);
  writeFileSync(join(staticDir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  // Two of the three stylesheets are built; merch-card-C.css is missing, so it stays a link.
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'assets', 'index-A.css'), 'body{color:#e5c07b}');
  writeFileSync(join(staticDir, 'assets', 'merch-M.css'), '.m::after{content:"</style>"}');
  mkdirSync(join(dir, 'dist-ssr'));
  const entry = join(dir, 'dist-ssr', 'entry-server.js');
  writeFileSync(entry, RENDERER);
  return { dir, entry };
}

describe('server-rendered pages through the app (demo catalog)', () => {
  let dir: string;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    const built = builtSite();
    dir = built.dir;
    // SSR_ENTRY unset: the renderer is found beside the static directory (dist-ssr/).
    app = await createTestApp({ STATIC_DIR: join(dir, 'dist'), PUBLIC_URL });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers });

  it('renders a page from what /api/merch/:slug answers, into the template with its head', async () => {
    const item = (await get('/api/merch/awhh-t-shirt')).json<MerchDetail>();
    const page = await get('/merch/awhh-t-shirt');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.vary).toMatch(/User-Agent/);
    const html = page.body;
    // The route's head replaces the template's; the render fills the root, the data follows.
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain(`<title>${item.name}</title>`);
    expect(html).not.toContain('Vorlage');
    expect(html).toContain(
      `<div id="root"><h1>${item.name}</h1><p>${item.variants.length} Größen</p></div>` +
        '<script type="application/json" id="awhh-page-data">',
    );
    // The code follows once the page has loaded, with the route's chunk (rules "Rendering").
    expect(html).not.toContain('<script type="module"');
    expect(html).toContain(
      '<script defer src="/hydrate.js" data-entry="/assets/index-A.js"' +
        ' data-modules="/assets/merch-M.js"></script></body>',
    );
  });

  it('carries the CSS in the HTML, sends the route chunk and the first screen image with it', async () => {
    const html = (await get('/merch/awhh-t-shirt')).body;
    expect(html).toContain(
      '<link rel="preload" as="image" href="/media/demo/merch-tshirt.svg" fetchpriority="high">',
    );
    // rules "Rendering": no stylesheet request before the first paint. The entry's and the
    // route's CSS are in the page; their links stay for Vite, never fetched.
    expect(html).toContain(
      '<style>body{color:#e5c07b}</style><link rel="stylesheet" crossorigin href="/assets/index-A.css" disabled>',
    );
    expect(html).not.toMatch(/href="\/assets\/index-A\.css">/);
    expect(html).toContain(
      '<style>.m::after{content:"<\\/style>"}</style><link rel="stylesheet" crossorigin href="/assets/merch-M.css" disabled>',
    );
    // `/` renders the lazily loaded merch cards on the server: their CSS comes along.
    const home = (await get('/')).body;
    expect(home).toContain('<link rel="stylesheet" crossorigin href="/assets/merch-card-C.css">');
    expect(home).not.toContain('href="/assets/merch-card-C.js"');
  });

  it('passes path and query to the render and redirects /next with the status the router chose', async () => {
    expect((await get('/?a=1')).body).toContain('Produkte ?a=1</h1>');
    const next = await get('/next');
    expect(next.statusCode).toBe(302);
    expect(next.headers.location).toBe('/events/x');
    expect(next.headers['cache-control']).toBe('no-store');
    const slash = await get('/merch/awhh-t-shirt/?x=1');
    expect(slash.statusCode).toBe(301);
    expect(slash.headers.location).toBe('/merch/awhh-t-shirt?x=1');
  });

  it('answers unknown slugs and malformed paths with the 404 page (rules "Errors")', async () => {
    const missing = await get('/merch/gibt-es-nicht');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<meta name="robots" content="noindex, nofollow">');
    const malformed = await get('/events/%ff', { 'user-agent': PERSON });
    expect(malformed.statusCode).toBe(404);
    expect(malformed.headers['content-type']).toMatch(/text\/html/);
    expect(malformed.body).toContain('<h1>Page Not Found</h1>');
    const api = await get('/api/events/%ff');
    expect(api.statusCode).toBe(400);
    expect(api.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  });

  it('answers a failed render with a 500 page, never API JSON (rules §8)', async () => {
    const res = await get('/kaputt');
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<h1>Internal Server Error</h1>');
  });

  it('decides per request with isbot that a crawler gets no error page (rules §2)', async () => {
    const bot = await get('/gibt-es-nicht', {
      'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    });
    expect(bot.statusCode).toBe(404);
    expect(bot.body).not.toContain('Page Not Found</h1>');
    const person = await get('/gibt-es-nicht', { 'user-agent': PERSON });
    expect(person.body).toContain('<h1>Page Not Found</h1>');
  });

  it('keeps test and personal pages out of search and lists the catalog in the sitemap', async () => {
    const robots = (await get('/robots.txt')).body;
    for (const path of [
      '/coupon-test',
      '/mail-test',
      '/einlass',
      '/veranstalter',
      '/tickets/',
      '/checkout',
    ]) {
      expect(robots).toContain(`Disallow: ${path}`);
    }
    const sitemap = (await get('/sitemap.xml')).body;
    expect(sitemap).toContain(`<url><loc>${PUBLIC_URL}/merch/awhh-t-shirt</loc></url>`);
    expect(sitemap).toContain(`<url><loc>${PUBLIC_URL}/faq</loc></url>`);
    expect(sitemap).not.toContain('/tickets/');
    expect(sitemap).not.toContain('/mail-test');
  });

  it('a test site (PAYMENT_PROVIDER=test) says so on every page, outside the root that hydrates', async () => {
    for (const path of ['/', '/merch/awhh-t-shirt', '/gibt-es-nicht', '/kaputt']) {
      const html = (await get(path, { 'user-agent': PERSON })).body;
      expect(html).toContain('<html class="test-site" lang="de">');
      expect(html).toContain(
        '<body><aside class="test-mode-bar" aria-label="Testmodus"><p>Testmodus – keine echten Zahlungen</p></aside><div id="root">',
      );
    }
  });
});

describe('server-rendered pages of the live shop', () => {
  it('carry no test-mode bar when Stripe takes the payments', async () => {
    const built = builtSite();
    const app = await createTestApp({
      STATIC_DIR: join(built.dir, 'dist'),
      PUBLIC_URL,
      STRIPE_SECRET_KEY: 'sk_live_site_suite',
      STRIPE_WEBHOOK_SECRET: 'whsec_site_suite',
    });
    try {
      await app.init();
      await app.getHttpAdapter().getInstance().ready();
      const html = (await app.inject({ method: 'GET', url: '/' })).body;
      expect(html).toContain('<div id="root">');
      expect(html).not.toContain('test-mode-bar');
      expect(html).not.toContain('test-site');
      expect(html).not.toContain('Testmodus');
    } finally {
      await app.close();
      rmSync(built.dir, { recursive: true, force: true });
    }
  });
});
