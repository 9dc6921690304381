import { Inject, Injectable, Logger } from '@nestjs/common';
import { metaValue, type Ticket } from '@awhh/machines';
import { CatalogService } from '../../catalog/catalog.service.js';
import { apiError } from '../../common/api-error.js';
import { AppConfig } from '../../config/config.js';
import { TicketService, ticketFilename } from '../ticket.service.js';
import { buildApplePass, type VenueLocation } from './apple-pass.js';
import { googleSaveUrl } from './google-wallet.js';

export const APPLE_WALLET_OFF_MESSAGE = 'Apple Wallet ist für diese Seite nicht eingerichtet.';
export const GOOGLE_WALLET_OFF_MESSAGE = 'Google Wallet ist für diese Seite nicht eingerichtet.';
/** rules "Wallet passes": a revoked ticket goes into no wallet. */
export const WALLET_REVOKED_MESSAGE =
  'Dieses Ticket wurde storniert und gilt nicht mehr für den Einlass. Es lässt sich nicht mehr zur Wallet hinzufügen.';

/** What the ticket page and the mail may offer. */
export interface WalletOptions {
  apple: boolean;
  google: boolean;
}

/**
 * Coordinates of the venue, when the event's product carries them: FooEvents' map field
 * (`WooCommerceEventsGoogleMaps`) or a `coordinates` meta key as "53.5442, 9.9658", or
 * `latitude` and `longitude` keys.
 */
export function venueLocationOf(product: Parameters<typeof metaValue>[0]): VenueLocation | null {
  const number = (value: unknown) =>
    typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')
      ? Number(value)
      : Number.NaN;
  const valid = (latitude: number, longitude: number) =>
    Number.isFinite(latitude) &&
    Number.isFinite(longitude) &&
    Math.abs(latitude) <= 90 &&
    Math.abs(longitude) <= 180 &&
    !(latitude === 0 && longitude === 0)
      ? { latitude, longitude }
      : null;
  for (const key of ['WooCommerceEventsGoogleMaps', 'coordinates']) {
    const value = metaValue(product, key);
    const match =
      typeof value === 'string'
        ? /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(value)
        : null;
    const found = match ? valid(Number(match[1]), Number(match[2])) : null;
    if (found) return found;
  }
  return valid(number(metaValue(product, 'latitude')), number(metaValue(product, 'longitude')));
}

/** rules "Wallet passes": a valid ticket as an Apple Wallet pass or a Google Wallet link. */
@Injectable()
export class WalletService {
  private readonly logger = new Logger(WalletService.name);

  constructor(
    @Inject(TicketService) private readonly tickets: TicketService,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  options(): WalletOptions {
    return {
      apple: Boolean(this.config.wallet?.apple),
      google: Boolean(this.config.wallet?.google),
    };
  }

  async applePass(token: string): Promise<{ pass: Buffer; filename: string }> {
    const apple = this.config.wallet?.apple;
    if (!apple) throw apiError(404, APPLE_WALLET_OFF_MESSAGE);
    const ticket = await this.validTicket(token);
    const pass = buildApplePass(apple, {
      ticket,
      ticketUrl: this.ticketUrl(token),
      location: await this.location(ticket),
    });
    return { pass, filename: ticketFilename(ticket).replace(/\.pdf$/, '.pkpass') };
  }

  async googleUrl(token: string): Promise<{ url: string }> {
    const google = this.config.wallet?.google;
    if (!google) throw apiError(404, GOOGLE_WALLET_OFF_MESSAGE);
    const ticket = await this.validTicket(token);
    const url = await googleSaveUrl(google, {
      ticket,
      ticketUrl: this.ticketUrl(token),
      origin: new URL(this.config.publicUrl).origin,
      location: await this.location(ticket),
    });
    return { url };
  }

  /** The same answers as the ticket's page and PDF for a token that leads nowhere. */
  private async validTicket(token: string): Promise<Ticket> {
    const { ticket } = await this.tickets.byToken(token);
    if (ticket.status !== 'valid') throw apiError(410, WALLET_REVOKED_MESSAGE);
    return ticket;
  }

  private ticketUrl(token: string): string {
    return `${this.config.publicUrl}/tickets/${token}`;
  }

  /** A shop that cannot be asked right now costs the pass its location, not the pass. */
  private async location(ticket: Ticket): Promise<VenueLocation | null> {
    try {
      const product = await this.catalog.productById(ticket.eventId);
      return product ? venueLocationOf(product) : null;
    } catch (err) {
      this.logger.warn(`no venue location for event ${ticket.eventId}: ${String(err)}`);
      return null;
    }
  }
}
