import { escapeHtml as esc, formatDateTime } from '@awhh/machines';
import {
  MAIL_COLORS as C,
  mailButton,
  mailParagraph as p,
  type RenderedMail,
  renderMailLayout,
  renderMailText,
} from '../mail/mail-layout.js';
import { SITE_NAME } from '../site/html-head.js';

// The waiting list's mails in the site's one mail layout (`mail/mail-layout.ts`), every
// value through `esc`. German, HTML and text; each with the unsubscribe link (rules
// "Waiting list": every mail has one).

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
  return renderMailText(
    [
      ...paragraphs,
      `${action.label}:\n${action.url}`,
      outro,
      `Von der Warteliste abmelden:\n${content.unsubscribeUrl}`,
    ],
    content.publicUrl,
  );
}

function html(
  subject: string,
  paragraphs: string[],
  action: Action,
  outro: string,
  content: Common,
): string {
  return renderMailLayout({
    title: subject,
    topic: 'Warteliste',
    bodyHtml: [
      ...paragraphs.map((t) => p(esc(t))),
      mailButton(action.label, action.url),
      p(esc(outro), `color:${C.muted};font-size:13px;`),
    ].join('\n'),
    publicUrl: content.publicUrl,
    footnoteHtml: `Du bekommst diese E-Mail, weil sich diese Adresse für die Warteliste von ${esc(SITE_NAME)} eingetragen hat. <a href="${esc(content.unsubscribeUrl)}" style="color:${C.gold};">Von der Warteliste abmelden</a>`,
  });
}
