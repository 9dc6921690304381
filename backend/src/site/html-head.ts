import { escapeHtml } from '@awhh/machines';

export const SITE_NAME = 'After Work Hamburg';

/** The one HTML escape (machines/src/format/html.ts), for the backend's own HTML. */
export { escapeHtml };

/** One plain-text function for the whole backend (descriptions, calendar, mails). */
export { plainText } from '../catalog/html.js';

export function absoluteUrl(publicUrl: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${publicUrl}/`).toString();
}

/**
 * Tags of the built index.html that every page replaces with its own: the route's
 * `handle.meta` renders them (frontend/src/server/head.ts).
 */
const REPLACED_HEAD_TAGS = [
  /<title>[\s\S]*?<\/title>\s*/gi,
  /<meta\s+name=["'](?:description|robots|twitter:[^"']*)["'][^>]*>\s*/gi,
  /<meta\s+property=["']og:[^"']*["'][^>]*>\s*/gi,
  /<link\s+rel=["']canonical["'][^>]*>\s*/gi,
  /<script\s+type=["']application\/ld\+json["'][^>]*>[\s\S]*?<\/script>\s*/gi,
];

const EMPTY_ROOT = /<div id="root">\s*<\/div>/;

/** The built index.html split around the head's end and the root element. */
export interface HtmlTemplate {
  head: string;
  body: string;
  end: string;
}

export function parseTemplate(indexHtml: string): HtmlTemplate {
  let html = indexHtml;
  for (const pattern of REPLACED_HEAD_TAGS) html = html.replace(pattern, '');
  const headEnd = html.search(/<\/head>/i);
  if (headEnd < 0) throw new Error('index.html has no </head>');
  const root = EMPTY_ROOT.exec(html);
  if (!root || root.index < headEnd) throw new Error('index.html has no empty <div id="root">');
  return {
    head: html.slice(0, headEnd),
    body: html.slice(headEnd, root.index),
    end: html.slice(root.index + root[0].length),
  };
}

/**
 * A test site (PAYMENT_PROVIDER=test) says so on every page, so nobody takes it for the
 * live shop. Outside the app's root, which hydration never touches, with the class on
 * <html> that makes room for it (shell.css): it paints with the HTML, needs no script and
 * never moves the page afterwards.
 */
export const TEST_MODE_BAR =
  '<aside class="test-mode-bar" aria-label="Testmodus"><p>Testmodus – keine echten Zahlungen</p></aside>';

export function withTestModeBar(template: HtmlTemplate): HtmlTemplate {
  return {
    head: template.head.replace(/<html\b/i, '<html class="test-site"'),
    body: template.body + TEST_MODE_BAR,
    end: template.end,
  };
}

export interface RenderedParts {
  /** Trusted markup: the route's head tags and resource hints. */
  head: string;
  /** Trusted markup: React's render of the page. */
  html: string;
  /** Trusted markup: the JSON data block the browser hydrates from. */
  data: string;
}

export function renderDocument(template: HtmlTemplate, parts: RenderedParts): string {
  return (
    `${template.head}  ${parts.head}\n  ${template.body}` +
    `<div id="root">${parts.html}</div>${parts.data}${template.end}`
  );
}
