import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import { isbot } from 'isbot';
import { type RenderPage, type RenderResult, retentionPeriods } from '@awhh/machines';
import { AppConfig } from '../config/config.js';
import { type HtmlTemplate, parseTemplate, renderDocument, withTestModeBar } from './html-head.js';
import { loadPageRenderer } from './page-renderer.js';
import {
  AssetHints,
  deferScripts,
  hydrationScript,
  inlineEntryStyles,
  parseManifest,
  renderPreloads,
  routeModuleKey,
} from './preload.js';
import { SiteCatalog } from './site-catalog.js';
import { siteDataSource } from './site-data-source.js';

export interface SiteResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  // The HTML names the hashed bundles of the current deploy: always revalidate. nginx keeps
  // its own copy for a second (microcache), which this header does not govern.
  'cache-control': 'no-cache',
};

/** Pages search engines may list (rules §2); the others are test or personal pages. */
const SITEMAP_PAGES = ['/', '/faq', '/blog', '/contact', '/impressum', '/datenschutz', '/cart'];

/**
 * Pages that exist for trying things out (rules "Test pages") and the closed areas (the
 * door, the organizer): public addresses, but never indexed.
 */
const TEST_PAGES = [
  '/coupon-test',
  '/webhook-test',
  '/apple-pay-test',
  '/mail-test',
  '/einlass',
  '/veranstalter',
];

function xmlEscape(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * Every page's HTML, rendered from the frontend's route modules (rules "Rendering"), plus
 * robots.txt and sitemap.xml.
 */
@Injectable()
export class SiteService {
  private readonly logger = new Logger('Site');
  private template: HtmlTemplate | null = null;
  private entry: { src: string; modules: string[] } | null = null;
  private hints: AssetHints | null = null;
  private renderer: RenderPage | null = null;
  /** The built CSS by its URL path, read once (rules "Rendering": inlined into the HTML). */
  private styles = new Map<string, string | null>();
  private staticDir = '';

  constructor(
    private readonly config: AppConfig,
    private readonly catalog: SiteCatalog,
  ) {}

  /** Reads the built index.html; false when the frontend has not been built. */
  loadTemplate(staticDir: string): boolean {
    let html: string;
    try {
      html = readFileSync(join(staticDir, 'index.html'), 'utf8');
    } catch {
      return false;
    }
    this.staticDir = staticDir;
    this.styles.clear();
    const scripts = deferScripts(html);
    const template = parseTemplate(inlineEntryStyles(scripts.html, (href) => this.style(href)));
    this.template = this.config.paymentProvider === 'test' ? withTestModeBar(template) : template;
    this.entry = scripts.entry ? { src: scripts.entry, modules: scripts.modules } : null;
    this.hints = null;
    try {
      this.hints = new AssetHints(
        parseManifest(readFileSync(join(staticDir, '.vite', 'manifest.json'), 'utf8')),
      );
    } catch (err) {
      // Pages still work without hints, they just load as a chain of round trips.
      this.logger.warn({ msg: 'no build manifest, pages get no preload hints', err: String(err) });
    }
    return true;
  }

  /** A built stylesheet's text, read on first use; null when it is not one of ours. */
  private style(href: string): string | null {
    let text = this.styles.get(href);
    if (text !== undefined) return text;
    text = null;
    if (/^\/assets\/[\w.-]+\.css$/.test(href)) {
      try {
        text = readFileSync(join(this.staticDir, href), 'utf8');
      } catch {
        // Linked as a file instead.
      }
    }
    this.styles.set(href, text);
    return text;
  }

  /** Imports the built server renderer once; false when it has not been built. */
  async loadRenderer(entryPath: string): Promise<boolean> {
    try {
      this.renderer = await loadPageRenderer(
        entryPath,
        siteDataSource(
          this.catalog,
          retentionPeriods(this.config.personalDataDaysAfterEvent),
          this.config.checkoutUrl,
        ),
      );
      return true;
    } catch (err) {
      this.logger.warn({ msg: 'no server renderer', entryPath, err: String(err) });
      return false;
    }
  }

  /** CSS of the matched pages, fonts and the first screen's image; their chunks, for later. */
  private assets(routeIds: string[], image: string | null): { head: string; scripts: string[] } {
    if (!this.hints) return { head: '', scripts: [] };
    const scripts = new Set<string>();
    const styles = new Set<string>();
    for (const id of routeIds) {
      const route = this.hints.route(routeModuleKey(id));
      for (const file of route.scripts) scripts.add(file);
      for (const file of route.styles) styles.add(file);
    }
    return {
      head: renderPreloads({
        styles: [...styles],
        inline: (href) => this.style(href),
        fonts: this.hints.fonts,
        image,
      }),
      scripts: [...scripts],
    };
  }

  /**
   * Answers a GET for a page. `url` is path and query; `userAgent` decides whether the
   * visitor is a crawler, who gets no error page (rules §2).
   */
  async page(url: string, userAgent?: string): Promise<SiteResponse> {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (path.length > 1 && path.endsWith('/')) {
      const target = (path.replace(/\/+$/, '') || '/') + (q < 0 ? '' : url.slice(q));
      return { status: 301, headers: { location: target, 'cache-control': 'no-cache' }, body: '' };
    }
    if (!this.template || !this.renderer) throw new Error('SiteService used before it was loaded');
    let result: RenderResult;
    try {
      result = await this.renderer({
        url,
        origin: this.config.publicUrl,
        bot: isbot(userAgent ?? ''),
      });
    } catch (err) {
      // rules §8 "Internal Server Error": the render itself failed (a bug, not missing data,
      // which the router answers with its own error page). Still a page, never API JSON.
      this.logger.error({ msg: 'page render failed', url, err: String(err) });
      return {
        status: 500,
        headers: { ...HTML_HEADERS },
        body: renderDocument(this.template, {
          head: '<title>Internal Server Error | After Work Hamburg</title>\n    <meta name="robots" content="noindex, nofollow">',
          html: '<main class="container" style="padding-block:6rem"><h1>Internal Server Error</h1><p>Die Seite konnte nicht geladen werden. Bitte versuche es später noch einmal.</p></main>',
          data: '',
        }),
      };
    }
    if (result.kind === 'redirect') {
      // /next (rules §4): where it leads changes with the catalog, so never cached.
      return {
        status: result.status,
        headers: { location: result.location, 'cache-control': 'no-store' },
        body: '',
      };
    }
    const assets = this.assets(result.routeIds, result.image);
    const hydrate = this.entry
      ? hydrationScript(this.entry.src, [...this.entry.modules, ...assets.scripts])
      : '';
    // Crawlers get another rendering of error pages (rules §2): caches keep one per user agent.
    const headers: Record<string, string> = { ...HTML_HEADERS, vary: 'User-Agent' };
    // The catalog was unreachable (site-data-source.ts): ask clients to come back soon.
    if (result.status === 503) headers['retry-after'] = '30';
    // rules "Tickets and the door": a ticket's page names its holder and carries the code:
    // kept by no shared cache and no back-forward store (nginx bypasses its cache too).
    if (path.startsWith('/tickets/')) headers['cache-control'] = 'private, no-store';
    return {
      status: result.status,
      headers,
      body: renderDocument(this.template, {
        head: assets.head ? `${result.head}\n    ${assets.head}` : result.head,
        html: result.html,
        data: result.data + hydrate,
      }),
    };
  }

  robots(): string {
    const lines = [
      'User-agent: *',
      'Disallow: /api/',
      ...TEST_PAGES.map((p) => `Disallow: ${p}`),
      'Disallow: /checkout',
      'Disallow: /success',
      // Personal pages: a ticket's address is its signed token.
      'Disallow: /tickets/',
      '',
      `Sitemap: ${this.config.publicUrl}/sitemap.xml`,
      '',
    ];
    return lines.join('\n');
  }

  async sitemap(): Promise<string> {
    const base = this.config.publicUrl;
    const entries: { loc: string; lastmod?: string }[] = SITEMAP_PAGES.map((path) => ({
      loc: `${base}${path}`,
    }));
    const [events, merch, posts] = await Promise.all([
      this.catalog.events(),
      this.catalog.merch(),
      this.catalog.posts(),
    ]);
    for (const event of events) {
      entries.push({ loc: `${base}/events/${encodeURIComponent(event.slug)}` });
    }
    for (const item of merch) {
      entries.push({ loc: `${base}/merch/${encodeURIComponent(item.slug)}` });
    }
    for (const post of posts) {
      const lastmod = new Date(post.publishedAt);
      entries.push({
        loc: `${base}/blog/${encodeURIComponent(post.slug)}`,
        ...(Number.isNaN(lastmod.getTime()) ? {} : { lastmod: lastmod.toISOString().slice(0, 10) }),
      });
    }
    const urls = entries.map(
      (e) =>
        `  <url><loc>${xmlEscape(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>`,
    );
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...urls,
      '</urlset>',
      '',
    ].join('\n');
  }
}
