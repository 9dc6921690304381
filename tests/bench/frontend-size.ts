import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * First-load and per-route sizes read from the built frontend itself (index.html, the
 * chunks' static imports and Vite's preload map), gzip level 9 as Vite reports them.
 */

export interface RouteSize {
  route: string;
  chunk: string;
  /** Gzip bytes this route adds on top of the first load. */
  js: number;
  css: number;
}

export interface FrontendSizes {
  firstLoadJs: number;
  firstLoadCss: number;
  firstLoadFiles: string[];
  routes: RouteSize[];
}

const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'`]\.\/([\w.-]+\.js)["'`]/g;
const MAP_DEPS_FILES = /m\.f=(\[[^\]]*\])/;
const MAP_DEPS_CALL = /__vite__mapDeps\(\[([0-9,]+)\]\)/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'`]\.\/([\w.-]+\.js)["'`]\s*\)/g;
/** How far before its preload list a route's `import()` may stand (`.then(…)` between). */
const IMPORT_REACH = 200;

export function measureFrontend(dist: string, homeChunkPrefix = 'home-'): FrontendSizes {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const gz = new Map<string, number>();
  const size = (file: string): number => {
    if (!gz.has(file)) {
      const path = join(dist, file);
      gz.set(file, existsSync(path) ? gzipSync(readFileSync(path), { level: 9 }).length : 0);
    }
    return gz.get(file)!;
  };
  const sourceOf = (file: string) => readFileSync(join(dist, file), 'utf8');

  /** A chunk and everything it imports statically (what the browser fetches before it runs). */
  const closure = (file: string, into = new Set<string>()): Set<string> => {
    if (into.has(file)) return into;
    into.add(file);
    for (const match of sourceOf(file).matchAll(STATIC_IMPORT)) {
      closure(`assets/${match[1]}`, into);
    }
    return into;
  };

  const attr = (tag: string, name: string) => new RegExp(`${name}="/?([^"]+)"`).exec(tag)?.[1];
  const tags = html.match(/<(?:script|link)\b[^>]*>/g) ?? [];
  const entry = tags
    .map((t) => (/type="module"/.test(t) ? attr(t, 'src') : undefined))
    .find(Boolean);
  if (!entry) throw new Error('frontend/dist/index.html has no module script');
  const js = closure(entry);
  for (const tag of tags) {
    if (/rel="modulepreload"/.test(tag)) closure(attr(tag, 'href')!, js);
  }
  const css = new Set(tags.filter((t) => /rel="stylesheet"/.test(t)).map((t) => attr(t, 'href')!));

  // Lazy routes: Vite wraps each `import()` with the list of files it preloads. The route is
  // the chunk that `import()` loads, not the list's first file: pages opened from outside
  // list only their stylesheets (the preload note in frontend/vite.config.ts), and their
  // modules still load when the route opens.
  const entrySource = sourceOf(entry);
  const depsFiles = JSON.parse(MAP_DEPS_FILES.exec(entrySource)?.[1] ?? '[]') as string[];
  const groups = [...entrySource.matchAll(MAP_DEPS_CALL)].map((m) => {
    const files = m[1]!.split(',').map((i) => depsFiles[Number(i)]!);
    const before = entrySource.slice(Math.max(0, m.index - IMPORT_REACH), m.index);
    const imported = [...before.matchAll(DYNAMIC_IMPORT)].at(-1)?.[1];
    const chunk = imported ? `assets/${imported}` : files.find((f) => f.endsWith('.js'));
    return { chunk, files: chunk && !files.includes(chunk) ? [chunk, ...files] : files };
  });

  const baseJs = new Set(js);
  const baseCss = new Set(css);
  const routes: RouteSize[] = [];
  for (const { chunk, files } of groups) {
    const groupJs = new Set<string>();
    for (const file of files.filter((f) => f.endsWith('.js'))) closure(file, groupJs);
    const addedJs = [...groupJs].filter((f) => !baseJs.has(f));
    const addedCss = files.filter((f) => f.endsWith('.css') && !baseCss.has(f));
    routes.push({
      route: chunk ? routeName(chunk) : `without a module (${files.join(', ')})`,
      chunk: chunk ?? '',
      js: addedJs.reduce((n, f) => n + size(f), 0),
      css: addedCss.reduce((n, f) => n + size(f), 0),
    });
  }

  // `/` renders the home route at once, so its chunk belongs to the first load.
  const home = groups.find((g) => g.chunk?.startsWith(`assets/${homeChunkPrefix}`));
  if (home) {
    for (const file of home.files) {
      if (file.endsWith('.js')) closure(file, js);
      else if (file.endsWith('.css')) css.add(file);
    }
  }
  const sum = (files: Set<string>) => [...files].reduce((n, f) => n + size(f), 0);
  return {
    firstLoadJs: sum(js),
    firstLoadCss: sum(css),
    firstLoadFiles: [...js, ...css],
    routes,
  };
}

/** `assets/waitlist-offer-BPSRgRK4.js` → `waitlist-offer`: the chunk's name without its hash. */
export const routeName = (chunk: string): string =>
  chunk.replace(/^assets\//, '').replace(/-[\w-]{8}\.js$/, '');
