import { Inject, Injectable } from '@nestjs/common';
import type { Ticket, TicketLink } from '@awhh/machines';
import { apiError } from '../common/api-error.js';
import { type StoredTicket, TicketRepository } from './tickets.port.js';
import { TicketOrders } from './ticket-orders.js';
import { type PdfTicket, renderTicketsPdf } from './ticket-pdf.js';
import { TicketSigner } from './ticket-signer.js';

/** One message for every token that does not lead to a ticket: nothing to enumerate. */
export const TICKET_NOT_FOUND_MESSAGE =
  'Dieses Ticket kennen wir nicht. Bitte prüfe den Link aus deiner Bestätigungsmail.';

/** Tickets as the buyer and the door see them (rules "Tickets and the door"). */
@Injectable()
export class TicketService {
  constructor(
    @Inject(TicketRepository) private readonly tickets: TicketRepository,
    @Inject(TicketOrders) private readonly orders: TicketOrders,
    @Inject(TicketSigner) private readonly signer: TicketSigner,
  ) {}

  /** GET /api/tickets/:token: the signature is checked before the store is asked. */
  async byToken(token: string): Promise<PdfTicket> {
    const claims = await this.signer.verify(token);
    const stored = claims ? await this.tickets.find(claims.t) : undefined;
    if (!claims || !stored || stored.eventId !== claims.e || stored.seat !== claims.s) {
      throw apiError(404, TICKET_NOT_FOUND_MESSAGE);
    }
    const orderNumber = (await this.orders.find(stored.orderId))?.orderNumber ?? null;
    return { ticket: { ...view(stored), token, orderNumber }, orderNumber };
  }

  async pdf(token: string): Promise<{ pdf: Buffer; filename: string }> {
    const found = await this.byToken(token);
    return { pdf: await renderTicketsPdf([found]), filename: ticketFilename(found.ticket) };
  }

  /** The order's tickets with their tokens, in line and seat order. */
  async forOrder(orderId: string, orderNumber: string | null): Promise<PdfTicket[]> {
    return this.withTokens(await this.tickets.forOrder(orderId), () => orderNumber);
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

  /** What the success page lists once the order is paid. */
  async links(orderId: string): Promise<TicketLink[]> {
    const stored = await this.tickets.forOrder(orderId);
    return Promise.all(
      stored.map(async (t) => {
        const { token, status, eventName, tier, seat, seats } = await this.signed(t, null);
        return { token, status, eventName, tier, seat, seats };
      }),
    );
  }

  private async signed(t: StoredTicket, orderNumber: string | null): Promise<Ticket> {
    const token = await this.signer.sign({ t: t.id, e: t.eventId, s: t.seat });
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
