import { Inject, Injectable } from '@nestjs/common';
import { formatNumericDate } from '@awhh/machines';
import PDFDocument from 'pdfkit';
import { CheckinRepository, type DoorTicket } from '../door/door.port.js';
import { SITE_NAME } from '../site/html-head.js';
import { pdfFonts } from '../tickets/ticket-pdf.js';
import { OrganizerDashboard } from './organizer-dashboard.js';

/** `?layout=`: sheets of A4 to cut, or one badge per page for a label printer. */
export type BadgeLayout = 'a4' | 'label';

/** One name badge: a valid ticket's holder (rules "The organizer"). */
export interface Badge {
  /** Large on the badge: what the host greets the guest with; empty for a nameless ticket. */
  firstName: string;
  fullName: string;
  company: string | null;
  tier: string;
  /** The tier's place among the event's tiers: picks its band's colour. */
  tierIndex: number;
}

export interface BadgeEvent {
  name: string;
  startsAt: string | null;
}

const PT_PER_MM = 72 / 25.4;
const mm = (value: number) => value * PT_PER_MM;

/** The badge: 90 × 55 mm, the size of a common badge holder and of label-printer rolls. */
export const BADGE_MM = { width: 90, height: 55 } as const;
/** A4 holds 2 × 4 badges, edge to edge, so one cut serves two badges. */
export const SHEET = { columns: 2, rows: 4, widthMm: 210, heightMm: 297 } as const;
export const BADGES_PER_SHEET = SHEET.columns * SHEET.rows;

// Printed, not shown: white ground, the site's near-black and gold as a header strip and
// the brand line; each tier's band is a colour of its own that prints on office lasers.
const COLORS = {
  dark: '#1a1a1c',
  gold: '#c9a227',
  text: '#111111',
  muted: '#555555',
  crop: '#000000',
};
/** Tier bands in the dashboard's tier order: fill and the text on it (contrast ≥ 4.5:1). */
export const TIER_BANDS: readonly { fill: string; text: string }[] = [
  { fill: '#c9a227', text: '#111111' },
  { fill: '#1a1a1c', text: '#e0c463' },
  { fill: '#2f6f6a', text: '#ffffff' },
  { fill: '#8c2f39', text: '#ffffff' },
  { fill: '#3b5b92', text: '#ffffff' },
  { fill: '#5f4b8b', text: '#ffffff' },
];

/** Titles before a name are not what a guest is greeted with. */
const TITLES = /^(dr|prof|dipl|ing|mag|med|rer|nat|phil)\.?$/i;

/** "Dr. Anna von der Heide" → first "Anna", sorted under "Heide". */
export function splitName(fullName: string): { first: string; last: string } {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const named = words.filter((w) => !TITLES.test(w));
  const parts = named.length > 0 ? named : words;
  return { first: parts[0] ?? '', last: parts.length > 1 ? parts.at(-1)! : (parts[0] ?? '') };
}

const collator = new Intl.Collator('de', { sensitivity: 'base', numeric: true });

/**
 * The event's badges: one per valid ticket (a revoked one is nobody's), sorted by last
 * name, then first name, as a host lays them out on the welcome table; nameless tickets
 * last, blank for a pen. `tierOrder` is the dashboard's order of the event's tiers.
 */
export function badgesOf(tickets: readonly DoorTicket[], tierOrder: readonly string[]): Badge[] {
  const tierIndex = new Map<string, number>();
  for (const name of tierOrder) if (!tierIndex.has(name)) tierIndex.set(name, tierIndex.size);
  const rows = tickets
    .filter((t) => t.status === 'valid')
    .map((t) => {
      const fullName = (t.holder ?? '').trim().replace(/\s+/g, ' ');
      const { first, last } = splitName(fullName);
      const tier = t.tier ?? 'Ticket';
      if (!tierIndex.has(tier)) tierIndex.set(tier, tierIndex.size);
      const badge: Badge = {
        firstName: first,
        fullName,
        // rules "Named tickets": the holder's company, when one was given.
        company: t.company?.trim() || null,
        tier,
        tierIndex: tierIndex.get(tier)!,
      };
      return { badge, last, first, id: t.id };
    });
  rows.sort(
    (a, b) =>
      Number(a.badge.fullName === '') - Number(b.badge.fullName === '') ||
      collator.compare(a.last, b.last) ||
      collator.compare(a.first, b.first) ||
      collator.compare(a.badge.fullName, b.badge.fullName) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return rows.map((r) => r.badge);
}

/** The PDF: A4 sheets with crop marks, or one 90 × 55 mm page per badge. */
export async function renderBadgesPdf(
  event: BadgeEvent,
  badges: readonly Badge[],
  layout: BadgeLayout,
): Promise<Buffer> {
  const pageSize: [number, number] =
    layout === 'label'
      ? [mm(BADGE_MM.width), mm(BADGE_MM.height)]
      : [mm(SHEET.widthMm), mm(SHEET.heightMm)];
  const doc = new PDFDocument({
    size: pageSize,
    margin: 0,
    autoFirstPage: false,
    info: {
      Title: `${SITE_NAME} – Namensschilder – ${event.name}`,
      Author: SITE_NAME,
      Creator: SITE_NAME,
    },
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
  const date = formatNumericDate(event.startsAt);

  if (layout === 'label') {
    for (const badge of badges) {
      doc.addPage();
      drawBadge(doc, badge, 0, 0, date);
    }
  } else {
    const gridWidth = mm(BADGE_MM.width * SHEET.columns);
    const gridHeight = mm(BADGE_MM.height * SHEET.rows);
    const left = (pageSize[0] - gridWidth) / 2;
    const top = (pageSize[1] - gridHeight) / 2;
    for (let i = 0; i < badges.length; i += 1) {
      const slot = i % BADGES_PER_SHEET;
      if (slot === 0) {
        doc.addPage();
        cropMarks(doc, left, top, gridWidth, gridHeight);
      }
      const x = left + mm(BADGE_MM.width) * (slot % SHEET.columns);
      const y = top + mm(BADGE_MM.height) * Math.floor(slot / SHEET.columns);
      drawBadge(doc, badges[i]!, x, y, date);
    }
  }
  // An event without valid tickets still gets a file: one page that says so.
  if (badges.length === 0) {
    doc.addPage();
    doc.font('regular').fontSize(10).fillColor(COLORS.muted);
    doc.text('Für dieses Event gibt es keine gültigen Tickets.', mm(8), mm(8), {
      width: pageSize[0] - mm(16),
    });
  }
  doc.end();
  return done;
}

/**
 * Marks in the margin at every cut line (the grid's outer edges and the lines between
 * badges), kept 2 mm clear of the badges so a cut a little off does not show them.
 */
function cropMarks(
  doc: PDFKit.PDFDocument,
  left: number,
  top: number,
  width: number,
  height: number,
): void {
  const gap = mm(2);
  const length = mm(6);
  doc.lineWidth(0.4).strokeColor(COLORS.crop);
  for (let c = 0; c <= SHEET.columns; c += 1) {
    const x = left + mm(BADGE_MM.width) * c;
    doc
      .moveTo(x, top - gap - length)
      .lineTo(x, top - gap)
      .moveTo(x, top + height + gap)
      .lineTo(x, top + height + gap + length);
  }
  for (let r = 0; r <= SHEET.rows; r += 1) {
    const y = top + mm(BADGE_MM.height) * r;
    doc
      .moveTo(left - gap - length, y)
      .lineTo(left - gap, y)
      .moveTo(left + width + gap, y)
      .lineTo(left + width + gap + length, y);
  }
  doc.stroke();
}

/** The largest size up to `max` at which `text` fits `width` in the current font, at least `min`. */
function fittingSize(
  doc: PDFKit.PDFDocument,
  text: string,
  width: number,
  max: number,
  min: number,
): number {
  doc.fontSize(max);
  const at = doc.widthOfString(text);
  return at <= width ? max : Math.max(min, Math.floor((max * width) / at));
}

function drawBadge(
  doc: PDFKit.PDFDocument,
  badge: Badge,
  x: number,
  y: number,
  date: string | null,
): void {
  const width = mm(BADGE_MM.width);
  const height = mm(BADGE_MM.height);
  const pad = mm(5);
  const inner = width - 2 * pad;
  const headerHeight = mm(7);
  const bandHeight = mm(9);

  // Header: the site's dark strip with the brand line in gold, the date at the right.
  doc.rect(x, y, width, headerHeight).fill(COLORS.dark);
  doc.font('bold').fontSize(6.5).fillColor(COLORS.gold);
  doc.text(SITE_NAME.toUpperCase(), x + pad, y + mm(2.4), {
    width: inner * 0.65,
    characterSpacing: 1.2,
    lineBreak: false,
  });
  if (date) {
    doc.font('regular').fontSize(6.5).fillColor('#e8e4da');
    doc.text(date, x + pad, y + mm(2.4), { width: inner, align: 'right', lineBreak: false });
  }

  // The first name large, the full name and company below it.
  const nameTop = y + headerHeight + mm(5);
  if (badge.firstName) {
    doc.font('bold');
    const size = fittingSize(doc, badge.firstName, inner, 30, 14);
    doc.fontSize(size).fillColor(COLORS.text);
    doc.text(badge.firstName, x + pad, nameTop, {
      width: inner,
      height: size * 1.3,
      ellipsis: true,
      lineBreak: false,
    });
    doc.rect(x + pad, nameTop + size * 1.15 + mm(1), mm(10), 1.4).fill(COLORS.gold);
    let lineY = nameTop + size * 1.15 + mm(3);
    doc.font('regular').fontSize(10).fillColor(COLORS.text);
    doc.text(badge.fullName, x + pad, lineY, { width: inner, ellipsis: true, lineBreak: false });
    lineY += mm(4.6);
    if (badge.company) {
      doc.font('regular').fontSize(9).fillColor(COLORS.muted);
      doc.text(badge.company, x + pad, lineY, { width: inner, ellipsis: true, lineBreak: false });
    }
  }

  // The tier as a coloured band along the foot.
  const band = TIER_BANDS[badge.tierIndex % TIER_BANDS.length]!;
  const bandY = y + height - bandHeight;
  doc.rect(x, bandY, width, bandHeight).fill(band.fill);
  doc.font('bold').fontSize(9).fillColor(band.text);
  doc.text(badge.tier.toUpperCase(), x + pad, bandY + mm(3), {
    width: inner,
    characterSpacing: 1,
    ellipsis: true,
    lineBreak: false,
  });
}

/** rules "The organizer": the event's badges as a PDF; null when the event is unknown. */
@Injectable()
export class OrganizerBadges {
  constructor(
    @Inject(OrganizerDashboard) private readonly dashboard: OrganizerDashboard,
    @Inject(CheckinRepository) private readonly checkins: CheckinRepository,
  ) {}

  async pdf(eventId: number, layout: BadgeLayout): Promise<{ pdf: Buffer; count: number } | null> {
    const event = await this.dashboard.event(eventId);
    if (!event) return null;
    const badges = badgesOf(
      await this.checkins.eventTickets(eventId),
      event.tiers.map((t) => t.name),
    );
    return { pdf: await renderBadgesPdf(event, badges, layout), count: badges.length };
  }
}
