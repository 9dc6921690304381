import { formatLongDate, formatTicketCode, formatTime, type Ticket } from '@awhh/machines';
import { PKPass } from 'passkit-generator';
import type { AppleWalletConfig } from '../../config/config.js';
import { SITE_NAME } from '../../site/html-head.js';
import { WALLET_IMAGES } from './wallet-images.js';

// rules "Wallet passes": the ticket as an Apple Wallet event ticket. The screens' dark look
// (frontend/src/styles/tokens.css): the night blue as the background, the text in its warm
// white and the labels in the site's gold.
const COLORS = {
  background: 'rgb(11, 15, 26)',
  foreground: 'rgb(243, 239, 230)',
  label: 'rgb(216, 184, 120)',
};

/** The lock screen offers the pass from this long before the start (and near the venue). */
export const RELEVANT_HOURS_BEFORE = 3;

/** Where the venue is, when the catalog knows it (rules "Wallet passes"). */
export interface VenueLocation {
  latitude: number;
  longitude: number;
}

export interface ApplePassInput {
  ticket: Ticket;
  /** The ticket's page, on the back of the pass. */
  ticketUrl: string;
  location: VenueLocation | null;
}

interface PassField {
  key: string;
  label?: string;
  value: string;
}

/** pass.json of one ticket: the fields Wallet shows, its QR code and when it matters. */
export function applePassJson(config: AppleWalletConfig, input: ApplePassInput) {
  const { ticket, ticketUrl, location } = input;
  const date = formatLongDate(ticket.startsAt);
  const time = formatTime(ticket.startsAt);
  const code = ticket.code ? formatTicketCode(ticket.code) : null;
  const start = ticket.startsAt ? new Date(ticket.startsAt) : null;
  const seat = `${ticket.tier ?? 'Eintritt'}${ticket.guestList ? ' · Gästeliste' : ''}`;
  const field = (key: string, label: string, value: string | null): PassField[] =>
    value ? [{ key, label, value }] : [];

  return {
    formatVersion: 1,
    passTypeIdentifier: config.passTypeId,
    teamIdentifier: config.teamId,
    organizationName: SITE_NAME,
    description: `Ticket: ${ticket.eventName}`,
    // One pass per ticket: adding it again replaces it rather than adding a second one.
    serialNumber: ticket.id,
    backgroundColor: COLORS.background,
    foregroundColor: COLORS.foreground,
    labelColor: COLORS.label,
    sharingProhibited: true,
    // The same QR payload as the PDF and the ticket page: the signed token (rules "Tickets
    // and the door"); the short code below it for when the camera fails.
    barcodes: [
      {
        format: 'PKBarcodeFormatQR',
        message: ticket.token,
        messageEncoding: 'iso-8859-1',
        ...(code ? { altText: code } : {}),
      },
    ],
    ...(start && !Number.isNaN(start.getTime())
      ? {
          relevantDate: new Date(start.getTime() - RELEVANT_HOURS_BEFORE * 3_600_000).toISOString(),
        }
      : {}),
    ...(location
      ? {
          locations: [
            {
              latitude: location.latitude,
              longitude: location.longitude,
              ...(ticket.venue ? { relevantText: `${ticket.eventName} – ${ticket.venue}` } : {}),
            },
          ],
        }
      : {}),
    eventTicket: {
      headerFields: field('time', 'Beginn', time),
      primaryFields: [{ key: 'event', label: 'Event', value: ticket.eventName }],
      secondaryFields: [...field('date', 'Datum', date), ...field('venue', 'Ort', ticket.venue)],
      auxiliaryFields: [
        { key: 'tier', label: 'Ticket', value: `${seat} · ${ticket.seat} von ${ticket.seats}` },
        ...field('holder', 'Name', ticket.holder),
        ...field('code', 'Ticket-Code', code),
      ],
      backFields: [
        ...field('when', 'Wann', date && time ? `${date}, ${time}` : null),
        ...field('where', 'Wo', ticket.venue),
        ...field('order', 'Bestellnummer', ticket.orderNumber),
        { key: 'page', label: 'Dein Ticket online', value: ticketUrl },
        {
          key: 'door',
          label: 'Am Einlass',
          value: 'QR-Code zeigen oder Ticket-Code nennen.',
        },
      ],
    },
  };
}

/** The signed `.pkpass` archive: pass.json, the images, manifest.json and its signature. */
export function buildApplePass(config: AppleWalletConfig, input: ApplePassInput): Buffer {
  const files: Record<string, Buffer> = {
    'pass.json': Buffer.from(JSON.stringify(applePassJson(config, input))),
  };
  for (const [name, base64] of Object.entries(WALLET_IMAGES)) {
    files[name] = Buffer.from(base64, 'base64');
  }
  const pass = new PKPass(files, {
    wwdr: config.wwdrCertificate,
    signerCert: config.certificate,
    signerKey: config.privateKey,
  });
  return pass.getAsBuffer();
}
