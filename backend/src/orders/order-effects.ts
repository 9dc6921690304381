import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
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

/** The order machine's effects whose work belongs to the tickets module. */
export type TicketEffect = Extract<OrderEffect, `tickets.${string}`>;
/** The orders module's own effects: every other one. */
export type OwnEffect = Exclude<OrderEffect, TicketEffect>;
/**
 * A handler for each of a set of effects: a table with one missing (a new effect in the
 * machine) fails `tsc` where the table is written.
 */
export type EffectTable<E extends OrderEffect> = { readonly [K in E]: EffectHandler };

export function isTicketEffect(effect: OrderEffect): effect is TicketEffect {
  return effect.startsWith('tickets.');
}

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
export class OrderEffects implements OnApplicationBootstrap {
  private ticketHandlers: EffectTable<TicketEffect> | null = null;
  private ticketLinks: ((orderId: string) => Promise<TicketLink[]>) | null = null;

  /** The tickets module's whole table, once: `tsc` holds it to every ticket effect. */
  provideTickets(handlers: EffectTable<TicketEffect>): void {
    if (this.ticketHandlers) throw new Error('the ticket effects have their handlers already');
    this.ticketHandlers = handlers;
  }

  /** A process that runs orders without the tickets' table does not start. */
  onApplicationBootstrap(): void {
    if (!this.ticketHandlers) {
      throw new Error('the order effects tickets.* have no handlers: import the TicketsModule');
    }
  }

  async runTicketEffect(effect: TicketEffect, context: EffectContext): Promise<void> {
    if (!this.ticketHandlers) throw new Error(`no handler for the order effect ${effect}`);
    await this.ticketHandlers[effect](context);
  }

  /** What the success page lists once the order is paid: the tickets module tells. */
  listTicketsWith(links: (orderId: string) => Promise<TicketLink[]>): void {
    this.ticketLinks = links;
  }

  async tickets(orderId: string): Promise<TicketLink[]> {
    return this.ticketLinks ? this.ticketLinks(orderId) : [];
  }
}
