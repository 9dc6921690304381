import { escapeHtml } from '@awhh/machines';
import type { OutgoingMail } from '../mail/mail.port.js';
import { mailParagraph, renderMailLayout, renderMailText } from '../mail/mail-layout.js';

/** What the organizer's mail about a refused hand-off says: ids and the shop's reason, no buyer data. */
export interface HandoffRefusedFacts {
  orderId: string;
  reason: string;
  /** Total in integer cents. */
  total: number;
  publicUrl: string;
  /** When the mail was asked for: part of its stable id (a refusal after a retry is a new mail). */
  requestedAt: number;
}

/**
 * rules "Hand-off refused": the organizer learns that WooCommerce refused a paid order,
 * why, and the one command that hands it off again once the cause is fixed. The buyer
 * paid and has the tickets; only the shop's books lack the order.
 */
export function handoffRefusedMail(to: string, facts: HandoffRefusedFacts): OutgoingMail {
  const subject = `Übergabe fehlgeschlagen: Bestellung ${facts.orderId}`;
  const euros = (facts.total / 100).toFixed(2).replace('.', ',');
  const retry = `npm run handoff:retry -- ${facts.orderId}`;
  const paragraphs = [
    `WooCommerce hat die bezahlte Bestellung ${facts.orderId} (${euros} €) nicht angenommen.`,
    `Grund laut WooCommerce: ${facts.reason}`,
    'Die Zahlung ist eingegangen und die Tickets sind gültig; nur im Shop fehlt die Bestellung. Ein Entwurf, den WooCommerce dabei angelegt hat, wurde gelöscht.',
    `Sobald die Ursache behoben ist (z. B. der Gutschein wieder gültig), übergibt dieser Befehl die Bestellung erneut: ${retry}`,
  ];
  return {
    id: `handoff-refused-${facts.orderId}-${facts.requestedAt}`,
    to,
    subject,
    html: renderMailLayout({
      title: subject,
      topic: 'Shop',
      bodyHtml: paragraphs.map((p) => mailParagraph(escapeHtml(p))).join(''),
      publicUrl: facts.publicUrl,
    }),
    text: renderMailText(paragraphs, facts.publicUrl),
    attachments: [],
  };
}
