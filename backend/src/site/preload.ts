import { escapeHtml } from './html-head.js';

/** One entry of Vite's build manifest (`build.manifest: true`, dist/.vite/manifest.json). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
export type ViteManifest = Record<string, ManifestChunk>;

/**
 * What the browser may fetch before the entry script asks for it. Without these hints a
 * page loads as a chain of round trips: HTML, entry, route chunk, API data, image
 * (the Lighthouse budget under Slow 4G).
 */
export interface PagePreloads {
  /** Route chunk and the shared chunks it imports (modulepreload). */
  scripts: string[];
  /** Route CSS, fetched early but not render-blocking (Vite inserts the stylesheet). */
  styles: string[];
  fonts: string[];
  /** API GETs the page's loaders and the header issue on load. */
  fetches: string[];
  /** The largest image of the first screen, fetched with high priority. */
  image: string | null;
  /**
   * The HTML already holds route markup (page-snapshot.ts): the route CSS must apply at
   * first paint, so it is linked as a stylesheet instead of preloaded.
   */
  applyStyles?: boolean;
}

/** Route module (as the manifest names it) per page path of the router (frontend/src/app/router.tsx). */
const STATIC_ROUTE_MODULES: Record<string, string> = {
  '/': 'home',
  '/cart': 'cart',
  '/checkout': 'checkout',
  '/success': 'success',
  '/blog': 'blog',
  '/faq': 'faq',
  '/contact': 'contact',
  '/impressum': 'impressum',
  '/datenschutz': 'datenschutz',
  '/coupon-test': 'coupon-test',
  '/webhook-test': 'webhook-test',
  '/apple-pay-test': 'apple-pay-test',
  '/mail-test': 'mail-test',
};

export function routeModuleKey(name: string): string {
  return `src/app/routes/${name}.tsx`;
}

export function staticRouteModule(path: string): string | null {
  const name = STATIC_ROUTE_MODULES[path];
  return name ? routeModuleKey(name) : null;
}

/** Fonts the first screen uses (body text and headings, see frontend/src/styles/global.css). */
const ABOVE_THE_FOLD_FONTS = [/inter-latin-wght-normal/, /cormorant-garamond-latin-600-normal/];

/** Precomputed hints per route module, read once from the manifest at start-up. */
export class AssetHints {
  private readonly loadedByEntry = new Set<string>();

  readonly fonts: string[];

  constructor(private readonly manifest: ViteManifest) {
    // The entry and its static imports are already in index.html.
    for (const [key, chunk] of Object.entries(manifest)) {
      if (chunk.isEntry) this.walk(key, this.loadedByEntry, []);
    }
    this.fonts = Object.entries(manifest)
      .filter(([key]) => ABOVE_THE_FOLD_FONTS.some((pattern) => pattern.test(key)))
      .map(([, chunk]) => `/${chunk.file}`);
  }

  private walk(key: string, seen: Set<string>, css: string[]): void {
    if (seen.has(key)) return;
    const chunk = this.manifest[key];
    if (!chunk) return;
    seen.add(key);
    for (const file of chunk.css ?? []) css.push(`/${file}`);
    for (const imported of chunk.imports ?? []) this.walk(imported, seen, css);
  }

  /** The chunk files and CSS a route module needs beyond what the entry loads. */
  route(moduleKey: string): { scripts: string[]; styles: string[] } {
    const seen = new Set<string>(this.loadedByEntry);
    const before = new Set(seen);
    const css: string[] = [];
    this.walk(moduleKey, seen, css);
    const scripts = [...seen]
      .filter((key) => !before.has(key))
      .map((key) => `/${this.manifest[key]!.file}`)
      .filter((file) => file.endsWith('.js'));
    return { scripts, styles: [...new Set(css)] };
  }
}

export function parseManifest(json: string): ViteManifest {
  const value = JSON.parse(json) as unknown;
  if (typeof value !== 'object' || value === null) throw new Error('manifest is not an object');
  return value as ViteManifest;
}

export function renderPreloads(p: PagePreloads): string {
  const tags: string[] = [];
  // Order = priority within the same type: the LCP image and data before the code.
  if (p.image) {
    tags.push(`<link rel="preload" as="image" href="${escapeHtml(p.image)}" fetchpriority="high">`);
  }
  for (const href of p.fetches) {
    tags.push(`<link rel="preload" as="fetch" crossorigin href="${escapeHtml(href)}">`);
  }
  for (const href of p.fonts) {
    tags.push(
      `<link rel="preload" as="font" type="font/woff2" crossorigin href="${escapeHtml(href)}">`,
    );
  }
  for (const href of p.scripts) {
    tags.push(
      `<link rel="modulepreload" fetchpriority="low" crossorigin href="${escapeHtml(href)}">`,
    );
  }
  for (const href of p.styles) {
    // Same attributes as Vite's own <link rel="stylesheet">, which then finds it and adds none.
    tags.push(
      p.applyStyles
        ? `<link rel="stylesheet" crossorigin href="${escapeHtml(href)}">`
        : `<link rel="preload" as="style" crossorigin href="${escapeHtml(href)}">`,
    );
  }
  return tags.join('\n    ');
}

/**
 * The server's HTML paints the first screen without JavaScript (shell-snapshot.ts), so the
 * entry script and its chunks need not compete with the stylesheet, the first-screen image
 * and the fonts: they load at low priority (First Contentful Paint under Slow 4G).
 */
export function withLowPriorityScripts(indexHtml: string): string {
  return indexHtml
    .replace(
      /<script type="module"(?![^>]*fetchpriority)/g,
      '<script type="module" fetchpriority="low"',
    )
    .replace(
      /<link rel="modulepreload"(?![^>]*fetchpriority)/g,
      '<link rel="modulepreload" fetchpriority="low"',
    );
}
