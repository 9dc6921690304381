import { Inject, Injectable, Logger } from '@nestjs/common';
import { CalendarService } from '../../calendar/calendar.service.js';
import { absoluteUrl } from '../../site/html-head.js';
import { AppConfig } from '../../config/config.js';
import { type MailAttachment } from '../../mail/mail.port.js';
import { OrderRepository } from '../../orders/orders.port.js';
import { TicketOrders } from '../ticket-orders.js';
import { TicketRepository } from '../tickets.port.js';
import { type PdfTicket, renderTicketsPdf } from '../ticket-pdf.js';
import { ticketFilename, TicketService } from '../ticket.service.js';
import { MailPort, type OutgoingMail } from '../../mail/mail.port.js';
import {
  type MailTicket,
  renderTicketMail,
  type TicketMailContent,
} from './ticket-mail.templates.js';

export type MailOutcome = 'sent' | 'no-address' | 'no-tickets' | 'refunded';

/**
 * The ticket mail (rules "E-mail"): German HTML and text, the order summary, one PDF per
 * ticket, one .ics per event and the ticket pages' links. The outbox calls it once per
 * paid order and for a resend; a throw leaves the job to be retried.
 */
@Injectable()
export class TicketMailService {
  private readonly logger = new Logger('Mail');

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(OrderRepository) private readonly orders: OrderRepository,
    @Inject(TicketOrders) private readonly ticketOrders: TicketOrders,
    @Inject(TicketRepository) private readonly ticketStore: TicketRepository,
    @Inject(TicketService) private readonly tickets: TicketService,
    @Inject(CalendarService) private readonly calendar: CalendarService,
    @Inject(MailPort) private readonly mail: MailPort,
  ) {}

  /** The paid order's confirmation with its tickets. */
  async sendOrderMail(orderId: string): Promise<MailOutcome> {
    const order = await this.orders.find({ id: orderId });
    if (!order) return this.sendElsewhereMail(orderId);
    const to = order.context.email;
    if (!to) return 'no-address';
    // Refunded before its mail went out: a confirmation would announce a void purchase.
    if (order.status === 'refunded') return 'refunded';
    const orderNumber = order.context.catalogOrderId;
    const tickets = (await this.tickets.forOrder(order.id, orderNumber)).filter(
      (t) => t.ticket.status === 'valid',
    );
    const lines = await this.orders.lines(order.id);
    await this.send(`order-${order.id}`, to, tickets, {
      kind: 'order',
      buyerName: order.context.buyerName,
      orderNumber,
      summary: {
        lines: lines.map((l) => ({ name: l.name, quantity: l.quantity, unitAmount: l.unitAmount })),
        subtotal: order.context.subtotal,
        discount: order.context.discount,
        total: order.context.total,
        couponCode: order.couponEntered ?? order.couponCode,
      },
    });
    this.logger.log({ msg: 'ticket mail sent', orderId: order.id, tickets: tickets.length });
    return 'sent';
  }

  /**
   * rules "Orders made in the shop": the tickets of an order sold elsewhere, to its billing
   * address. The shop sends its own order confirmation, so no summary; a guest list is
   * greeted as one. Nothing once its tickets were revoked before the mail went out.
   */
  private async sendElsewhereMail(orderId: string): Promise<MailOutcome> {
    const order = await this.ticketOrders.find(orderId);
    if (!order) throw new Error(`order ${orderId} not found`);
    if (!order.email) return 'no-address';
    const tickets = (await this.tickets.forOrder(orderId, order.orderNumber)).filter(
      (t) => t.ticket.status === 'valid',
    );
    if (tickets.length === 0) return 'no-tickets';
    await this.send(`order-${orderId}`, order.email, tickets, {
      kind: 'order',
      buyerName: order.buyerName,
      orderNumber: order.orderNumber,
      summary: null,
      guestList: tickets.every((t) => t.ticket.guestList === true),
    });
    this.logger.log({ msg: 'ticket mail sent', orderId, tickets: tickets.length });
    return 'sent';
  }

  /**
   * POST /api/tickets/resend: every valid ticket bought with the address of this order
   * (rules "Tickets and the door"), in one mail: on the site and in the shop (rules
   * "Orders made in the shop").
   */
  async sendResend(orderId: string): Promise<MailOutcome> {
    const order = await this.ticketOrders.find(orderId);
    if (!order) throw new Error(`order ${orderId} not found`);
    const to = order.email;
    if (!to) return 'no-address';
    const stored = [
      ...(await this.ticketStore.validForEmail(to)),
      ...(await this.ticketStore.validForOrders(await this.ticketOrders.elsewhereOf(to))),
    ];
    if (stored.length === 0) return 'no-tickets';
    const numbers = new Map<string, string | null>();
    for (const id of new Set(stored.map((t) => t.orderId))) {
      numbers.set(id, (await this.ticketOrders.find(id))?.orderNumber ?? null);
    }
    const tickets = await this.tickets.withTokens(stored, (t) => numbers.get(t.orderId) ?? null);
    await this.send(`resend-${orderId}-${Date.now()}`, to, tickets, {
      kind: 'resend',
      buyerName: order.buyerName,
      orderNumber: null,
      summary: null,
    });
    this.logger.log({ msg: 'tickets sent again', orderId, tickets: tickets.length });
    return 'sent';
  }

  /** One mail with these tickets (their PDFs and calendar files); also a transfer's. */
  async send(
    id: string,
    to: string,
    tickets: readonly PdfTicket[],
    content: Omit<TicketMailContent, 'tickets' | 'publicUrl'>,
  ): Promise<void> {
    const rendered = renderTicketMail({
      ...content,
      tickets: tickets.map(({ ticket }): MailTicket => ({
        eventName: ticket.eventName,
        tier: ticket.tier,
        seat: ticket.seat,
        seats: ticket.seats,
        startsAt: ticket.startsAt,
        venue: ticket.venue,
        url: this.ticketUrl(ticket.token),
        code: ticket.code,
        guestList: ticket.guestList,
        wallet: this.walletLinks(ticket.token),
      })),
      publicUrl: this.config.publicUrl,
    });
    const mail: OutgoingMail = {
      id,
      to,
      ...rendered,
      attachments: [...(await this.pdfs(tickets)), ...this.calendars(tickets)],
    };
    await this.mail.send(mail);
  }

  /** One PDF per ticket, so each guest can be forwarded their own. */
  private async pdfs(tickets: readonly PdfTicket[]): Promise<MailAttachment[]> {
    const attachments: MailAttachment[] = [];
    for (const t of tickets) {
      attachments.push({
        filename: ticketFilename(t.ticket),
        contentType: 'application/pdf',
        content: await renderTicketsPdf([t]),
      });
    }
    return attachments;
  }

  /** One calendar file per event, built from the ticket's record of the event. */
  private calendars(tickets: readonly PdfTicket[]): MailAttachment[] {
    const byEvent = new Map<number, PdfTicket['ticket']>();
    for (const { ticket } of tickets)
      if (!byEvent.has(ticket.eventId)) byEvent.set(ticket.eventId, ticket);
    const attachments: MailAttachment[] = [];
    for (const ticket of byEvent.values()) {
      const ics = this.calendar.eventCalendar({
        id: ticket.eventId,
        slug: ticket.eventSlug ?? String(ticket.eventId),
        name: ticket.eventName,
        startsAt: ticket.startsAt,
        venue: ticket.venue,
        descriptionHtml: '',
        shortDescription: `Dein Ticket: ${this.ticketUrl(ticket.token)}`,
      });
      if (!ics) continue;
      attachments.push({
        filename: `${(ticket.eventSlug ?? `event-${ticket.eventId}`).replace(/[^\w-]+/g, '-').slice(0, 60)}.ics`,
        contentType: 'text/calendar; charset=utf-8',
        content: Buffer.from(ics, 'utf8'),
      });
    }
    return attachments;
  }

  /** rules "Wallet passes": the pass and the save link, each where that wallet is set up. */
  private walletLinks(token: string): MailTicket['wallet'] {
    const { apple, google } = this.config.wallet ?? { apple: null, google: null };
    const base = `/api/tickets/${encodeURIComponent(token)}/wallet`;
    return {
      apple: apple ? absoluteUrl(this.config.publicUrl, `${base}/apple`) : null,
      google: google ? absoluteUrl(this.config.publicUrl, `${base}/google/save`) : null,
    };
  }

  private ticketUrl(token: string): string {
    return absoluteUrl(this.config.publicUrl, `/tickets/${token}`);
  }
}
