import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../config/config.js';
import { SiteCatalog } from './site-catalog.js';
import { SiteService } from './site.service.js';

// DESIGN "Tickets and the door": ticket pages and the test mailbox are never indexed, never
// in the sitemap, and the HTML of a ticket page names nothing of the ticket.

const PUBLIC_URL = 'https://awhh.example';
const TOKEN = 'eyJhbGciOiJFZERTQSJ9.eyJ0IjoidGt0XzEiLCJlIjoxMDksInMiOjJ9.c2lnbmF0dXJl';

const INDEX_HTML =
  '<!doctype html><html lang="de"><head><title>AWHH</title></head>' +
  '<body><div id="root"></div><script type="module" src="/assets/index-A.js"></script></body></html>';

const MANIFEST = {
  'index.html': { file: 'assets/index-A.js', isEntry: true },
  'src/app/routes/ticket.tsx': {
    file: 'assets/ticket-T.js',
    imports: ['index.html'],
    css: ['assets/ticket-T.css'],
  },
  'src/app/routes/mail-test.tsx': { file: 'assets/mail-test-M.js', imports: ['index.html'] },
};

class EmptyCatalog extends SiteCatalog {
  async products() {
    return [];
  }
  async events() {
    return [];
  }
  async event() {
    return null;
  }
  async merch() {
    return [];
  }
  async merchItem() {
    return null;
  }
  async posts() {
    return [];
  }
  async post() {
    return null;
  }
}

describe('ticket pages and the test mailbox for crawlers (SiteService)', () => {
  let dir: string;
  let site: SiteService;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'awhh-site-'));
    writeFileSync(join(dir, 'index.html'), INDEX_HTML);
    mkdirSync(join(dir, '.vite'));
    writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    site = new SiteService({ publicUrl: PUBLIC_URL } as AppConfig, new EmptyCatalog());
    expect(site.loadTemplate(dir)).toBe(true);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives /tickets/{token} a German title and noindex, without canonical, JSON-LD or ticket data', async () => {
    const res = await site.page(`/tickets/${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    const html = res.body;
    expect(html).toContain('<title>Dein Ticket | After Work Hamburg</title>');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).not.toContain('rel="canonical"');
    expect(html).not.toContain('og:url');
    expect(html).not.toContain('application/ld+json');
    // The token appears only in the preload of the data the page itself fetches.
    expect(html.split(TOKEN)).toHaveLength(2);
    expect(html).toContain(
      `<link rel="preload" as="fetch" crossorigin href="/api/tickets/${TOKEN}">`,
    );
    expect(html).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/ticket-T.js">',
    );
  });

  it('answers a path that cannot be a token with the 404 page', async () => {
    for (const path of ['/tickets/%E0%A4%A', '/tickets/a%20b', `/tickets/${'a'.repeat(2049)}`]) {
      const res = await site.page(path);
      expect(res.status).toBe(404);
      expect(res.body).toContain('<meta name="robots" content="noindex, nofollow">');
    }
    expect((await site.page('/tickets/abc/extra')).status).toBe(404);
  });

  it('gives /mail-test its title and noindex and preloads its route chunk', async () => {
    const res = await site.page('/mail-test');
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>Testpostfach | After Work Hamburg</title>');
    expect(res.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(res.body).not.toContain('application/ld+json');
    expect(res.body).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/mail-test-M.js">',
    );
  });

  it('keeps both out of the sitemap and tells robots to stay away', async () => {
    const sitemap = await site.sitemap();
    expect(sitemap).not.toContain('/tickets');
    expect(sitemap).not.toContain('/mail-test');
    const robots = site.robots();
    expect(robots).toContain('Disallow: /tickets/\n');
    expect(robots).toContain('Disallow: /mail-test\n');
  });
});
