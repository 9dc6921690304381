import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { env } from '@/config/env';

/**
 * What a page tells the browser tab, search engines and link previews. Every route module
 * exports its own as `handle.meta`: the server renders it into the HTML head
 * (frontend/src/server/head.ts) and the browser sets the title from the same function on
 * navigation (rules "Rendering": no second copy of titles).
 */
export interface PageMeta {
  /** Without the site name; `documentTitle` adds it. */
  title: string;
  description: string;
  noindex?: boolean;
  /** Path of the canonical URL; null for pages that must not be indexed under any URL. */
  canonical?: string | null;
  ogType?: 'website' | 'article';
  /** Path or absolute URL of the preview image. */
  image?: { src: string; alt: string } | null;
  /** schema.org objects, each rendered as its own JSON-LD block. */
  jsonLd?: readonly object[];
  /** Extra Open Graph properties (article:published_time, …). */
  extraOg?: readonly (readonly [property: string, content: string])[];
  /** The first screen's largest image: the server preloads it with the HTML (LCP). */
  lcpImage?: string | null;
}

export interface MetaArgs<Data> {
  data: Data;
  pathname: string;
  /** PUBLIC_URL on the server, the page's origin in the browser (absolute URLs in JSON-LD). */
  origin: string;
}

/** null while the route has no data (its loader failed: the error page sets the head). */
export type MetaFunction<Data = unknown> = (args: MetaArgs<Data | undefined>) => PageMeta | null;

export interface RouteHandle<Data = unknown> {
  meta?: MetaFunction<Data>;
}

export const SITE_NAME = env.productName;

/** "Kontakt | After Work Hamburg"; a title that starts with the site's name stays as it is. */
export function documentTitle(title: string): string {
  return title.startsWith(SITE_NAME) ? title : `${title} | ${SITE_NAME}`;
}

/** The head of a page without data: its title, description and its own canonical path. */
export function staticMeta(
  title: string,
  description: string,
  options: { noindex?: boolean } = {},
): RouteHandle {
  return {
    meta: ({ pathname }) => ({ title, description, canonical: pathname, ...options }),
  };
}

export function absoluteUrl(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${origin}/`).toString();
}

/** The deepest matched route that has meta and data decides (a page inside the shell). */
export function pageMeta(
  matches: readonly { handle?: unknown; data?: unknown }[],
  pathname: string,
  origin: string,
): PageMeta | null {
  for (let i = matches.length - 1; i >= 0; i--) {
    const { handle, data } = matches[i]!;
    const meta = (handle as RouteHandle | undefined)?.meta;
    if (meta) return meta({ data, pathname, origin });
  }
  return null;
}

function metaTag(name: string): HTMLMetaElement {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!tag) {
    tag = document.createElement('meta');
    tag.name = name;
    document.head.appendChild(tag);
  }
  return tag;
}

/** Sets title, description and robots in the browser; the server wrote them for the first page. */
export function applyDocumentMeta(meta: Pick<PageMeta, 'title' | 'description' | 'noindex'>) {
  document.title = documentTitle(meta.title);
  metaTag('description').content = meta.description;
  const robots = document.head.querySelector<HTMLMetaElement>('meta[name="robots"]');
  if (meta.noindex) metaTag('robots').content = 'noindex, nofollow';
  else robots?.remove();
}

/** In the shell: after each navigation, the head follows the page's own `handle.meta`. */
export function useRouteMeta(): void {
  const matches = useMatches();
  useEffect(() => {
    const pathname = matches[matches.length - 1]?.pathname ?? '/';
    // An error page sets its own (ErrorPage); a page without data has no meta.
    const meta = pageMeta(matches, pathname, window.location.origin);
    if (meta) applyDocumentMeta(meta);
  }, [matches]);
}
