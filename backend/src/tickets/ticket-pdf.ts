import { existsSync, readFileSync } from 'node:fs';
import { formatLongDate, formatTicketCode, formatTime, type Ticket } from '@awhh/machines';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { SITE_NAME } from '../site/html-head.js';

// A ticket is printed as often as it is shown on a phone: black on white with the site's
// gold as the accent (a gold band and rule, the brand line in a darker gold that reads on
// paper), nothing in a dark field. The screens keep the dark look (frontend tokens).
const COLORS = {
  gold: '#c9a227',
  /** The gold darkened to 5.3:1 on white, for the brand line's small type. */
  goldText: '#7d6410',
  text: '#111111',
  muted: '#555555',
  rule: '#d8d2c4',
  danger: '#b3261e',
};

// DejaVu carries every glyph German copy needs; where it is not installed (a slim image),
// PDFKit's built-in Helvetica with WinAnsi still covers umlauts, ß, € and „“. The short code
// is set in a monospaced face, one sign per cell, so it reads out sign by sign.
const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const DEJAVU_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const DEJAVU_MONO_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf';
let fonts: {
  regular: string | Buffer;
  bold: string | Buffer;
  mono: string | Buffer;
} | null = null;

/** Read once per process: every PDF embeds the same font files (the badges' too). */
export function pdfFonts() {
  fonts ??=
    existsSync(DEJAVU) && existsSync(DEJAVU_BOLD) && existsSync(DEJAVU_MONO_BOLD)
      ? {
          regular: readFileSync(DEJAVU),
          bold: readFileSync(DEJAVU_BOLD),
          mono: readFileSync(DEJAVU_MONO_BOLD),
        }
      : { regular: 'Helvetica', bold: 'Helvetica-Bold', mono: 'Courier-Bold' };
  return fonts;
}

/** A6 portrait in points: one ticket fits a phone screen and a printed page alike. */
const PAGE = { width: 297.64, height: 419.53, margin: 22 };
/** The QR code's side: this large when the details leave room, never below the smaller. */
const QR_SIZE = { max: 136, min: 104 };

/** The QR code's modules, row by row (true = dark). */
export interface QrMatrix {
  size: number;
  dark(x: number, y: number): boolean;
}

/**
 * The QR code of a ticket: its signed token, error correction M (rules "Tickets and the
 * door": readable by a phone camera from a screen). Drawn into the PDF as vector squares,
 * sharp at any zoom and print size, with no image to encode and decode.
 */
export function ticketQr(token: string): QrMatrix {
  const { modules } = QRCode.create(token, { errorCorrectionLevel: 'M' });
  return { size: modules.size, dark: (x, y) => Boolean(modules.get(y, x)) };
}

export interface PdfTicket {
  ticket: Ticket;
  /** Shown on the ticket; null when the order has none yet. */
  orderNumber: string | null;
}

/** One PDF, one page per ticket (rules "E-mail": the mail attaches one file per seat). */
export async function renderTicketsPdf(tickets: readonly PdfTicket[]): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    // No bottom margin: the footer sits low, and PDFKit would start a new page for it.
    margins: { top: PAGE.margin, left: PAGE.margin, right: PAGE.margin, bottom: 0 },
    autoFirstPage: false,
    info: { Title: `${SITE_NAME} – Ticket`, Author: SITE_NAME, Creator: SITE_NAME },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const { regular, bold, mono } = pdfFonts();
  doc.registerFont('regular', regular as string);
  doc.registerFont('bold', bold as string);
  doc.registerFont('mono', mono as string);
  tickets.forEach((t) => page(doc, t));
  doc.end();
  return done;
}

/** "MS Hamburg, Landungsbrücken, Hamburg": the city once, however the venue is written. */
function venueLine(venue: string | null): string | null {
  if (!venue) return null;
  return /\bhamburg\b/i.test(venue) ? venue : `${venue}, Hamburg`;
}

function page(doc: PDFKit.PDFDocument, { ticket, orderNumber }: PdfTicket) {
  doc.addPage();
  const { width, height, margin } = PAGE;
  const inner = width - 2 * margin;
  doc.rect(0, 0, width, 8).fill(COLORS.gold);

  doc.font('bold').fontSize(8).fillColor(COLORS.goldText);
  doc.text(SITE_NAME.toUpperCase(), margin, 20, { width: inner, characterSpacing: 1.5 });
  // Long names wrap (three lines at most), never run off the page.
  doc.font('bold').fontSize(16).fillColor(COLORS.text);
  doc.text(ticket.eventName, margin, 34, {
    width: inner,
    height: 3 * doc.currentLineHeight(true),
    ellipsis: true,
  });
  let y = doc.y + 6;
  doc.rect(margin, y, 36, 2).fill(COLORS.gold);
  y += 10;

  // A fact: its label, then its value wrapping onto as many lines as it needs (up to `lines`).
  const fact = (label: string, value: string, x: number, w: number, lines = 3): number => {
    doc.font('regular').fontSize(6.5).fillColor(COLORS.muted);
    doc.text(label.toUpperCase(), x, y, { width: w, characterSpacing: 0.6 });
    doc.font('bold').fontSize(10).fillColor(COLORS.text);
    doc.text(value, x, y + 9, {
      width: w,
      height: lines * doc.currentLineHeight(true),
      ellipsis: true,
    });
    return doc.y;
  };
  const date = formatLongDate(ticket.startsAt);
  if (date) y = fact('Datum', `${date}, ${formatTime(ticket.startsAt)}`, margin, inner) + 7;
  const venue = venueLine(ticket.venue);
  if (venue) y = fact('Ort', venue, margin, inner) + 7;
  // rules "Orders made in the shop": a guest-list seat says so beside its tier.
  const guestList = ticket.guestList ? ' · Gästeliste' : '';
  const seat = `${ticket.tier ?? 'Eintritt'}${guestList} · ${ticket.seat} von ${ticket.seats}`;
  const half = (inner - 12) / 2;
  const bottoms = [fact('Ticket', seat, margin, ticket.holder ? half : inner)];
  // rules "Named tickets": the holder, with their company.
  const holder =
    ticket.holder && ticket.company ? `${ticket.holder} (${ticket.company})` : ticket.holder;
  if (holder) bottoms.push(fact('Name', holder, margin + half + 12, half));
  y = Math.max(...bottoms);

  // The code block sits at the foot: the QR code, and under it the short code to read out.
  const footerY = height - margin - 6;
  const codeY = footerY - 36;
  if (ticket.status === 'valid') {
    // The QR code as large as the room between the details and the code allows, with the
    // standard's quiet zone of four modules kept clear of text on every side.
    const qr = ticketQr(ticket.token);
    const room = codeY - 8 - y;
    const cell = Math.max(
      QR_SIZE.min / qr.size,
      Math.min(QR_SIZE.max / qr.size, room / (qr.size + 8)),
    );
    const size = cell * qr.size;
    drawQr(doc, qr, (width - size) / 2, codeY - 8 - 4 * cell - size, size);
    if (ticket.code) {
      doc.font('regular').fontSize(6.5).fillColor(COLORS.muted);
      doc.text('TICKET-CODE', margin, codeY - 8, {
        width: inner,
        align: 'center',
        characterSpacing: 0.6,
      });
      doc.font('mono').fontSize(22).fillColor(COLORS.text);
      doc.text(formatTicketCode(ticket.code), margin, codeY + 1, { width: inner, align: 'center' });
    }
  } else {
    // rules "Tickets and the door": a revoked ticket shows no code, the short one neither.
    doc.font('bold').fontSize(26).fillColor(COLORS.danger);
    const middle = (y + 8 + codeY) / 2;
    doc.text('Storniert', margin, middle - 30, { width: inner, align: 'center' });
    doc.font('regular').fontSize(9).fillColor(COLORS.text);
    doc.text('Dieses Ticket gilt nicht mehr für den Einlass.', margin, middle + 4, {
      width: inner,
      align: 'center',
    });
  }

  doc.rect(margin, footerY - 8, inner, 0.6).fill(COLORS.rule);
  doc.font('regular').fontSize(7).fillColor(COLORS.muted);
  const footer = [
    orderNumber ? `Bestellnummer ${orderNumber}` : null,
    ticket.status === 'valid' ? 'QR-Code zeigen oder Ticket-Code nennen' : null,
  ]
    .filter(Boolean)
    .join(' · ');
  doc.text(footer, margin, footerY - 2, { width: inner, align: 'center' });
}

/** Dark modules as one path of row runs on the white page, with the standard's quiet zone of four modules kept clear. */
function drawQr(doc: PDFKit.PDFDocument, qr: QrMatrix, x: number, y: number, size: number): void {
  const cell = size / qr.size;
  for (let row = 0; row < qr.size; row += 1) {
    let col = 0;
    while (col < qr.size) {
      if (!qr.dark(col, row)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < qr.size && qr.dark(col, row)) col += 1;
      doc.rect(x + start * cell, y + row * cell, (col - start) * cell, cell);
    }
  }
  doc.fill('#000000');
}
