import { escapeHtml } from '@awhh/machines';
import { absoluteUrl, documentTitle, type PageMeta, SITE_NAME } from '@/lib/page-head';

export { escapeHtml };

// Server only (bundled into entry-server.js): the head tags of a page from its route's
// `handle.meta`, for search engines and link previews, which run no JavaScript.

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

function meta(attr: 'name' | 'property', key: string, content: string): string {
  return `<meta ${attr}="${escapeHtml(key)}" content="${escapeHtml(content)}">`;
}

export function renderHead(page: PageMeta, origin: string): string {
  const title = documentTitle(page.title);
  const canonical = page.canonical ? absoluteUrl(origin, page.canonical) : null;
  const image = page.image ? { ...page.image, src: absoluteUrl(origin, page.image.src) } : null;
  const tags = [
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'description', page.description),
  ];
  if (page.noindex) tags.push(meta('name', 'robots', 'noindex, nofollow'));
  if (canonical) tags.push(`<link rel="canonical" href="${escapeHtml(canonical)}">`);
  tags.push(
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:locale', 'de_DE'),
    meta('property', 'og:type', page.ogType ?? 'website'),
    meta('property', 'og:title', title),
    meta('property', 'og:description', page.description),
  );
  if (canonical) tags.push(meta('property', 'og:url', canonical));
  if (image) {
    tags.push(meta('property', 'og:image', image.src), meta('property', 'og:image:alt', image.alt));
  }
  for (const [property, content] of page.extraOg ?? [])
    tags.push(meta('property', property, content));
  tags.push(
    meta('name', 'twitter:card', image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', page.description),
  );
  if (image) tags.push(meta('name', 'twitter:image', image.src));
  for (const data of page.jsonLd ?? []) {
    tags.push(`<script type="application/ld+json">${jsonForScript(data)}</script>`);
  }
  return tags.join('\n    ');
}
