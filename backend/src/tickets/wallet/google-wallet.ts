import { berlinIso, formatTicketCode, type Ticket } from '@awhh/machines';
import { SignJWT } from 'jose';
import type { GoogleWalletConfig } from '../../config/config.js';
import { SITE_NAME } from '../../site/html-head.js';
import type { VenueLocation } from './apple-pass.js';

/** Google's save link: the signed JWT is the whole pass, nothing is stored at Google first. */
export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';

/** The site's night blue (frontend/src/styles/tokens.css), as on the Apple pass. */
const BACKGROUND = '#0b0f1a';

export interface GoogleSaveInput {
  ticket: Ticket;
  ticketUrl: string;
  /** The site's origin: Google shows the save button only on pages from these origins. */
  origin: string;
  location: VenueLocation | null;
  now?: Date;
}

/** Ids are `<issuer>.<suffix>`; the suffix allows letters, digits, '.', '_' and '-'. */
function walletId(issuerId: string, suffix: string): string {
  return `${issuerId}.${suffix.replace(/[^\w.-]/g, '_')}`;
}

const german = (value: string) => ({ defaultValue: { language: 'de-DE', value } });

/**
 * rules "Wallet passes": one event ticket class per event (name, venue, start) and one
 * object per ticket carrying the same QR payload as the PDF, the signed token.
 */
export function googleWalletPayload(config: GoogleWalletConfig, input: GoogleSaveInput) {
  const { ticket, ticketUrl, location } = input;
  const classId = walletId(config.issuerId, `awhh-event-${ticket.eventId}`);
  const start = ticket.startsAt ? new Date(ticket.startsAt) : null;
  const code = ticket.code ? formatTicketCode(ticket.code) : null;
  const seat = `${ticket.tier ?? 'Eintritt'}${ticket.guestList ? ' · Gästeliste' : ''}`;
  return {
    eventTicketClasses: [
      {
        id: classId,
        issuerName: SITE_NAME,
        eventName: german(ticket.eventName),
        reviewStatus: 'UNDER_REVIEW',
        hexBackgroundColor: BACKGROUND,
        ...(ticket.venue
          ? { venue: { name: german(ticket.venue), address: german(`${ticket.venue}, Hamburg`) } }
          : {}),
        ...(start && !Number.isNaN(start.getTime())
          ? { dateTime: { start: berlinIso(start) } }
          : {}),
        ...(location ? { locations: [location] } : {}),
      },
    ],
    eventTicketObjects: [
      {
        id: walletId(config.issuerId, `awhh-ticket-${ticket.id}`),
        classId,
        state: 'ACTIVE',
        hexBackgroundColor: BACKGROUND,
        barcode: {
          type: 'QR_CODE',
          value: ticket.token,
          ...(code ? { alternateText: code } : {}),
        },
        ...(ticket.holder ? { ticketHolderName: ticket.holder } : {}),
        ticketType: german(`${seat} · ${ticket.seat} von ${ticket.seats}`),
        ...(code ? { ticketNumber: code } : {}),
        linksModuleData: {
          uris: [{ uri: ticketUrl, description: 'Dein Ticket online', id: 'ticket-page' }],
        },
      },
    ],
  };
}

/** The "Zu Google Wallet hinzufügen" link: an RS256 JWT signed with the service account. */
export async function googleSaveUrl(
  config: GoogleWalletConfig,
  input: GoogleSaveInput,
): Promise<string> {
  const jwt = await new SignJWT({
    typ: 'savetowallet',
    origins: [input.origin],
    payload: googleWalletPayload(config, input),
  })
    .setProtectedHeader({
      alg: 'RS256',
      typ: 'JWT',
      ...(config.keyId ? { kid: config.keyId } : {}),
    })
    .setIssuer(config.clientEmail)
    .setAudience('google')
    .setIssuedAt(input.now ?? new Date())
    .sign(config.privateKey);
  return `${GOOGLE_SAVE_URL}${jwt}`;
}
