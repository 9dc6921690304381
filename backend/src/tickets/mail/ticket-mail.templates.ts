import {
  formatCents,
  formatLongDate,
  formatTime,
  lineTotalCents,
  escapeHtml,
} from '@awhh/machines';
import { SITE_NAME } from '../../site/html-head.js';

// Template functions rather than mjml or @react-email: one fixed layout whose every value
// passes through `esc`, written as the table layout with inline styles that mail clients
// render, without a 58 MB compiler or a second React copy in the API image.

export interface MailTicket {
  eventName: string;
  tier: string | null;
  seat: number;
  seats: number;
  startsAt: string | null;
  venue: string | null;
  /** The ticket page, PUBLIC_URL/tickets/{token}. */
  url: string;
}

export interface TicketMailContent {
  /** `order`: the confirmation of a paid order; `resend`: the buyer asked for the tickets again. */
  kind: 'order' | 'resend';
  buyerName: string | null;
  orderNumber: string | null;
  /** The order summary; null for a resend, which may cover several orders. */
  summary: {
    lines: { name: string; quantity: number; unitAmount: number }[];
    subtotal: number;
    discount: number;
    total: number;
    couponCode: string | null;
  } | null;
  tickets: MailTicket[];
  publicUrl: string;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

const C = {
  ground: '#0f0f10',
  card: '#1a1a1c',
  gold: '#c9a227',
  text: '#f2efe8',
  muted: '#a8a39a',
};

/** HTML escaping for the mails: the one shared function. */
export const esc = escapeHtml;

function subjectOf(content: TicketMailContent): string {
  if (content.kind === 'resend') return `Deine Tickets von ${SITE_NAME}`;
  const events = [...new Set(content.tickets.map((t) => t.eventName))];
  if (events.length === 1) return `Deine Tickets für „${events[0]}“`;
  if (events.length > 1) return `Deine Tickets für ${events.length} Events`;
  return `Deine Bestellung bei ${SITE_NAME}`;
}

function when(startsAt: string | null): string | null {
  const date = formatLongDate(startsAt);
  return date ? `${date}, ${formatTime(startsAt)}` : null;
}

function ticketLabel(t: MailTicket): string {
  return `${t.eventName}${t.tier ? ` – ${t.tier}` : ''} · Ticket ${t.seat} von ${t.seats}`;
}

function intro(content: TicketMailContent): string {
  const hello = content.buyerName ? `Hallo ${content.buyerName},` : 'Hallo,';
  if (content.kind === 'resend') {
    return `${hello}\nhier sind deine Tickets noch einmal. Zeig am Einlass einfach den QR-Code – auf dem Handy oder ausgedruckt.`;
  }
  return content.tickets.length > 0
    ? `${hello}\ndanke für deine Bestellung! Im Anhang findest du deine Tickets als PDF (eins pro Person) und eine Kalenderdatei. Zeig am Einlass einfach den QR-Code – auf dem Handy oder ausgedruckt.`
    : `${hello}\ndanke für deine Bestellung! Hier ist deine Übersicht.`;
}

export function renderTicketMail(content: TicketMailContent): RenderedMail {
  return { subject: subjectOf(content), html: html(content), text: text(content) };
}

function text(content: TicketMailContent): string {
  const parts: string[] = [intro(content)];
  if (content.orderNumber) parts.push(`Bestellnummer: ${content.orderNumber}`);
  if (content.tickets.length > 0) {
    parts.push(
      'Deine Tickets:\n' +
        content.tickets
          .map((t) =>
            [
              `- ${ticketLabel(t)}`,
              when(t.startsAt) ? `  ${when(t.startsAt)}` : null,
              t.venue ? `  ${t.venue}, Hamburg` : null,
              `  ${t.url}`,
            ]
              .filter(Boolean)
              .join('\n'),
          )
          .join('\n'),
    );
  }
  if (content.summary) {
    const s = content.summary;
    const lines = s.lines.map(
      (l) => `${l.quantity} × ${l.name}: ${formatCents(lineTotalCents(l))}`,
    );
    if (s.discount > 0) {
      lines.push(`Gutschein${s.couponCode ? ` ${s.couponCode}` : ''}: −${formatCents(s.discount)}`);
    }
    lines.push(`Gesamt: ${formatCents(s.total)}`);
    parts.push(`Deine Bestellung:\n${lines.join('\n')}`);
  }
  parts.push(`Bis bald!\n${SITE_NAME}\n${content.publicUrl}`);
  return parts.join('\n\n') + '\n';
}

function html(content: TicketMailContent): string {
  const p = (inner: string, style = '') =>
    `<p style="margin:0 0 14px;color:${C.text};font-size:15px;line-height:1.5;${style}">${inner}</p>`;
  const introHtml = intro(content)
    .split('\n')
    .map((line) => esc(line))
    .join('<br>');
  const tickets = content.tickets
    .map((t) => {
      const details = [when(t.startsAt), t.venue ? `${t.venue}, Hamburg` : null]
        .filter((d): d is string => d !== null)
        .map((d) => `<div style="color:${C.muted};font-size:13px;">${esc(d)}</div>`)
        .join('');
      return `<tr><td style="padding:12px 16px;border-top:1px solid #2c2c30;">
<div style="color:${C.text};font-size:15px;font-weight:bold;">${esc(ticketLabel(t))}</div>${details}
<div style="margin-top:8px;"><a href="${esc(t.url)}" style="color:${C.gold};font-weight:bold;text-decoration:none;">Ticket mit QR-Code öffnen</a></div>
</td></tr>`;
    })
    .join('');
  const summary = content.summary ? summaryHtml(content.summary) : '';
  return `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${esc(subjectOf(content))}</title></head>
<body style="margin:0;padding:0;background:${C.ground};font-family:Helvetica,Arial,sans-serif;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${C.ground};"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:${C.card};border-top:4px solid ${C.gold};">
<tr><td style="padding:24px 16px 8px;">
<div style="color:${C.gold};font-size:12px;letter-spacing:3px;font-weight:bold;">${esc(SITE_NAME.toUpperCase())}</div>
<h1 style="margin:8px 0 16px;color:${C.text};font-size:22px;">${esc(subjectOf(content))}</h1>
${p(introHtml)}
${content.orderNumber ? p(`Bestellnummer: <strong>${esc(content.orderNumber)}</strong>`, `color:${C.muted};font-size:13px;`) : ''}
</td></tr>
${tickets}
${summary}
<tr><td style="padding:16px;border-top:1px solid #2c2c30;color:${C.muted};font-size:12px;">Bis bald!<br>${esc(SITE_NAME)} · <a href="${esc(content.publicUrl)}" style="color:${C.gold};">${esc(content.publicUrl.replace(/^https?:\/\//, ''))}</a></td></tr>
</table></td></tr></table></body></html>`;
}

function summaryHtml(s: NonNullable<TicketMailContent['summary']>): string {
  const row = (label: string, amount: string, strong = false) =>
    `<tr><td style="padding:4px 0;color:${C.text};font-size:14px;${strong ? 'font-weight:bold;' : ''}">${label}</td><td align="right" style="padding:4px 0;color:${C.text};font-size:14px;white-space:nowrap;${strong ? 'font-weight:bold;' : ''}">${amount}</td></tr>`;
  const rows = s.lines
    .map((l) => row(`${l.quantity} × ${esc(l.name)}`, esc(formatCents(lineTotalCents(l)))))
    .join('');
  const discount =
    s.discount > 0
      ? row(
          `Gutschein${s.couponCode ? ` ${esc(s.couponCode)}` : ''}`,
          `−${esc(formatCents(s.discount))}`,
        )
      : '';
  return `<tr><td style="padding:16px;border-top:1px solid #2c2c30;">
<div style="color:${C.gold};font-size:12px;letter-spacing:2px;font-weight:bold;margin-bottom:8px;">DEINE BESTELLUNG</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${rows}${discount}${row('Gesamt', esc(formatCents(s.total)), true)}</table>
</td></tr>`;
}
