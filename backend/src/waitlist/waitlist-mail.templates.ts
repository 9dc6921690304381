import { formatDateTime } from '@awhh/machines';
import { SITE_NAME } from '../site/html-head.js';
import { esc, type RenderedMail } from '../tickets/mail/ticket-mail.templates.js';

// The ticket mail's layout (table, inline styles, dark ground with a gold rule), every
// value through `esc`. German, HTML and text; each with the unsubscribe link (rules
// "Waiting list": every mail has one).

const C = {
  ground: '#0f0f10',
  card: '#1a1a1c',
  gold: '#c9a227',
  text: '#f2efe8',
  muted: '#a8a39a',
};

interface Common {
  /** "Sommer-Afterwork auf der MS Hamburg – VIP". */
  lineName: string;
  quantity: number;
  unsubscribeUrl: string;
  publicUrl: string;
}

export interface ConfirmationMailContent extends Common {
  confirmUrl: string;
}

export interface OfferMailContent extends Common {
  offerUrl: string;
  /** Epoch ms. */
  expiresAt: number;
}

function places(quantity: number): string {
  return quantity === 1 ? '1 Ticket' : `${quantity} Tickets`;
}

/** "Freitag, 27. November 2026, 19:30 Uhr" in Berlin time. */
export function offerDeadline(expiresAt: number): string {
  return formatDateTime(new Date(expiresAt)) ?? new Date(expiresAt).toISOString();
}

export function renderConfirmationMail(content: ConfirmationMailContent): RenderedMail {
  const subject = `Bitte bestätige die Warteliste für „${content.lineName}“`;
  const paragraphs = [
    'Hallo,',
    `du möchtest auf die Warteliste für „${content.lineName}“ (${places(content.quantity)}). Bitte bestätige deine E-Mail-Adresse – erst dann stehst du auf der Liste.`,
    'Sobald Plätze frei werden, reservieren wir sie der Reihe nach für die Wartenden und schicken dir einen Link, mit dem du sie kaufen kannst.',
  ];
  const outro =
    'Warst du das nicht? Dann ignoriere diese E-Mail einfach – ohne Bestätigung kommst du nicht auf die Warteliste.';
  return {
    subject,
    text: text(
      paragraphs,
      { label: 'Warteliste bestätigen', url: content.confirmUrl },
      outro,
      content,
    ),
    html: html(
      subject,
      paragraphs,
      { label: 'Warteliste bestätigen', url: content.confirmUrl },
      outro,
      content,
    ),
  };
}

export function renderOfferMail(content: OfferMailContent): RenderedMail {
  const deadline = offerDeadline(content.expiresAt);
  const subject = `Plätze frei: ${places(content.quantity)} für „${content.lineName}“`;
  const paragraphs = [
    'Hallo,',
    `gute Nachricht: Für „${content.lineName}“ sind ${places(content.quantity)} für dich reserviert – bis ${deadline}.`,
    'Über den Link legst du sie in deinen Warenkorb und bezahlst wie gewohnt. Danach geht die Reservierung an die nächste Person auf der Warteliste.',
  ];
  const outro =
    'Du möchtest nicht mehr? Dann lehne das Angebot auf der Seite ab – so kommt die nächste Person schneller dran.';
  const action = { label: 'Tickets jetzt kaufen', url: content.offerUrl };
  return {
    subject,
    text: text(paragraphs, action, outro, content),
    html: html(subject, paragraphs, action, outro, content),
  };
}

interface Action {
  label: string;
  url: string;
}

function text(paragraphs: string[], action: Action, outro: string, content: Common): string {
  return (
    [
      ...paragraphs,
      `${action.label}:\n${action.url}`,
      outro,
      `Von der Warteliste abmelden:\n${content.unsubscribeUrl}`,
      `Bis bald!\n${SITE_NAME}\n${content.publicUrl}`,
    ].join('\n\n') + '\n'
  );
}

function html(
  subject: string,
  paragraphs: string[],
  action: Action,
  outro: string,
  content: Common,
): string {
  const p = (inner: string, style = '') =>
    `<p style="margin:0 0 14px;color:${C.text};font-size:15px;line-height:1.5;${style}">${inner}</p>`;
  return `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${esc(subject)}</title></head>
<body style="margin:0;padding:0;background:${C.ground};font-family:Helvetica,Arial,sans-serif;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${C.ground};"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:${C.card};border-top:4px solid ${C.gold};">
<tr><td style="padding:24px 24px 8px;">
<div style="color:${C.gold};font-size:13px;letter-spacing:2px;text-transform:uppercase;font-weight:bold;">${esc(SITE_NAME)} · Warteliste</div>
</td></tr>
<tr><td style="padding:8px 24px 8px;">
${paragraphs.map((t) => p(esc(t))).join('\n')}
<p style="margin:20px 0 24px;"><a href="${esc(action.url)}" style="display:inline-block;background:${C.gold};color:${C.ground};font-weight:bold;font-size:15px;padding:12px 20px;text-decoration:none;border-radius:4px;">${esc(action.label)}</a></p>
${p(esc(outro), `color:${C.muted};font-size:13px;`)}
</td></tr>
<tr><td style="padding:8px 24px 24px;border-top:1px solid #2c2c30;">
<p style="margin:12px 0 0;color:${C.muted};font-size:12px;line-height:1.5;">Du bekommst diese E-Mail, weil sich diese Adresse für die Warteliste von ${esc(SITE_NAME)} eingetragen hat. <a href="${esc(content.unsubscribeUrl)}" style="color:${C.gold};">Von der Warteliste abmelden</a></p>
</td></tr>
</table>
</td></tr></table>
</body></html>`;
}
