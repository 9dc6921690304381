import { Injectable } from '@nestjs/common';
import type { OrderEffect, TicketLink } from '@awhh/machines';
import type { CatalogProduct } from '../catalog/catalog.port.js';
import type { Transaction } from '../store/store.port.js';
import type { Order, OrderLine } from './orders.port.js';

/** What an effect's handler gets: the order as just saved, in the transition's transaction. */
export interface EffectContext {
  tx: Transaction;
  order: Order;
  lines(): Promise<OrderLine[]>;
  /**
   * The catalog's products (names, dates, venues, tiers; cached, stale is fine). Read
   * outside the transaction: when they are not at hand yet, this throws, the order service
   * reads them and runs the transaction again (`OrderService.withCatalog`).
   */
  products(): readonly CatalogProduct[];
  now: number;
}

export type EffectHandler = (context: EffectContext) => Promise<void>;

/**
 * docs/decisions/0009 and 0012-modules-by-domain.md: the order machine names its effects
 * (`machines/src/order/order.machine.ts`); `OrderService` runs the orders' own (holds, the
 * hand-off and refund jobs) and dispatches the others by name to the handler the module
 * that owns the work registered here at start-up (`tickets.issue`, `tickets.revoke`,
 * `tickets.restore`: the tickets module). They run in the transition's transaction, so a
 * crash loses none of them; an effect without a handler fails the transition rather than
 * being dropped. The orders module imports none of its handlers.
 */
@Injectable()
export class OrderEffects {
  private readonly handlers = new Map<OrderEffect, EffectHandler>();
  private ticketLinks: ((orderId: string) => Promise<TicketLink[]>) | null = null;

  handle(effect: OrderEffect, handler: EffectHandler): void {
    if (this.handlers.has(effect)) throw new Error(`effect ${effect} has a handler already`);
    this.handlers.set(effect, handler);
  }

  async run(effect: OrderEffect, context: EffectContext): Promise<void> {
    const handler = this.handlers.get(effect);
    if (!handler) throw new Error(`no handler for the order effect ${effect}`);
    await handler(context);
  }

  /** What the success page lists once the order is paid: the tickets module tells. */
  listTicketsWith(links: (orderId: string) => Promise<TicketLink[]>): void {
    this.ticketLinks = links;
  }

  async tickets(orderId: string): Promise<TicketLink[]> {
    return this.ticketLinks ? this.ticketLinks(orderId) : [];
  }
}
