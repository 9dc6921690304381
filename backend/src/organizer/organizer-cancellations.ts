import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  type AttendeeCancelAnswer,
  attendeeCancelSchema,
  fromCents,
  toSessionStatus,
} from '@awhh/machines';
import { apiError } from '../common/api-error.js';
import { parseBody } from '../common/validation.js';
import { OrderService } from '../orders/order.service.js';
import { OrderRepository } from '../orders/orders.port.js';
import { PaymentsPort } from '../orders/payments/payments.port.js';
import { ticketRefundPrice } from '../tickets/refunded-tickets.js';
import { coversTicket } from '../tickets/ticket-refund.js';
import { TicketRepository } from '../tickets/tickets.port.js';
import { GUEST_NOT_FOUND_MESSAGE, ticketIdOf } from './organizer-guests.js';

export const CANCEL_SHOP_ORDER_MESSAGE =
  'Diese Bestellung wurde im Shop angelegt. Bitte storniere sie dort in WooCommerce.';
export const CANCEL_NOT_PAID_MESSAGE =
  'Diese Bestellung ist nicht (mehr) bezahlt; hier lässt sich nichts erstatten.';
export const CANCEL_DISPUTED_MESSAGE =
  'Über diese Zahlung entscheidet gerade die Bank des Käufers (Zahlungsstreit). Bitte warte ihre Entscheidung ab.';
export const CANCEL_FREE_MESSAGE =
  'Dieses Ticket hat nichts gekostet; es gibt nichts zu erstatten.';
export const CANCEL_REVOKED_MESSAGE = 'Dieses Ticket ist bereits storniert.';
export const CANCEL_OTHER_PROVIDER_MESSAGE =
  'Diese Bestellung wurde über einen anderen Zahlungsanbieter bezahlt. Bitte erstatte sie dort.';
export const CANCEL_PROVIDER_FAILED_MESSAGE =
  'Der Zahlungsanbieter hat die Erstattung nicht angenommen. Es wurde nichts storniert; bitte versuche es später noch einmal.';
const EVENT_NOT_FOUND_MESSAGE = 'Dieses Event gibt es nicht.';

/**
 * rules "The organizer": cancelling from the guest list. One ticket is a partial refund of
 * its order (the ticket's price after the coupon, as rules "Refunds" weigh it), a whole
 * order the rest of its payment. The money goes back at the payment provider first (keyed,
 * so a repeated request refunds nothing twice); then the refund is recorded as the
 * provider's report of it would be, through the order's machine: the ticket chosen (or
 * every ticket) is revoked, WooCommerce gets its refund with the places back in stock, and
 * a whole order frees its held places at once, so the waiting list moves up.
 */
@Injectable()
export class OrganizerCancellations {
  private readonly logger = new Logger('Organizer');

  constructor(
    @Inject(TicketRepository) private readonly tickets: TicketRepository,
    @Inject(OrderRepository) private readonly orders: OrderRepository,
    @Inject(OrderService) private readonly orderService: OrderService,
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
  ) {}

  async cancel(
    idParam: string,
    ticketIdParam: string,
    body: unknown,
  ): Promise<AttendeeCancelAnswer> {
    if (!/^\d{1,10}$/.test(idParam)) throw apiError(404, EVENT_NOT_FOUND_MESSAGE);
    const eventId = Number(idParam);
    const ticketId = ticketIdOf(ticketIdParam);
    const { scope } = parseBody(attendeeCancelSchema, body);

    const ticket = await this.tickets.find(ticketId);
    if (!ticket || ticket.eventId !== eventId) throw apiError(404, GUEST_NOT_FOUND_MESSAGE);
    const order = await this.orders.find({ id: ticket.orderId });
    if (!order) throw apiError(409, CANCEL_SHOP_ORDER_MESSAGE);
    if (order.status === 'disputed') throw apiError(409, CANCEL_DISPUTED_MESSAGE);
    const reference = order.context.paymentReference;
    if (toSessionStatus(order.status) !== 'paid') throw apiError(409, CANCEL_NOT_PAID_MESSAGE);
    if (order.context.total === 0 || !reference) throw apiError(409, CANCEL_FREE_MESSAGE);
    if (order.provider !== this.payments.name) throw apiError(409, CANCEL_OTHER_PROVIDER_MESSAGE);
    const refundedBefore = order.context.refundedAmount ?? 0;

    let amount: number;
    let key: string;
    if (scope === 'ticket') {
      if (ticket.status !== 'valid') throw apiError(409, CANCEL_REVOKED_MESSAGE);
      const price = ticketRefundPrice({
        lines: await this.orders.lines(order.id),
        orderDiscount: order.context.discount,
        tickets: await this.tickets.refundable(order.id),
        ticketId,
      });
      if (!price || price <= 0) throw apiError(409, CANCEL_FREE_MESSAGE);
      // What is left of the payment caps it (an earlier refund of part of the order).
      amount = Math.min(price, order.context.total - refundedBefore);
      key = `organizer-ticket-${ticketId}`;
    } else {
      amount = order.context.total - refundedBefore;
      key = `organizer-order-${order.id}-${refundedBefore}`;
    }
    if (amount <= 0) throw apiError(409, CANCEL_NOT_PAID_MESSAGE);

    const before = new Set(
      (await this.tickets.forOrder(order.id)).filter((t) => t.status === 'valid').map((t) => t.id),
    );
    let refund: { id: string };
    try {
      refund = await this.payments.refund(reference, amount, key);
    } catch (err) {
      this.logger.warn({ msg: 'refund refused', orderId: order.id, error: String(err) });
      throw apiError(502, CANCEL_PROVIDER_FAILED_MESSAGE);
    }
    await this.orderService.refundedBySite(
      order.id,
      { refundReference: refund.id, amount },
      // This very ticket's price went back: rules "Refunds" count it first.
      scope === 'ticket' ? coversTicket(ticket, { refundReference: refund.id, amount }) : undefined,
    );
    const after = await this.tickets.forOrder(order.id);
    const revoked = after.filter((t) => before.has(t.id) && t.status !== 'valid').map((t) => t.id);
    this.logger.log({
      msg: 'cancelled from the guest list',
      orderId: order.id,
      scope,
      amount,
      tickets: revoked.length,
    });
    return { refunded: fromCents(amount), revoked };
  }
}
