import {
  escapeHtml as esc,
  formatCents,
  formatLongDate,
  formatTicketCode,
  formatTime,
  lineTotalCents,
} from '@awhh/machines';
import {
  MAIL_COLORS as C,
  mailParagraph as p,
  mailSection,
  type RenderedMail,
  renderMailLayout,
  renderMailText,
} from '../../mail/mail-layout.js';
import { SITE_NAME } from '../../site/html-head.js';

// The ticket mail in the site's one mail layout (`mail/mail-layout.ts`); every value
// passes through `esc`.

export interface MailTicket {
  eventName: string;
  tier: string | null;
  seat: number;
  seats: number;
  startsAt: string | null;
  venue: string | null;
  /** The ticket page, PUBLIC_URL/tickets/{token}. */
  url: string;
  /** The short ticket code as stored, typed at the door when the QR code will not scan. */
  code: string | null;
  /** A guest-list seat (rules "Orders made in the shop"). */
  guestList?: boolean;
  /** rules "Wallet passes": the links of the wallets the site is set up for. */
  wallet?: { apple: string | null; google: string | null };
}

export interface TicketMailContent {
  /**
   * `order`: the confirmation of a paid order; `resend`: the buyer asked for the tickets
   * again; `transfer`: a ticket passed on, to its new holder (rules "Named tickets").
   */
  kind: 'order' | 'resend' | 'transfer';
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
  /** rules "Orders made in the shop": the organizer put the buyer on the guest list (0 €). */
  guestList?: boolean;
  /** rules "Named tickets": who passed the ticket on (their name only, nothing else of theirs). */
  givenBy?: string | null;
}

function subjectOf(content: TicketMailContent): string {
  if (content.kind === 'resend') return `Deine Tickets von ${SITE_NAME}`;
  if (content.kind === 'transfer') {
    return `Ein Ticket für dich: „${content.tickets[0]?.eventName ?? SITE_NAME}“`;
  }
  const events = [...new Set(content.tickets.map((t) => t.eventName))];
  const prefix = content.guestList ? 'Gästeliste: ' : '';
  if (events.length === 1) return `${prefix}Deine Tickets für „${events[0]}“`;
  if (events.length > 1) return `${prefix}Deine Tickets für ${events.length} Events`;
  return `Deine Bestellung bei ${SITE_NAME}`;
}

function when(startsAt: string | null): string | null {
  const date = formatLongDate(startsAt);
  return date ? `${date}, ${formatTime(startsAt)}` : null;
}

function ticketLabel(t: MailTicket): string {
  return `${t.eventName}${t.tier ? ` – ${t.tier}` : ''}${t.guestList ? ' · Gästeliste' : ''} · Ticket ${t.seat} von ${t.seats}`;
}

function intro(content: TicketMailContent): string {
  const hello = content.buyerName ? `Hallo ${content.buyerName},` : 'Hallo,';
  if (content.kind === 'transfer') {
    const giver = content.givenBy ? `${content.givenBy} hat` : 'Jemand hat';
    const event = content.tickets[0]?.eventName;
    return `${hello}\n${giver} dir ein Ticket${event ? ` für „${event}“` : ''} weitergegeben – es ist jetzt auf deinen Namen ausgestellt. Im Anhang findest du es als PDF und eine Kalenderdatei. Zeig am Einlass einfach den QR-Code – auf dem Handy oder ausgedruckt.`;
  }
  if (content.kind === 'resend') {
    return `${hello}\nhier sind deine Tickets noch einmal. Zeig am Einlass einfach den QR-Code – auf dem Handy oder ausgedruckt.`;
  }
  if (content.guestList && content.tickets.length > 0) {
    return `${hello}\ndu stehst auf unserer Gästeliste! Im Anhang findest du deine Tickets als PDF (eins pro Person) und eine Kalenderdatei. Zeig am Einlass einfach den QR-Code – auf dem Handy oder ausgedruckt.`;
  }
  return content.tickets.length > 0
    ? `${hello}\ndanke für deine Bestellung! Im Anhang findest du deine Tickets als PDF (eins pro Person) und eine Kalenderdatei. Zeig am Einlass einfach den QR-Code – auf dem Handy oder ausgedruckt.`
    : `${hello}\ndanke für deine Bestellung! Hier ist deine Übersicht.`;
}

/**
 * rules "Named tickets": an order of several tickets asks who comes; each ticket page
 * takes its guest's name.
 */
function namingHint(content: TicketMailContent): string | null {
  if (content.kind !== 'order' || content.guestList || content.tickets.length < 2) return null;
  return 'Wer kommt? Trag auf jeder Ticketseite ein, wer mit dem Ticket kommt – der Name steht dann auf dem Ticket und auf dem Namensschild, und am Einlass begrüßen wir alle mit Namen.';
}

export function renderTicketMail(content: TicketMailContent): RenderedMail {
  return { subject: subjectOf(content), html: html(content), text: text(content) };
}

function text(content: TicketMailContent): string {
  const parts: string[] = [intro(content)];
  const naming = namingHint(content);
  if (naming) parts.push(naming);
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
              t.code ? `  Ticket-Code: ${formatTicketCode(t.code)}` : null,
              `  ${t.url}`,
              t.wallet?.apple ? `  Zu Apple Wallet hinzufügen: ${t.wallet.apple}` : null,
              t.wallet?.google ? `  Zu Google Wallet hinzufügen: ${t.wallet.google}` : null,
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
  return renderMailText(parts, content.publicUrl);
}

function html(content: TicketMailContent): string {
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
      return mailSection(
        `
<div style="color:${C.text};font-size:15px;font-weight:bold;">${esc(ticketLabel(t))}</div>${details}${codeHtml(t.code)}
<div style="margin-top:8px;"><a href="${esc(t.url)}" style="color:${C.gold};font-weight:bold;text-decoration:none;">Ticket mit QR-Code öffnen</a></div>${walletHtml(t.wallet)}
`,
        '12px 16px',
      );
    })
    .join('');
  const summary = content.summary ? summaryHtml(content.summary) : '';
  const naming = namingHint(content);
  const orderNumber = content.orderNumber
    ? p(
        `Bestellnummer: <strong>${esc(content.orderNumber)}</strong>`,
        `color:${C.muted};font-size:13px;`,
      )
    : '';
  return renderMailLayout({
    title: subjectOf(content),
    bodyHtml: `${p(introHtml)}\n${naming ? p(esc(naming)) : ''}${orderNumber}`,
    sectionsHtml: `${tickets}\n${summary}`,
    publicUrl: content.publicUrl,
  });
}

/** rules "Wallet passes": one link per wallet the site is set up for, under the ticket's. */
function walletHtml(wallet: MailTicket['wallet']): string {
  const links = [
    wallet?.apple ? [wallet.apple, 'Zu Apple Wallet hinzufügen'] : null,
    wallet?.google ? [wallet.google, 'Zu Google Wallet hinzufügen'] : null,
  ]
    .filter((l): l is string[] => l !== null)
    .map(
      ([href, label]) =>
        `<a href="${esc(href!)}" style="color:${C.gold};text-decoration:none;">${esc(label!)}</a>`,
    );
  return links.length > 0
    ? `<div style="margin-top:6px;font-size:13px;">${links.join(' &nbsp;·&nbsp; ')}</div>`
    : '';
}

/** The short code, large and spaced for reading out at the door. */
function codeHtml(code: string | null): string {
  if (!code) return '';
  return `<div style="margin-top:8px;color:${C.muted};font-size:12px;">Ticket-Code <span style="color:${C.text};font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:18px;font-weight:bold;letter-spacing:2px;">${esc(formatTicketCode(code))}</span></div>`;
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
  return mailSection(`
<div style="color:${C.gold};font-size:12px;letter-spacing:2px;font-weight:bold;margin-bottom:8px;">DEINE BESTELLUNG</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${rows}${discount}${row('Gesamt', esc(formatCents(s.total)), true)}</table>
`);
}
