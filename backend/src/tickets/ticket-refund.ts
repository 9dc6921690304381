import { type Order, OrderRepository } from '../orders/orders.port.js';
import { queueTicketNotices } from './ticket-notice.jobs.js';
import type { Transaction } from '../store/store.port.js';
import { type StoredTicket, TicketRepository } from './tickets.port.js';

/**
 * rules "Refunds": a refund of this very ticket's price. Run in the refund's transition
 * (`OrderService.refundedBySite`'s `coverPartial`): the ticket is marked refunded (revoked)
 * and its line's unit refunded first, so the partial refund covers it and no other ticket
 * of the order, and WooCommerce's refund puts that unit back in stock.
 */
export function coversTicket(
  ticket: Pick<StoredTicket, 'id' | 'orderId' | 'linePosition'>,
  notice?: { refundReference: string; amount: number },
) {
  return async (tx: Transaction, order: Order): Promise<void> => {
    const now = Date.now();
    const stored = await tx.get(TicketRepository).find(ticket.id);
    await tx.get(TicketRepository).markRefunded([ticket.id], now);
    await tx
      .get(OrderRepository)
      .addRefundedUnits(ticket.orderId, [{ position: ticket.linePosition, quantity: 1 }]);
    // rules "When a ticket stops admitting": the organizer cancelled this ticket; its buyer
    // and holder are told (a return's refund has its own mail and passes no notice).
    if (notice && stored?.status === 'valid') {
      await queueTicketNotices(
        tx,
        {
          orderId: ticket.orderId,
          kind: 'partlyRefunded',
          key: notice.refundReference,
          refunded: (order.context.refundedAmount ?? 0) + notice.amount,
        },
        [stored],
        now,
      );
    }
  };
}
