import { escapeHtml as esc } from '@awhh/machines';
import { SITE_NAME } from '../site/html-head.js';

// The one layout of every mail the site sends (the ticket mail, the waiting list's mails):
// template functions rather than mjml or @react-email, written as the table layout with
// inline styles that mail clients render, without a 58 MB compiler or a second React copy
// in the API image. Every value passes through `escapeHtml` (`@awhh/machines`); the
// templates pass HTML they built the same way.

/** The site's look (frontend tokens): near-black ground, gold accent, light text. */
export const MAIL_COLORS = {
  ground: '#0f0f10',
  card: '#1a1a1c',
  gold: '#c9a227',
  text: '#f2efe8',
  muted: '#a8a39a',
  /** The hairline between the card's sections. */
  rule: '#2c2c30',
} as const;

const C = MAIL_COLORS;

/** One mail, as the mail port sends it: German HTML and the plain-text version. */
export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

export interface MailLayout {
  /** The document's title and the card's heading; usually the subject. */
  title: string;
  /** Named after the site in the gold line above the heading: "After Work Hamburg · Warteliste". */
  topic?: string;
  /** The card's first section, under the heading: paragraphs (`mailParagraph`), a button. */
  bodyHtml: string;
  /** Further sections of the card (`mailSection`), between the body and the footer. */
  sectionsHtml?: string;
  /** The site's address in the footer's sign-off. */
  publicUrl: string;
  /** Small print under the sign-off: why the mail came, how to stop it. */
  footnoteHtml?: string;
}

/** A paragraph of body text; `inner` is HTML, `style` adds to or overrides the defaults. */
export function mailParagraph(inner: string, style = ''): string {
  return `<p style="margin:0 0 14px;color:${C.text};font-size:15px;line-height:1.5;${style}">${inner}</p>`;
}

/** The mail's one call to action: a gold button. */
export function mailButton(label: string, url: string): string {
  return `<p style="margin:20px 0 24px;"><a href="${esc(url)}" style="display:inline-block;background:${C.gold};color:${C.ground};font-weight:bold;font-size:15px;padding:12px 20px;text-decoration:none;border-radius:4px;">${esc(label)}</a></p>`;
}

/** A section of the card below a hairline; `inner` is HTML. */
export function mailSection(inner: string, padding = '16px', style = ''): string {
  return `<tr><td style="padding:${padding};border-top:1px solid ${C.rule};${style}">${inner}</td></tr>`;
}

/** The whole HTML document: the dark ground, the card with its gold rule, header and footer. */
export function renderMailLayout(layout: MailLayout): string {
  const kicker = layout.topic ? `${SITE_NAME} · ${layout.topic}` : SITE_NAME;
  const host = layout.publicUrl.replace(/^https?:\/\//, '');
  const footnote = layout.footnoteHtml
    ? `<p style="margin:12px 0 0;color:${C.muted};font-size:12px;line-height:1.5;">${layout.footnoteHtml}</p>`
    : '';
  const footer = mailSection(
    `Bis bald!<br>${esc(SITE_NAME)} · <a href="${esc(layout.publicUrl)}" style="color:${C.gold};">${esc(host)}</a>${footnote}`,
    '16px',
    `color:${C.muted};font-size:12px;`,
  );
  return `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${esc(layout.title)}</title></head>
<body style="margin:0;padding:0;background:${C.ground};font-family:Helvetica,Arial,sans-serif;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${C.ground};"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:${C.card};border-top:4px solid ${C.gold};">
<tr><td style="padding:24px 16px 8px;">
<div style="color:${C.gold};font-size:12px;letter-spacing:3px;font-weight:bold;">${esc(kicker.toUpperCase())}</div>
<h1 style="margin:8px 0 16px;color:${C.text};font-size:22px;">${esc(layout.title)}</h1>
${layout.bodyHtml}
</td></tr>
${layout.sectionsHtml === undefined ? '' : `${layout.sectionsHtml}\n`}${footer}
</table></td></tr></table></body></html>`;
}

/**
 * The plain-text version: paragraphs separated by a blank line, the sign-off last, one
 * newline at the end.
 */
export function renderMailText(paragraphs: readonly string[], publicUrl: string): string {
  return [...paragraphs, `Bis bald!\n${SITE_NAME}\n${publicUrl}`].join('\n\n') + '\n';
}
