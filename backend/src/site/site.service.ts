import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import { nextEventLink } from '@awhh/machines';
import { AppConfig } from '../config/config.js';
import { type HtmlTemplate, parseTemplate, renderPage } from './html-head.js';
import {
  blogPostPageMeta,
  eventPageMeta,
  merchPageMeta,
  notFoundPageMeta,
  STATIC_PAGES,
  staticPageMeta,
  TEST_PAGES,
  ticketPageMeta,
} from './page-meta.js';
import {
  AssetHints,
  type PagePreloads,
  parseManifest,
  renderPreloads,
  routeModuleKey,
  staticRouteModule,
  withLowPriorityScripts,
} from './preload.js';
import { contentPageSnapshot, eventSnapshot, merchSnapshot } from './page-snapshot.js';
import { withShellSnapshot } from './shell-snapshot.js';
import { SiteCatalog } from './site-catalog.js';

export interface SiteResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  // index.html names the hashed bundles of the current deploy: always revalidate.
  'cache-control': 'no-cache',
};

const API_PRODUCTS = '/api/woocommerce/products';

/** A compact JWS: base64url parts joined by dots (DESIGN "Tickets and the door"). */
const TICKET_TOKEN = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
/** Far above a real token (about 150 characters); longer paths are not tickets. */
const MAX_TICKET_TOKEN = 2048;

/** API GETs the loaders of static pages issue, preloaded with the HTML. */
const STATIC_PAGE_DATA: Record<string, string[]> = {
  '/blog': ['/api/blog'],
  '/faq': ['/api/faq'],
};

function decodeSegment(segment: string): string | null {
  try {
    const slug = decodeURIComponent(segment).trim();
    return slug === '' ? null : slug;
  } catch {
    return null;
  }
}

function xmlEscape(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** The HTML, robots.txt and sitemap.xml that crawlers and link previews read (issue "site"). */
@Injectable()
export class SiteService {
  private readonly logger = new Logger('Site');
  private template: HtmlTemplate | null = null;
  private hints: AssetHints | null = null;

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
    this.template = parseTemplate(withLowPriorityScripts(html));
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

  /** Resource hints for a page: its route chunk, the data its loaders and the header fetch. */
  private preloads(
    moduleKey: string,
    fetches: string[],
    image: string | null = null,
  ): PagePreloads | null {
    if (!this.hints) return null;
    return {
      ...this.hints.route(moduleKey),
      fonts: this.hints.fonts,
      // The header's next-event link reads the product feed on every page (SPEC §4).
      fetches: [...fetches, API_PRODUCTS],
      image,
    };
  }

  private html(
    status: number,
    page: Parameters<typeof renderPage>[1],
    preloads: PagePreloads | null = null,
  ): SiteResponse {
    if (!this.template) throw new Error('SiteService used before loadTemplate');
    return {
      status,
      headers: { ...HTML_HEADERS },
      body: renderPage(this.template, page, preloads ? renderPreloads(preloads) : ''),
    };
  }

  /** A page the SPA renders: its header is in the HTML so it paints before the script runs. */
  private spaPage(
    path: string,
    page: Parameters<typeof renderPage>[1],
    preloads: PagePreloads | null,
    content = '',
  ): SiteResponse {
    // Route markup needs the route CSS; without hints (no manifest) only the frame is sent.
    const withContent = content !== '' && preloads !== null;
    const response = this.html(
      200,
      page,
      withContent ? { ...preloads, applyStyles: true } : preloads,
    );
    return {
      ...response,
      body: withShellSnapshot(response.body, path, withContent ? content : ''),
    };
  }

  /** The next event's image, the largest element of the home page's first screen. */
  private async featuredImage(): Promise<string | null> {
    try {
      const events = await this.catalog.events();
      return events.find((event) => !event.past)?.image?.src ?? null;
    } catch {
      // The page itself never depends on the catalog.
      return null;
    }
  }

  /** Answers a GET for a page path (no query string). */
  async page(path: string): Promise<SiteResponse> {
    const publicUrl = this.config.publicUrl;
    if (path.length > 1 && path.endsWith('/')) {
      const target = path.replace(/\/+$/, '') || '/';
      return { status: 301, headers: { location: target, 'cache-control': 'no-cache' }, body: '' };
    }
    try {
      if (path === '/next') {
        // SPEC §4 / DESIGN: the next event, or / when there is none; crawlers get it too.
        const target = nextEventLink(await this.catalog.products());
        return {
          status: 302,
          headers: { location: target, 'cache-control': 'no-store' },
          body: '',
        };
      }
      const known = staticPageMeta(publicUrl, path);
      const moduleKey = staticRouteModule(path);
      if (known) {
        if (path !== '/')
          return this.spaPage(
            path,
            known,
            moduleKey ? this.preloads(moduleKey, STATIC_PAGE_DATA[path] ?? []) : null,
            path === '/cart' ? contentPageSnapshot('Warenkorb') : '',
          );
        return this.spaPage(
          path,
          known,
          this.preloads(
            moduleKey!,
            ['/api/events', '/api/merch', '/api/blog'],
            await this.featuredImage(),
          ),
        );
      }

      const event = /^\/events\/([^/]+)$/.exec(path);
      if (event) {
        const slug = decodeSegment(event[1]!);
        const detail = slug ? await this.catalog.event(slug) : null;
        return detail
          ? this.spaPage(
              path,
              eventPageMeta(publicUrl, detail),
              this.preloads(
                routeModuleKey('event'),
                [`/api/events/${encodeURIComponent(detail.slug)}`],
                detail.image?.src ?? null,
              ),
              eventSnapshot(detail),
            )
          : this.html(404, notFoundPageMeta());
      }
      const merch = /^\/merch\/([^/]+)$/.exec(path);
      if (merch) {
        const slug = decodeSegment(merch[1]!);
        const item = slug ? await this.catalog.merchItem(slug) : null;
        return item
          ? this.spaPage(
              path,
              merchPageMeta(publicUrl, item),
              this.preloads(
                routeModuleKey('merch'),
                [`/api/merch/${encodeURIComponent(item.slug)}`],
                item.image?.src ?? null,
              ),
              merchSnapshot(item),
            )
          : this.html(404, notFoundPageMeta());
      }
      const ticket = /^\/tickets\/([^/]+)$/.exec(path);
      if (ticket) {
        // The token is checked by the tickets API, which the page calls: the site never
        // reads the ticket store (it may run in another process, MODULES), so any
        // well-formed token gets the page and an unknown one its German not-found state.
        const token = decodeSegment(ticket[1]!);
        return token && token.length <= MAX_TICKET_TOKEN && TICKET_TOKEN.test(token)
          ? this.spaPage(
              path,
              ticketPageMeta(),
              this.preloads(routeModuleKey('ticket'), [
                `/api/tickets/${encodeURIComponent(token)}`,
              ]),
            )
          : this.html(404, notFoundPageMeta());
      }
      const post = /^\/blog\/([^/]+)$/.exec(path);
      if (post) {
        const slug = decodeSegment(post[1]!);
        const found = slug ? await this.catalog.post(slug) : null;
        return found
          ? this.spaPage(
              path,
              blogPostPageMeta(publicUrl, found),
              this.preloads(routeModuleKey('blog-post'), [
                `/api/blog/${encodeURIComponent(found.slug)}`,
              ]),
            )
          : this.html(404, notFoundPageMeta());
      }
    } catch (err) {
      // Catalog down without stale data: the SPA still loads and shows its own message.
      this.logger.warn({ msg: 'page rendered without catalog data', path, err: String(err) });
      return {
        ...this.html(503, { ...notFoundPageMeta(), title: 'After Work Hamburg' }),
        headers: { ...HTML_HEADERS, 'retry-after': '30' },
      };
    }
    return this.html(404, notFoundPageMeta());
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
    const entries: { loc: string; lastmod?: string }[] = Object.entries(STATIC_PAGES)
      .filter(([, page]) => page.index)
      .map(([path]) => ({ loc: `${base}${path === '/' ? '/' : path}` }));
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
