import { Inject, Injectable } from '@nestjs/common';
import type { Ticket, TicketLink } from '@awhh/machines';
import { apiError } from '../common/api-error.js';
import { AppConfig } from '../config/config.js';
import { type StoredTicket, TicketRepository } from './tickets.port.js';
import { TicketOrders } from './ticket-orders.js';
import { type PdfTicket, renderTicketsPdf } from './ticket-pdf.js';
import { TicketSigner } from './ticket-signer.js';

/** One message for every token that does not lead to a ticket: nothing to enumerate. */
export const TICKET_NOT_FOUND_MESSAGE =
  'Dieses Ticket kennen wir nicht. Bitte prüfe den Link aus deiner Bestätigungsmail.';

/** rules "Named tickets": a token of a ticket that went to someone else since. */
export const TICKET_PASSED_ON_MESSAGE =
  'Dieses Ticket wurde an eine andere Person weitergegeben. Dieser Link, sein QR-Code und sein Ticket-Code gelten nicht mehr.';

/** Default of TICKET_TRANSFER_UNTIL_HOURS (rules "Named tickets"). */
export const DEFAULT_TRANSFER_UNTIL_HOURS = 2;

/** Tickets as the buyer and the door see them (rules "Tickets and the door"). */
@Injectable()
export class TicketService {
  constructor(
    @Inject(TicketRepository) private readonly tickets: TicketRepository,
    @Inject(TicketOrders) private readonly orders: TicketOrders,
    @Inject(TicketSigner) private readonly signer: TicketSigner,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  /** GET /api/tickets/:token: the signature is checked before the store is asked. */
  async byToken(token: string): Promise<PdfTicket> {
    const stored = await this.storedByToken(token);
    const orderNumber = (await this.orders.find(stored.orderId))?.orderNumber ?? null;
    const transfer = await this.transferWindow(stored);
    return { ticket: { ...view(stored), ...transfer, token, orderNumber }, orderNumber };
  }

  /**
   * The ticket a token names: 404 for anything not signed by the site for a ticket it
   * issued, 410 for an earlier generation's token (rules "Named tickets": passed on).
   */
  async storedByToken(token: string): Promise<StoredTicket> {
    const claims = await this.signer.verify(token);
    const stored = claims ? await this.tickets.find(claims.t) : undefined;
    if (!claims || !stored || stored.eventId !== claims.e || stored.seat !== claims.s) {
      throw apiError(404, TICKET_NOT_FOUND_MESSAGE);
    }
    if ((claims.g ?? 0) !== stored.generation) throw apiError(410, TICKET_PASSED_ON_MESSAGE);
    return stored;
  }

  /** Hours before the start until which a ticket can be passed on. */
  get transferUntilHours(): number {
    return this.config.ticketTransferUntilHours ?? DEFAULT_TRANSFER_UNTIL_HOURS;
  }

  /**
   * rules "Named tickets": a valid ticket not checked in can be passed on until
   * TICKET_TRANSFER_UNTIL_HOURS before its start (an undated event's at any time).
   */
  async transferWindow(
    stored: StoredTicket,
    now = Date.now(),
  ): Promise<{ transferable: boolean; transferUntil: string | null }> {
    const start = stored.startsAt ? Date.parse(stored.startsAt) : Number.NaN;
    const until = Number.isNaN(start) ? null : start - this.transferUntilHours * 3_600_000;
    const open =
      stored.status === 'valid' &&
      (until === null || now < until) &&
      !(await this.tickets.isCheckedIn(stored.id));
    return {
      transferable: open,
      transferUntil: open && until !== null ? new Date(until).toISOString() : null,
    };
  }

  async pdf(token: string): Promise<{ pdf: Buffer; filename: string }> {
    const found = await this.byToken(token);
    return { pdf: await renderTicketsPdf([found]), filename: ticketFilename(found.ticket) };
  }

  /**
   * The order's tickets with their tokens, in line and seat order: those its buyer holds.
   * A ticket passed on is its new holder's (rules "Named tickets"): a confirmation sent
   * late never carries its new token.
   */
  async forOrder(orderId: string, orderNumber: string | null): Promise<PdfTicket[]> {
    const held = (await this.tickets.forOrder(orderId)).filter((t) => t.holderEmail === null);
    return this.withTokens(held, () => orderNumber);
  }

  async withTokens(
    stored: readonly StoredTicket[],
    orderNumberOf: (t: StoredTicket) => string | null,
  ): Promise<PdfTicket[]> {
    return Promise.all(
      stored.map(async (t) => {
        const orderNumber = orderNumberOf(t);
        return { ticket: await this.signed(t, orderNumber), orderNumber };
      }),
    );
  }

  /**
   * What the success page lists once the order is paid. A ticket passed on keeps the
   * buyer's first token there, which now says so (rules "Named tickets": the new token is
   * its new holder's alone).
   */
  async links(orderId: string): Promise<TicketLink[]> {
    const stored = await this.tickets.forOrder(orderId);
    return Promise.all(
      stored.map(async (t) => {
        const passedOn = t.holderEmail !== null;
        const { token, status, eventName, tier, seat, seats, holder, company } = await this.signed(
          passedOn ? { ...t, generation: 0 } : t,
          null,
        );
        return {
          token,
          status,
          eventName,
          tier,
          seat,
          seats,
          holder,
          company,
          ...(passedOn ? { passedOn } : {}),
        };
      }),
    );
  }

  private async signed(t: StoredTicket, orderNumber: string | null): Promise<Ticket> {
    // The first generation's token carries no `g`: tokens issued before transfers existed
    // stay what they were.
    const token = await this.signer.sign({
      t: t.id,
      e: t.eventId,
      s: t.seat,
      ...(t.generation > 0 ? { g: t.generation } : {}),
    });
    return { ...view(t), token, orderNumber };
  }
}

function view(t: StoredTicket): Omit<Ticket, 'token' | 'orderNumber'> {
  return {
    id: t.id,
    status: t.status,
    eventId: t.eventId,
    eventName: t.eventName,
    eventSlug: t.eventSlug,
    startsAt: t.startsAt,
    venue: t.venue,
    tier: t.tier,
    seat: t.seat,
    seats: t.seats,
    holder: t.holder,
    company: t.company,
    guestList: t.guestList,
    // rules "Tickets and the door": a revoked ticket shows no code, the short one neither.
    code: t.status === 'valid' ? t.code : null,
  };
}

/** "ticket-afterwork-im-hafen-2.pdf": ASCII only, safe in a Content-Disposition header. */
export function ticketFilename(ticket: Pick<Ticket, 'eventSlug' | 'eventName' | 'seat'>): string {
  const base = (ticket.eventSlug ?? ticket.eventName)
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()
    .slice(0, 60);
  return `ticket-${base || 'event'}-${ticket.seat}.pdf`;
}
