import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { CatalogProduct } from '../catalog/catalog.port.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { JobRepository } from '../jobs/jobs.port.js';
import { ORDER_JOBS, orderJob, shopRestockJob } from '../orders/order-jobs.js';
import { type EventOutcome, OrderService } from '../orders/order.service.js';
import { OrderRepository, WebhookEventRepository } from '../orders/orders.port.js';
import { Store, type Transaction } from '../store/store.port.js';
import { type TicketOrderInfo, TicketOrders } from '../tickets/ticket-orders.js';
import { tellOrganizerOfCheckedIn } from '../tickets/checked-in-revoked.js';
import { queueTicketNotices } from '../tickets/ticket-notice.jobs.js';
import { TicketRepository } from '../tickets/tickets.port.js';
import { refundedUnitsByLine, sitePositions, ticketsToRevoke } from './shop-refunds.js';
import { type ShopOrder, ShopOrderRepository } from './shop.port.js';
import type { WooOrderState } from './woocommerce-webhook.js';

/** A shop order's tickets carry this before WooCommerce's id as their order id. */
export const SHOP_ORDER_PREFIX = 'shop-';

/** rules "Orders made in the shop": the shop has the money (or needs none): the seats admit. */
const TICKETED = new Set(['processing', 'completed']);
/** The order no longer stands: its seats admit nobody. */
const VOID = new Set(['cancelled', 'refunded', 'failed', 'trash', 'deleted']);

/**
 * More seats than one order made in the shop gets tickets for: one mail carries a PDF per
 * seat, and a mistyped quantity must not mail thousands. Beyond it the order is reported
 * on /webhook-test (`too_many_seats`) and gets none.
 */
export const MAX_SHOP_ORDER_SEATS = 100;

export type ShopOrderOutcome =
  EventOutcome | 'tickets_issued' | 'tickets_revoked' | 'too_many_seats';

/** What a report changed: a sweep keeps only these on /webhook-test. */
const APPLIED: ReadonlySet<ShopOrderOutcome> = new Set([
  'tickets_issued',
  'tickets_revoked',
  'too_many_seats',
]);

/** One report of an order: a delivery's body, or an order the sweep read. */
export interface ShopOrderReport {
  /** What it is applied once by: the delivery's key, or the sweep's for this state. */
  key: string;
  /** What /webhook-test shows as its topic. */
  label: string;
  /** A sweep's finding: kept on /webhook-test only when it changed something. */
  quiet: boolean;
  state: WooOrderState;
}

/**
 * Whether a report is older than the one applied. The shop keeps whole seconds: of two
 * reports from the same second, one that would admit again never undoes one that revoked
 * (an order is made, then cancelled; reopening it takes a second more).
 */
function isOlder(state: WooOrderState, known: ShopOrder): boolean {
  const at = state.modifiedAt ?? 0;
  if (known.modifiedAt !== at) return known.modifiedAt > at;
  return VOID.has(known.status) && !VOID.has(state.status);
}

/** The state of an order the shop no longer has (deleted for good). */
export function goneOrder(id: string): WooOrderState {
  return {
    id,
    number: id,
    status: 'deleted',
    reference: null,
    cancelled: false,
    // Final: no report of the order can be later than its deletion.
    modifiedAt: Number.MAX_SAFE_INTEGER,
    email: null,
    holder: null,
    total: null,
    lines: [],
    hasRefunds: false,
  };
}

/**
 * The shop's orders as WooCommerce reports them, from its webhooks and the sweep alike
 * (rules "Cancelled in the shop", "Orders made in the shop"). An order the site handed off
 * (its `awhh_reference`) goes to the order machine when the shop cancelled it, and is never
 * ticketed here. An order made in the shop itself gets one ticket per event seat once it
 * is `processing` or `completed`, mailed to its billing address through the ticket mail's
 * job; cancelled, refunded, failed, trashed or deleted, its tickets are revoked, and
 * restored should a later report say it stands again. Each order is kept with the shop's
 * `date_modified_gmt` of the report applied: an older report changes nothing, and seats
 * are kept by line and seat, so a delivery twice, or a delivery and the sweep, never ticket
 * twice.
 */
@Injectable()
export class ShopOrders implements OnModuleInit {
  private readonly logger = new Logger('ShopOrders');

  constructor(
    @Inject(Store) private readonly store: Store,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(OrderService) private readonly orders: OrderService,
    @Inject(TicketOrders) private readonly tickets: TicketOrders,
    @Inject(ShopOrderRepository) private readonly shopOrders: ShopOrderRepository,
  ) {}

  onModuleInit(): void {
    // The ticket page, the mail and the resend ask the tickets module about an order's
    // number and buyer; for the shop's orders it asks here.
    this.tickets.register({
      find: (orderId) => this.ticketOrder(orderId),
      ordersOf: (email) => this.shopOrders.idsOfEmail(email),
    });
  }

  async apply(report: ShopOrderReport): Promise<ShopOrderOutcome> {
    const { state } = report;
    if (state.reference) {
      // Handed off by the site: a cancellation goes to the order machine; a refund of some
      // of its lines revokes their tickets (docs/ledger.md).
      if (!state.cancelled && TICKETED.has(state.status) && state.hasRefunds) {
        return this.refundLines(report, state.reference);
      }
      if (report.quiet && !state.cancelled) return 'ignored';
      return this.orders.receiveFromShop({
        id: report.key,
        label: report.label,
        reference: state.reference,
        catalogOrderId: state.id,
        cancelled: state.cancelled,
        quiet: report.quiet,
      });
    }
    const ticketed = TICKETED.has(state.status);
    // Read before the transaction: no network call while the store's write lock is held.
    const products = ticketed ? await this.catalog.products() : [];
    const refunded =
      ticketed && state.hasRefunds
        ? refundedUnitsByLine(await this.catalog.orderRefunds(state.id))
        : new Map<number, number>();
    const now = Date.now();
    const result = await this.store.write(async (tx) => {
      const events = tx.get(WebhookEventRepository);
      if (!report.quiet && !(await events.record({ id: report.key, type: report.label }, now))) {
        return { outcome: 'duplicate' as const, mail: false };
      }
      const applied = await this.decide(tx, state, products, refunded, now);
      if (!report.quiet) await events.setOutcome(report.key, applied.outcome);
      else if (
        APPLIED.has(applied.outcome) &&
        (await events.record({ id: report.key, type: report.label }, now))
      ) {
        await events.setOutcome(report.key, applied.outcome);
      }
      return applied;
    });
    if (!report.quiet || APPLIED.has(result.outcome)) {
      this.logger.log({
        msg: 'shop order',
        id: state.id,
        status: state.status,
        type: report.label,
        outcome: result.outcome,
      });
    }
    return result.outcome;
  }

  /**
   * docs/ledger.md "A place freed in the shop": refunds of lines of an order the site
   * handed off. As many of each line's tickets as the shop refunded units of it, beyond
   * those the site's own refunds took already, are revoked and their holders mailed; their
   * places are back in the shop's stock when the organizer restocked them there, and the
   * site holds none of them (the sale's hold is settled).
   */
  private async refundLines(report: ShopOrderReport, orderId: string): Promise<ShopOrderOutcome> {
    const { state } = report;
    const refunded = refundedUnitsByLine(await this.catalog.orderRefunds(state.id));
    const now = Date.now();
    const outcome = await this.store.write(async (tx): Promise<ShopOrderOutcome> => {
      const events = tx.get(WebhookEventRepository);
      if (!report.quiet && !(await events.record({ id: report.key, type: report.label }, now))) {
        return 'duplicate';
      }
      const order = await tx.get(OrderRepository).lock({ id: orderId });
      let result: ShopOrderOutcome = 'unknown_order';
      if (order) {
        const lines = await tx.get(OrderRepository).lines(order.id);
        const positions = sitePositions(state.lines, lines);
        const units = [...positions].map(([lineId, position]) => ({
          position,
          quantity: (refunded.get(lineId) ?? 0) - lines[position]!.refundedQuantity,
        }));
        const revoked = await this.revokeRefunded(tx, order.id, state.number, units, now);
        await tx.get(OrderRepository).addRefundedUnits(order.id, units);
        result = revoked > 0 ? 'tickets_revoked' : 'unchanged';
      }
      if (!report.quiet) await events.setOutcome(report.key, result);
      else if (
        APPLIED.has(result) &&
        (await events.record({ id: report.key, type: report.label }, now))
      ) {
        await events.setOutcome(report.key, result);
      }
      return result;
    });
    if (!report.quiet || APPLIED.has(outcome)) {
      this.logger.log({
        msg: 'shop refund of lines',
        id: state.id,
        type: report.label,
        outcome,
      });
    }
    return outcome;
  }

  /**
   * The tickets `units` more refunded units of each line take (`ticketsToRevoke`), revoked
   * for good with a mail to each; returns how many. A ticket whose guest was let in already
   * is told to the organizer (docs/ledger.md "Told to the organizer").
   */
  private async revokeRefunded(
    tx: Transaction,
    orderId: string,
    shopOrder: string | null,
    units: readonly { position: number; quantity: number }[],
    now: number,
  ): Promise<number> {
    const tickets = await tx.get(TicketRepository).refundable(orderId);
    const revoked = units.flatMap(({ position, quantity }) =>
      ticketsToRevoke(tickets, position, quantity),
    );
    if (revoked.length === 0) return 0;
    await tx.get(TicketRepository).markRefunded(
      revoked.map((t) => t.id),
      now,
    );
    await tellOrganizerOfCheckedIn(
      tx,
      { orderId, shopOrder, key: 'refund' },
      revoked.map((t) => t.id),
      now,
    );
    const ids = new Set(revoked.map((t) => t.id));
    await queueTicketNotices(
      tx,
      { orderId, kind: 'shopRefunded', key: [...ids].sort().join(','), refunded: null },
      (await tx.get(TicketRepository).forOrder(orderId)).filter((t) => ids.has(t.id)),
      now,
    );
    return revoked.length;
  }

  private async decide(
    tx: Transaction,
    state: WooOrderState,
    products: readonly CatalogProduct[],
    refunded: ReadonlyMap<number, number>,
    now: number,
  ): Promise<{ outcome: ShopOrderOutcome; mail: boolean }> {
    const id = `${SHOP_ORDER_PREFIX}${state.id}`;
    const repository = tx.get(ShopOrderRepository);
    const known = await repository.lock(id);
    if (!known && state.status === 'deleted') return { outcome: 'ignored', mail: false };
    if (known && state.modifiedAt !== null && isOlder(state, known)) {
      // Sent before a change already applied (deliveries and the sweep arrive in any order).
      return { outcome: 'unchanged', mail: false };
    }
    const ticketed = TICKETED.has(state.status);
    const total = state.total ?? known?.total ?? 0;
    await repository.save(
      {
        id,
        number: state.number,
        status: state.status,
        modifiedAt: state.modifiedAt ?? known?.modifiedAt ?? now,
        // The address and name only for an order that gets tickets (docs/privacy.md).
        email: ticketed ? state.email : (known?.email ?? null),
        holder: ticketed ? state.holder : (known?.holder ?? null),
        total,
      },
      now,
    );
    if (VOID.has(state.status)) {
      const valid = (await tx.get(TicketRepository).forOrder(id)).filter(
        (t) => t.status === 'valid',
      );
      await tellOrganizerOfCheckedIn(
        tx,
        { orderId: id, shopOrder: state.number, key: state.status },
        valid.map((t) => t.id),
        now,
      );
      const revoked = await this.tickets.revoke(tx, id, now);
      if (revoked > 0) {
        await queueTicketNotices(
          tx,
          {
            orderId: id,
            kind: 'shopCancelled',
            key: String(state.modifiedAt ?? now),
            refunded: null,
          },
          valid,
          now,
        );
        // WooCommerce keeps a refunded or trashed order's places out of its stock.
        if (state.status !== 'deleted') {
          await tx.get(JobRepository).enqueue(shopRestockJob(id, state.id), now);
        }
      }
      return {
        outcome: revoked > 0 ? 'tickets_revoked' : known ? 'unchanged' : 'ignored',
        mail: revoked > 0,
      };
    }
    // Not paid yet (pending, on hold, a draft): nothing to admit.
    if (!ticketed) return { outcome: 'ignored', mail: false };
    const seats = state.lines.reduce((sum, line) => sum + line.quantity, 0);
    if (seats > MAX_SHOP_ORDER_SEATS) {
      this.logger.warn({ msg: 'shop order not ticketed: too many seats', id: state.id, seats });
      return { outcome: 'too_many_seats', mail: false };
    }
    const restored = await this.tickets.restore(tx, id);
    const issued = await this.tickets.issue(
      tx,
      {
        orderId: id,
        holder: state.holder,
        guestList: total === 0,
        lines: state.lines.map((line) => ({
          position: line.id,
          productId: line.productId,
          variationId: line.variationId,
          quantity: line.quantity,
        })),
        products,
      },
      now,
    );
    if (issued.unknown.length > 0) {
      this.logger.warn({
        msg: 'no tickets for products the catalog does not list',
        id: state.id,
        productIds: issued.unknown,
      });
    }
    // Lines refunded in the shop: their seats are kept by the line's id; as many more are
    // revoked as it refunded units beyond the seats refunded before.
    const issuedSeats = await tx.get(TicketRepository).refundable(id);
    const byRefund = await this.revokeRefunded(
      tx,
      id,
      state.number,
      state.lines.map((line) => ({
        position: line.id,
        quantity:
          (refunded.get(line.id) ?? 0) -
          issuedSeats.filter((t) => t.linePosition === line.id && t.refunded).length,
      })),
      now,
    );
    if (issued.seats === 0) return { outcome: 'ignored', mail: false };
    if (byRefund > 0) return { outcome: 'tickets_revoked', mail: true };
    // rules "E-mail": the ticket mail's job, once per order (a later report adds none).
    await tx.get(JobRepository).enqueue(orderJob(ORDER_JOBS.ticketMail, id), now);
    return {
      outcome: issued.added + restored > 0 ? 'tickets_issued' : 'unchanged',
      mail: issued.added > 0,
    };
  }

  private async ticketOrder(orderId: string): Promise<TicketOrderInfo | undefined> {
    if (!orderId.startsWith(SHOP_ORDER_PREFIX)) return undefined;
    const order = await this.shopOrders.find(orderId);
    if (!order) return undefined;
    return { orderNumber: order.number, email: order.email, buyerName: order.holder };
  }
}
