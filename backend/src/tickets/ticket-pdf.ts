import { existsSync, readFileSync } from 'node:fs';
import { formatLongDate, formatTime, type Ticket } from '@awhh/machines';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { SITE_NAME } from '../site/html-head.js';

// The site's look (frontend tokens): near-black ground, gold accent, light text.
const COLORS = {
  ground: '#0f0f10',
  card: '#1a1a1c',
  gold: '#c9a227',
  text: '#f2efe8',
  muted: '#a8a39a',
};

// DejaVu carries every glyph German copy needs; where it is not installed (a slim image),
// PDFKit's built-in Helvetica with WinAnsi still covers umlauts, ß, € and „“.
const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const DEJAVU_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
let fonts: { regular: string | Buffer; bold: string | Buffer } | null = null;

/** Read once per process: every PDF embeds the same font files. */
function pdfFonts() {
  fonts ??=
    existsSync(DEJAVU) && existsSync(DEJAVU_BOLD)
      ? { regular: readFileSync(DEJAVU), bold: readFileSync(DEJAVU_BOLD) }
      : { regular: 'Helvetica', bold: 'Helvetica-Bold' };
  return fonts;
}

/** A6 portrait in points: one ticket fits a phone screen and a printed page alike. */
const PAGE = { width: 297.64, height: 419.53, margin: 22 };
const QR_SIZE = 150;

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
  const { regular, bold } = pdfFonts();
  doc.registerFont('regular', regular as string);
  doc.registerFont('bold', bold as string);
  tickets.forEach((t) => page(doc, t));
  doc.end();
  return done;
}

function page(doc: PDFKit.PDFDocument, { ticket, orderNumber }: PdfTicket) {
  doc.addPage();
  const { width, height, margin } = PAGE;
  const inner = width - 2 * margin;
  doc.rect(0, 0, width, height).fill(COLORS.ground);
  doc.rect(0, 0, width, 6).fill(COLORS.gold);

  doc.font('bold').fontSize(9).fillColor(COLORS.gold);
  doc.text(SITE_NAME.toUpperCase(), margin, 20, { width: inner, characterSpacing: 2 });
  doc.font('bold').fontSize(17).fillColor(COLORS.text);
  doc.text(ticket.eventName, margin, 38, { width: inner, height: 46, ellipsis: true });

  let y = 90;
  const row = (label: string, value: string | null) => {
    if (!value) return;
    doc.font('regular').fontSize(7).fillColor(COLORS.muted).text(label.toUpperCase(), margin, y);
    doc.font('bold').fontSize(10).fillColor(COLORS.text);
    doc.text(value, margin, y + 9, { width: inner, height: 13, ellipsis: true });
    y += 26;
  };
  const date = formatLongDate(ticket.startsAt);
  row('Datum', date ? `${date}, ${formatTime(ticket.startsAt)}` : null);
  row('Ort', ticket.venue ? `${ticket.venue}, Hamburg` : null);
  row('Ticket', `${ticket.tier ?? 'Eintritt'} · ${ticket.seat} von ${ticket.seats}`);
  row('Name', ticket.holder);

  const qrTop = Math.max(y + 6, height - margin - QR_SIZE - 34);
  if (ticket.status === 'valid') {
    drawQr(doc, ticketQr(ticket.token), (width - QR_SIZE) / 2, qrTop);
  } else {
    // rules "Tickets and the door": a revoked ticket shows no code.
    doc.font('bold').fontSize(26).fillColor('#e05a4f');
    doc.text('Storniert', margin, qrTop + QR_SIZE / 2 - 16, { width: inner, align: 'center' });
  }

  doc.font('regular').fontSize(7).fillColor(COLORS.muted);
  const footer = [orderNumber ? `Bestellnummer ${orderNumber}` : null, `Ticket ${ticket.id}`]
    .filter(Boolean)
    .join(' · ');
  doc.text(footer, margin, height - margin - 10, { width: inner, align: 'center' });
}

/** White ground with a quiet zone of four modules (the QR standard's), dark modules as one path of row runs. */
function drawQr(doc: PDFKit.PDFDocument, qr: QrMatrix, x: number, y: number): void {
  const cell = QR_SIZE / qr.size;
  const quiet = 4 * cell;
  doc.rect(x - quiet, y - quiet, QR_SIZE + 2 * quiet, QR_SIZE + 2 * quiet).fill('#ffffff');
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
