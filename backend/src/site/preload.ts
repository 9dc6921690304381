import { escapeHtml } from './html-head.js';

/** One entry of Vite's build manifest (`build.manifest: true`, dist/.vite/manifest.json). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type ViteManifest = Record<string, ManifestChunk>;

/**
 * What the browser may fetch before the entry script asks for it. The page's content is in
 * the HTML (rules "Rendering"); what it still needs comes with it: the route CSS (as
 * stylesheets, so the markup paints styled), the first screen's image and the fonts. The
 * route chunks the browser hydrates with follow after the page has loaded (deferScripts).
 */
export interface PagePreloads {
  /** Route CSS: applied at first paint (Vite finds these links and adds none of its own). */
  styles: string[];
  /** The text of a stylesheet, to put into the HTML itself; null: linked as a file. */
  inline?: (href: string) => string | null;
  fonts: string[];
  /** The largest image of the first screen, fetched with high priority. */
  image: string | null;
}

/** Manifest key of a route module: a route's id names its file (frontend/src/app/router.tsx). */
export function routeModuleKey(id: string): string {
  return `src/app/routes/${id}.tsx`;
}

/**
 * Fonts the first screen uses: the small faces of body text and headings, written by
 * frontend/build/font-subsets.ts. Their full files load only for rare characters.
 */
const ABOVE_THE_FOLD_FONTS = [/(^|\/)generated\/fonts\/[\w-]+-core\.woff2$/];

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
    // Parts a page loads lazily (the merch cards on `/`) are in the server's HTML too: their
    // CSS must apply at first paint, while their code still loads on demand.
    const lazySeen = new Set(seen);
    for (const lazy of this.manifest[moduleKey]?.dynamicImports ?? []) {
      this.walk(lazy, lazySeen, css);
    }
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
  // Order = priority within the same type: the LCP image before the code.
  if (p.image) {
    tags.push(`<link rel="preload" as="image" href="${escapeHtml(p.image)}" fetchpriority="high">`);
  }
  for (const href of p.fonts) {
    tags.push(
      `<link rel="preload" as="font" type="font/woff2" crossorigin href="${escapeHtml(href)}">`,
    );
  }
  for (const href of p.styles) {
    const text = p.inline?.(href) ?? null;
    if (text === null) {
      // Same attributes as Vite's own <link rel="stylesheet">, which then finds it and adds none.
      tags.push(`<link rel="stylesheet" crossorigin href="${escapeHtml(href)}">`);
      continue;
    }
    tags.push(inlinedStylesheet(href, text));
  }
  return tags.join('\n    ');
}

/**
 * A stylesheet put into the page, with the link Vite looks for before it adds one itself (it
 * compares rel and href when a lazy chunk imports that CSS). `disabled` keeps the browser
 * from fetching it: the rules are already in the page, and on a slow link every extra
 * request takes bandwidth from the fonts and the first image.
 */
function inlinedStylesheet(href: string, css: string): string {
  return `${inlineStyle(css)}<link rel="stylesheet" crossorigin href="${escapeHtml(href)}" disabled>`;
}

/** A stylesheet in the HTML; CSS text never ends the element it is in. */
export function inlineStyle(css: string): string {
  return `<style>${css.replace(/<\/(style)/gi, '<\\/$1')}</style>`;
}

/**
 * rules "Rendering": the site's CSS is small (a few KB gzip a page), so the HTML carries
 * it and the first paint waits for no stylesheet request: the entry's stylesheet in the
 * template becomes a `<style>` element.
 */
export function inlineEntryStyles(html: string, read: (href: string) => string | null): string {
  return html.replace(
    /[ \t]*<link rel="stylesheet"[^>]*\shref="([^"]+)"[^>]*>/g,
    (tag: string, href: string) => {
      const text = read(href);
      return text === null ? tag : tag.replace(/<link[^>]*>/, inlinedStylesheet(href, text));
    },
  );
}

/** The built index.html without its module scripts, and what they were. */
export interface DeferredScripts {
  html: string;
  /** The entry bundle (Vite's `<script type="module" src>`). */
  entry: string | null;
  /** Its static imports (Vite's `<link rel="modulepreload">`). */
  modules: string[];
}

/**
 * The server's HTML paints the whole page without JavaScript: the entry and its chunks are
 * taken out of the head and requested by /hydrate.js once the page has loaded, so they
 * never compete with the stylesheets, the fonts and the first screen's image (LCP).
 */
export function deferScripts(indexHtml: string): DeferredScripts {
  let entry: string | null = null;
  const modules: string[] = [];
  const html = indexHtml
    .replace(
      /[ \t]*<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>\n?/g,
      (_m, src: string) => {
        entry ??= src;
        return '';
      },
    )
    .replace(
      /[ \t]*<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>\n?/g,
      (_m, href: string) => {
        modules.push(href);
        return '';
      },
    );
  return { html, entry, modules };
}

/** The loader of frontend/public/hydrate.js with what it loads: entry, imports, route chunks. */
export function hydrationScript(entry: string, modules: string[]): string {
  return (
    `<script defer src="/hydrate.js" data-entry="${escapeHtml(entry)}"` +
    ` data-modules="${escapeHtml(modules.join(' '))}"></script>`
  );
}
