import { OrderRepository } from '../orders/orders.port.js';
import type { Transaction } from '../store/store.port.js';
import { type StoredTicket, TicketRepository } from './tickets.port.js';

/**
 * rules "Refunds": a refund of this very ticket's price. Run in the refund's transition
 * (`OrderService.refundedBySite`'s `coverPartial`): the ticket is marked refunded (revoked)
 * and its line's unit refunded first, so the partial refund covers it and no other ticket
 * of the order, and WooCommerce's refund puts that unit back in stock.
 */
export function coversTicket(ticket: Pick<StoredTicket, 'id' | 'orderId' | 'linePosition'>) {
  return async (tx: Transaction): Promise<void> => {
    await tx.get(TicketRepository).markRefunded([ticket.id], Date.now());
    await tx
      .get(OrderRepository)
      .addRefundedUnits(ticket.orderId, [{ position: ticket.linePosition, quantity: 1 }]);
  };
}
