import { decodeHTML } from 'entities';
import sanitizeHtml from 'sanitize-html';

/**
 * Every piece of HTML from the CMS passes through here before it leaves the API
 * (rules "/blog": HTML from the CMS is sanitised on the server). An allow-list: what is
 * not listed is dropped.
 */
const RICH_TEXT: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'small',
    'sub',
    'sup',
    'mark',
    'span',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'ul',
    'ol',
    'li',
    'blockquote',
    'cite',
    'q',
    'hr',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
    'code',
    'pre',
    'abbr',
    'time',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height', 'loading', 'decoding'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    time: ['datetime'],
    abbr: ['title'],
    ol: ['start', 'reversed'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  transformTags: {
    // The page already has its own h1 (the event or post title).
    h1: 'h2',
    a: (tagName, attribs) => {
      const out: sanitizeHtml.Attributes = { ...attribs, rel: 'noopener noreferrer' };
      if (out.target && out.target !== '_blank') delete out.target;
      return { tagName, attribs: out };
    },
    img: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, loading: 'lazy', decoding: 'async' },
    }),
  },
};

export function sanitizeRichText(html: unknown): string {
  if (typeof html !== 'string' || html.trim() === '') return '';
  return sanitizeHtml(html, RICH_TEXT).trim();
}

/**
 * WordPress renders titles with entities ("Jazz &#038; Gin", "&bdquo;…&ldquo;"); the API
 * sends plain text. Every HTML5 named and numeric reference, as a browser would read it.
 */
export function decodeEntities(text: string): string {
  return decodeHTML(text);
}

/**
 * Plain text from CMS HTML, on one line: cards, excerpts, meta descriptions, calendar
 * entries. WordPress's "[…]" becomes "…"; beyond `maxLength` it is cut at a word and ends
 * in "…".
 */
export function plainText(html: unknown, maxLength = Number.POSITIVE_INFINITY): string {
  if (typeof html !== 'string' || html === '') return '';
  const stripped = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} });
  const text = decodeEntities(stripped)
    .replace(/\s*\[(…|\.\.\.)\]\s*$/, ' …')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${lastSpace > maxLength / 2 ? cut.slice(0, lastSpace) : cut}…`;
}
