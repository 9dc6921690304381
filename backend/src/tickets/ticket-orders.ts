import { Inject, Injectable } from '@nestjs/common';
import type { CatalogProduct } from '../catalog/catalog.port.js';
import { type OrderLine, OrderRepository } from '../orders/orders.port.js';
import type { Transaction } from '../store/store.port.js';
import { ticketsFor } from './ticket-issue.js';
import { TicketRepository } from './tickets.port.js';

/** What the tickets of an order need to know of it: its number and whom they are mailed to. */
export interface TicketOrderInfo {
  /** The number the buyer was given (WooCommerce's), or null before the shop has one. */
  orderNumber: string | null;
  email: string | null;
  buyerName: string | null;
}

/**
 * Orders sold outside the site's checkout whose tickets this module keeps (rules "Orders
 * made in the shop"), told by the module that keeps those orders: it registers itself at
 * start-up, so this module imports none of them.
 */
export interface TicketOrderSource {
  /** Undefined: not one of this source's orders. */
  find(orderId: string): Promise<TicketOrderInfo | undefined>;
  /** The source's orders bought with this address (any case), newest first. */
  ordersOf(email: string): Promise<string[]>;
}

/** An order line of such an order, at the position its seats are kept under. */
export type PlacedOrderLine = Pick<OrderLine, 'productId' | 'variationId' | 'quantity'> & {
  position: number;
};

export interface ElsewhereIssue {
  orderId: string;
  holder: string | null;
  guestList: boolean;
  lines: readonly PlacedOrderLine[];
  products: readonly CatalogProduct[];
}

/**
 * The orders tickets belong to: the site's own (the orders module's) and those another
 * module sold (its `TicketOrderSource`). For the latter also what the order machine's
 * effects do for the site's orders: issue, revoke and restore their seats, in the caller's
 * transaction. The ticket mail, its resend and the ticket page ask here for an order's
 * number and buyer.
 */
@Injectable()
export class TicketOrders {
  private readonly sources: TicketOrderSource[] = [];

  constructor(@Inject(OrderRepository) private readonly orders: OrderRepository) {}

  register(source: TicketOrderSource): void {
    this.sources.push(source);
  }

  async find(orderId: string): Promise<TicketOrderInfo | undefined> {
    const order = await this.orders.find({ id: orderId });
    if (order) {
      return {
        orderNumber: order.context.catalogOrderId,
        email: order.context.email,
        buyerName: order.context.buyerName,
      };
    }
    for (const source of this.sources) {
      const found = await source.find(orderId);
      if (found) return found;
    }
    return undefined;
  }

  /** Orders of the other sources bought with this address, newest first per source. */
  async elsewhereOf(email: string): Promise<string[]> {
    const ids: string[] = [];
    for (const source of this.sources) ids.push(...(await source.ordersOf(email)));
    return ids;
  }

  /**
   * rules "Orders made in the shop": one ticket per event seat of the order's lines, kept
   * by line position and seat, so issuing again adds only seats not issued yet. Returns
   * how many seats the order's event lines have, how many of them are new, and the
   * products the catalog does not list (no tickets for them).
   */
  async issue(
    tx: Transaction,
    order: ElsewhereIssue,
    now: number,
  ): Promise<{ seats: number; added: number; unknown: number[] }> {
    const { tickets, unknown } = ticketsFor(order);
    const repository = tx.get(TicketRepository);
    const before = (await repository.forOrder(order.orderId)).length;
    await repository.issue(tickets, now);
    const added = (await repository.forOrder(order.orderId)).length - before;
    return { seats: tickets.length, added, unknown };
  }

  /** The order's valid tickets become revoked ("Storniert"); returns how many. */
  revoke(tx: Transaction, orderId: string, now: number): Promise<number> {
    return tx.get(TicketRepository).revokeForOrder(orderId, now);
  }

  /** The order's revoked tickets admit again; returns how many. */
  restore(tx: Transaction, orderId: string): Promise<number> {
    return tx.get(TicketRepository).restoreForOrder(orderId);
  }
}
