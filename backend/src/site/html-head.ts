/** What a page tells search engines and link previews (they run no JavaScript). */
export interface PageMeta {
  title: string;
  description: string;
  /** Absolute URL (PUBLIC_URL + path); null for pages that must not be indexed under any URL. */
  canonical: string | null;
  noindex: boolean;
  ogType: 'website' | 'article';
  image: { url: string; alt: string } | null;
  /** schema.org objects, each rendered as its own JSON-LD block. */
  jsonLd: readonly object[];
  /** Extra Open Graph properties (article:published_time, …). */
  extraOg?: readonly (readonly [property: string, content: string])[];
}

export const SITE_NAME = 'After Work Hamburg';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Safe in text and in double- or single-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * JSON inside <script> ends at the first "</script"; escaping <, > and & as \u escapes
 * keeps the JSON identical for parsers while no CMS text can close the block.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** One plain-text function for the whole backend (descriptions, calendar, cards). */
export { plainText } from '../catalog/html.js';

function meta(attr: 'name' | 'property', key: string, content: string): string {
  return `<meta ${attr}="${escapeHtml(key)}" content="${escapeHtml(content)}">`;
}

export function renderHead(page: PageMeta): string {
  const tags = [
    `<title>${escapeHtml(page.title)}</title>`,
    meta('name', 'description', page.description),
  ];
  if (page.noindex) tags.push(meta('name', 'robots', 'noindex, nofollow'));
  if (page.canonical) tags.push(`<link rel="canonical" href="${escapeHtml(page.canonical)}">`);
  tags.push(
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:locale', 'de_DE'),
    meta('property', 'og:type', page.ogType),
    meta('property', 'og:title', page.title),
    meta('property', 'og:description', page.description),
  );
  if (page.canonical) tags.push(meta('property', 'og:url', page.canonical));
  if (page.image) {
    tags.push(
      meta('property', 'og:image', page.image.url),
      meta('property', 'og:image:alt', page.image.alt),
    );
  }
  for (const [property, content] of page.extraOg ?? [])
    tags.push(meta('property', property, content));
  tags.push(
    meta('name', 'twitter:card', page.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', page.title),
    meta('name', 'twitter:description', page.description),
  );
  if (page.image) tags.push(meta('name', 'twitter:image', page.image.url));
  for (const data of page.jsonLd) {
    tags.push(`<script type="application/ld+json">${jsonForScript(data)}</script>`);
  }
  return tags.join('\n    ');
}

/** Tags of the built index.html that every page replaces with its own. */
const REPLACED_HEAD_TAGS = [
  /<title>[\s\S]*?<\/title>\s*/gi,
  /<meta\s+name=["'](?:description|robots|twitter:[^"']*)["'][^>]*>\s*/gi,
  /<meta\s+property=["']og:[^"']*["'][^>]*>\s*/gi,
  /<link\s+rel=["']canonical["'][^>]*>\s*/gi,
  /<script\s+type=["']application\/ld\+json["'][^>]*>[\s\S]*?<\/script>\s*/gi,
];

/** The built index.html split around the spot where a page's head tags go. */
export interface HtmlTemplate {
  before: string;
  after: string;
}

export function parseTemplate(indexHtml: string): HtmlTemplate {
  let html = indexHtml;
  for (const pattern of REPLACED_HEAD_TAGS) html = html.replace(pattern, '');
  const at = html.search(/<\/head>/i);
  if (at < 0) throw new Error('index.html has no </head>');
  return { before: html.slice(0, at), after: html.slice(at) };
}

/** `extraHead`: trusted markup built from escaped values (resource hints). */
export function renderPage(template: HtmlTemplate, page: PageMeta, extraHead = ''): string {
  const head = extraHead ? `${renderHead(page)}\n    ${extraHead}` : renderHead(page);
  return `${template.before}  ${head}\n  ${template.after}`;
}
