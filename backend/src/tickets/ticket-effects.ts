import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { JobRepository } from '../jobs/jobs.port.js';
import { type EffectContext, OrderEffects } from '../orders/order-effects.js';
import { ORDER_JOBS, orderJob } from '../orders/order-jobs.js';
import { ticketsFor } from './ticket-issue.js';
import { TicketService } from './ticket.service.js';
import { TicketRepository } from './tickets.port.js';
import { OrderRepository } from '../orders/orders.port.js';
import { ticketsCoveredByRefund } from './refunded-tickets.js';
import { queueTicketNotices } from './ticket-notice.jobs.js';
import { tellOrganizerOfCheckedIn } from './checked-in-revoked.js';

/**
 * The order machine's ticket effects (`machines/src/order/order.machine.ts`), registered with
 * the orders module's `OrderEffects` and run in the transition's transaction: the paid
 * transition issues the seats and queues the ticket mail, a refund or an opened dispute
 * revokes them, a dispute won restores them. Also what the success page lists once paid.
 */
@Injectable()
export class TicketEffects implements OnModuleInit {
  private readonly logger = new Logger('Orders');

  constructor(
    @Inject(OrderEffects) private readonly effects: OrderEffects,
    @Inject(TicketService) private readonly tickets: TicketService,
  ) {}

  onModuleInit(): void {
    this.effects.provideTickets({
      'tickets.issue': (context) => this.issue(context),
      'tickets.revoke': async ({ tx, order, now }) => {
        const valid = (await tx.get(TicketRepository).forOrder(order.id)).filter(
          (t) => t.status === 'valid',
        );
        if (order.status === 'canceledInShop') {
          await tellOrganizerOfCheckedIn(
            tx,
            {
              orderId: order.id,
              shopOrder: order.context.catalogOrderId ?? null,
              key: 'cancelled',
            },
            valid.map((t) => t.id),
            now,
          );
        }
        await tx.get(TicketRepository).revokeForOrder(order.id, now);
        // rules "When a ticket stops admitting": the buyer and every holder are told.
        const kind =
          order.status === 'disputed'
            ? 'disputed'
            : order.status === 'refunded'
              ? 'refunded'
              : order.status === 'canceledInShop'
                ? 'shopCancelled'
                : null;
        if (kind) {
          await queueTicketNotices(
            tx,
            {
              orderId: order.id,
              kind,
              key: kind === 'refunded' ? (order.context.refundReference ?? '') : String(now),
              refunded:
                kind === 'refunded' ? (order.context.refundedAmount ?? order.context.total) : null,
            },
            valid,
            now,
          );
        }
      },
      'tickets.restore': async ({ tx, order, now }) => {
        const revoked = new Set(
          (await tx.get(TicketRepository).forOrder(order.id))
            .filter((t) => t.status === 'revoked')
            .map((t) => t.id),
        );
        await tx.get(TicketRepository).restoreForOrder(order.id);
        const restored = (await tx.get(TicketRepository).forOrder(order.id)).filter(
          (t) => t.status === 'valid' && revoked.has(t.id),
        );
        await queueTicketNotices(
          tx,
          { orderId: order.id, kind: 'restored', key: String(now), refunded: null },
          restored,
          now,
        );
      },
      'tickets.revokeRefunded': (context) => this.revokeRefunded(context),
    });
    this.effects.listTicketsWith((orderId) => this.tickets.links(orderId));
  }

  /**
   * rules "Refunds": a partial refund. The tickets its amount covers in whole (the dearest
   * that fit, not checked in first: `ticketsCoveredByRefund`) are revoked for good and their
   * lines' units marked refunded, which the shop's refund puts back in stock; the others
   * stay valid.
   */
  private async revokeRefunded({ tx, order, lines, now }: EffectContext): Promise<void> {
    const covered = ticketsCoveredByRefund({
      lines: await lines(),
      orderDiscount: order.context.discount,
      tickets: await tx.get(TicketRepository).refundable(order.id),
      refundedAmount: order.context.refundedAmount ?? 0,
    });
    if (covered.length === 0) return;
    await tx.get(TicketRepository).markRefunded(
      covered.map((c) => c.ticket.id),
      now,
    );
    const units = new Map<number, number>();
    for (const { ticket } of covered) {
      units.set(ticket.linePosition, (units.get(ticket.linePosition) ?? 0) + 1);
    }
    await tx.get(OrderRepository).addRefundedUnits(
      order.id,
      [...units].map(([position, quantity]) => ({ position, quantity })),
    );
    const revoked = new Set(covered.map((c) => c.ticket.id));
    await queueTicketNotices(
      tx,
      {
        orderId: order.id,
        kind: 'partlyRefunded',
        key: `${order.context.refundReference ?? ''}:${order.context.refundedAmount ?? 0}`,
        refunded: order.context.refundedAmount ?? null,
      },
      (await tx.get(TicketRepository).forOrder(order.id)).filter((t) => revoked.has(t.id)),
      now,
    );
    this.logger.log({
      msg: 'tickets revoked by a partial refund',
      orderId: order.id,
      tickets: covered.length,
    });
  }

  /**
   * rules "Tickets and the door": one ticket per event seat, in the paid transition's
   * transaction, and the ticket mail queued with them (rules "E-mail": once per paid
   * order, through a job). A merch-only order gets its confirmation without tickets.
   */
  private async issue({ tx, order, lines, products, now }: EffectContext): Promise<void> {
    const catalog = products();
    const { tickets, unknown } = ticketsFor({
      orderId: order.id,
      holder: order.context.buyerName,
      lines: await lines(),
      products: catalog,
    });
    if (unknown.length > 0) {
      this.logger.warn({
        msg: 'no tickets for products the catalog no longer lists',
        orderId: order.id,
        productIds: unknown,
      });
    }
    await tx.get(TicketRepository).issue(tickets, now);
    await tx.get(JobRepository).enqueue(orderJob(ORDER_JOBS.ticketMail, order.id), now);
  }
}
