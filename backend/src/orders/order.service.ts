import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  checkCoupon,
  type CouponTerms,
  initialOrder,
  isRefund,
  type OrderEffect,
  type OrderEvent,
  type OrderInput,
  type OrderTransition,
  SHOP_CURRENCY,
  toSessionStatus,
  transitionOrder,
} from '@awhh/machines';
import type { CatalogProduct } from '../catalog/catalog.port.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { AppConfig } from '../config/config.js';
import type { CapacityLine } from '../holds/capacity.js';
import { Holds, readAtOf } from '../holds/holds.js';
import { findStockUnit } from '../holds/stock-unit.js';
import {
  type Order,
  type OrderLine,
  OrderRepository,
  WebhookEventRepository,
} from './orders.port.js';
import { Store, type Transaction } from '../store/store.port.js';
import { CheckoutOptions } from './checkout.options.js';
import { newId } from './ids.js';
import {
  type EffectContext,
  type EffectTable,
  isTicketEffect,
  OrderEffects,
  type OwnEffect,
} from './order-effects.js';
import {
  ORDER_JOBS,
  type OrderJob,
  orderJob,
  shopRefundJob,
  shopRestockJob,
} from './order-jobs.js';
import { type PaymentDelivery, type PaymentEvent, PaymentsPort } from './payments/payments.port.js';
import { HoldRepository } from '../holds/holds.port.js';
import { JobRepository } from '../jobs/jobs.port.js';

/**
 * A hold that must not lapse on its own: a paid order not yet in the catalog's stock, or
 * an async payment (SEPA) still on its way. Year 9999 in epoch ms.
 */
export const HELD_UNTIL = 253_402_300_799_000;

/** What an event did; shown on the webhook test page (no personal data). */
export type EventOutcome =
  | 'paid'
  | 'processing'
  | 'expired'
  | 'canceled'
  | 'refund_pending'
  | 'refunded'
  | 'partially_refunded'
  | 'disputed'
  | 'dispute_won'
  | 'unchanged'
  | 'unknown_order'
  | 'ignored'
  | 'test'
  | 'duplicate';

/**
 * A WooCommerce delivery about an order, verified by the shop module: `id` is its key for
 * deduplication, `label` what the webhook page shows (the topic), `reference` the order's
 * `awhh_reference`, `catalogOrderId` WooCommerce's id, `cancelled` whether the order's
 * status in the body is cancelled, refunded or failed.
 */
export interface ShopOrderDelivery {
  id: string;
  label: string;
  reference: string | null;
  catalogOrderId: string | null;
  cancelled: boolean;
  /**
   * A sweep's finding rather than a delivery (rules "Orders made in the shop"): kept, under
   * its key, only when it changed the order, so /webhook-test lists what the sweep applied.
   */
  quiet?: boolean;
}

/** An order as the checkout priced it, before it has an id. */
export interface OrderDraft<L extends DraftLine = DraftLine> {
  totals: OrderInput;
  lines: readonly L[];
  couponCode: string | null;
  couponEntered: string | null;
  paymentMethod: string;
  successUrl: string;
  cancelUrl: string;
  /**
   * A token to claim a hold kept for this checkout (rules "Waiting list": an offer's link),
   * handed to the holds module as it is.
   */
  claimToken?: string | null;
  /**
   * Who asks (a keyed hash of the client's address) and how many checkouts waiting for
   * their payment it may hold at once; absent: no limit (orders made by the server).
   */
  client?: {
    key: string;
    maxOpen: number;
    /**
     * Units per product the client's open checkouts may hold together, this one included
     * (an evening's order limit: one address cannot hold more of an evening at a time).
     */
    maxUnits?: ReadonlyMap<number, number>;
  } | null;
  /**
   * rules "Coupons": the coupon as the checkout just read it from the catalog, the buyer's
   * address and its key when known. The order holds one use of it, checked under the
   * coupon's lock against its limits counting the uses other checkouts hold.
   */
  coupon?: CouponUse | null;
}

export interface CouponUse {
  terms: CouponTerms;
  /** When the shop was asked for `terms` (its `usage_count`), `SHOP_READ_AT`. */
  readAt: number;
  email: string | null;
  /** A key of `email` (never the address), for the uses held per buyer; null without one. */
  holder: string | null;
}

export type DraftLine = OrderLine & CapacityLine;

export type PlaceResult<L extends DraftLine> =
  | { order: Order }
  | { shortages: { line: L; available: number }[] }
  /**
   * The client holds its limit of open checkouts, or with this one would hold more of a
   * product than `maxUnits` (`productId`); the first of them lapses in `retryAfterMs`.
   */
  | { tooManyOpen: { retryAfterMs: number; productId?: number } }
  /** rules "Coupons": the coupon's uses are taken (held by other checkouts, or used). */
  | { couponRefused: { statusCode: 404 | 422; message: string; needsEmail: boolean } };

/** Stock per stock unit (null = unlimited), read from the catalog for a late payment, and when. */
interface StockLookup {
  stock: ReadonlyMap<number, number | null>;
  readAt: number;
}

/**
 * What a transaction may need from the catalog: the stock for a late payment, the products
 * (event or merch, date, venue, tier) for the tickets a payment issues. Null until asked.
 */
interface CatalogFacts {
  stock: StockLookup | null;
  products: readonly CatalogProduct[] | null;
}

/**
 * Thrown inside a transaction that needs the catalog. No network call may run while the
 * store's write lock is held, so the catalog is read outside and the transaction runs
 * again (see `withCatalog`).
 */
class CatalogNeeded extends Error {
  constructor(
    readonly need: 'stock' | 'products',
    readonly lines: OrderLine[] = [],
  ) {
    super(`the transaction needs the catalog's ${need}`);
  }
}

/** For transitions that never issue tickets nor take a late payment (cancel, hand-off, refund). */
const NO_FACTS: CatalogFacts = Object.freeze({ stock: null, products: null });

interface Applied {
  outcome: EventOutcome;
  order?: Order;
  transition?: OrderTransition;
}

/**
 * The order's life (rules "The order's life"): every change loads the order, sends the
 * order machine one event with the facts its guards read, saves the result and runs the
 * effects it lists, all in one transaction. States only move forward, so a duplicate or
 * late event changes nothing, whichever way it arrives: a webhook, reconciliation or a
 * job.
 */
@Injectable()
export class OrderService {
  private readonly logger = new Logger('Orders');

  constructor(
    @Inject(Store) private readonly store: Store,
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(CheckoutOptions) private readonly options: CheckoutOptions,
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(Holds) private readonly holds: Holds,
    @Inject(OrderEffects) private readonly effects: OrderEffects,
  ) {}

  /**
   * Creates the order with its holds under the capacity lock (rules "Capacity": concurrent
   * checkouts never oversell), or tells which lines do not fit. A free order is paid at
   * creation.
   */
  async place<L extends DraftLine>(draft: OrderDraft<L>): Promise<PlaceResult<L>> {
    const now = Date.now();
    const initial = initialOrder(draft.totals);
    const id = newId('ord');
    const waitsForPayment = initial.status === 'open';
    const order: Order = {
      id,
      // A free order has no provider session; its own id is the session id.
      sessionId: waitsForPayment ? null : id,
      provider: waitsForPayment ? this.payments.name : 'none',
      status: initial.status,
      context: initial.context,
      couponCode: draft.couponCode,
      couponEntered: draft.couponEntered,
      currency: SHOP_CURRENCY,
      paymentMethod: draft.paymentMethod,
      successUrl: draft.successUrl,
      cancelUrl: draft.cancelUrl,
      createdAt: now,
      expiresAt: now + this.options.sessionTtlMs,
      paidAt: waitsForPayment ? null : now,
    };
    const result = await this.withCatalog((facts) =>
      this.store.write(async (tx): Promise<PlaceResult<L>> => {
        // One client cannot hold more than its share of unpaid checkouts (and their
        // places). Locked before the capacity, as every checkout does, so none deadlock.
        const client = waitsForPayment ? draft.client : null;
        if (client) {
          await tx.get(OrderRepository).lockClient(client.key);
          const open = await tx.get(OrderRepository).openForClient(client.key, now);
          if (open.count >= client.maxOpen) {
            return { tooManyOpen: { retryAfterMs: (open.firstExpiresAt ?? now) - now } };
          }
          const wanted = new Map<number, number>();
          for (const l of draft.lines) {
            wanted.set(l.productId, (wanted.get(l.productId) ?? 0) + l.quantity);
          }
          for (const [productId, units] of wanted) {
            const max = client.maxUnits?.get(productId);
            if (max !== undefined && (open.unitsByProduct.get(productId) ?? 0) + units > max) {
              return {
                tooManyOpen: { retryAfterMs: (open.firstExpiresAt ?? now) - now, productId },
              };
            }
          }
        }
        // rules "Coupons": its uses are locked and counted before anything is written, so a
        // refusal leaves nothing behind; the lock is taken after the client's and before the
        // capacity's, as every checkout does.
        const coupon = draft.coupon ?? null;
        if (coupon) {
          const refused = await this.couponRefusal(tx, coupon, now);
          if (refused) return { couponRefused: refused };
        }
        const { shortages } = await this.holds.take(tx, {
          owner: order.id,
          lines: draft.lines,
          until: order.expiresAt,
          claimToken: draft.claimToken,
          now,
        });
        if (shortages.length > 0) return { shortages };
        // Kept, settled and released with the order's places (HoldRepository.keep, release).
        if (coupon) {
          await this.holds.holdCouponUse(tx, {
            owner: order.id,
            code: coupon.terms.code,
            holder: coupon.holder,
            expiresAt: order.expiresAt,
          });
        }
        await tx.get(OrderRepository).create({
          order,
          lines: draft.lines.map(orderLine),
          clientKey: client?.key ?? null,
        });
        await this.runEffects(tx, order, initial.effects, now, facts);
        return { order };
      }),
    );
    return result;
  }

  /**
   * rules "Coupons": the coupon's limits again, with the uses open checkouts (and paid
   * orders the shop has not counted yet) hold under its lock: `usage_limit` against the
   * shop's `usage_count` plus those, `usage_limit_per_user` against the buyer's entries in
   * `used_by` plus the buyer's. Null when one more use fits.
   */
  private async couponRefusal(tx: Transaction, coupon: CouponUse, now: number) {
    const held = await this.holds.couponUsesHeld(
      tx,
      coupon.terms.code,
      coupon.holder,
      now,
      coupon.readAt,
    );
    // Without lines only the rules that need none are checked: the uses, the expiry, the address.
    const verdict = checkCoupon(coupon.terms, [], {
      now: new Date(now),
      email: coupon.email,
      heldUses: held.all,
      heldUsesByEmail: held.byHolder,
    });
    if (verdict.ok) return null;
    return {
      statusCode: verdict.statusCode,
      message: verdict.reason,
      needsEmail: verdict.needsEmail === true,
    };
  }

  /** The server gives up on an order, e.g. when the provider refused to open its session. */
  async cancel(orderId: string): Promise<Order | undefined> {
    const now = Date.now();
    const applied = await this.store.write(async (tx) => {
      const order = await tx.get(OrderRepository).lock({ id: orderId });
      if (!order) return undefined;
      const next = transitionOrder(order.status, order.context, { type: 'order.cancel' });
      return { order: await this.commit(tx, order, next, now, NO_FACTS), next };
    });
    return applied?.order;
  }

  /** A verified webhook delivery, recorded by id for good and applied in the same transaction (rules "Webhook"). */
  async receive(delivery: PaymentDelivery): Promise<EventOutcome> {
    const now = Date.now();
    const applied = await this.withCatalog((facts) =>
      this.store.write(async (tx): Promise<Applied> => {
        const recorded = await tx
          .get(WebhookEventRepository)
          .record({ id: delivery.id, type: delivery.label }, now);
        if (!recorded) return { outcome: 'duplicate' };
        const applied: Applied = delivery.test
          ? { outcome: 'test' }
          : delivery.event
            ? await this.applyPayment(tx, delivery.event, now, facts)
            : { outcome: 'ignored' };
        await tx.get(WebhookEventRepository).setOutcome(delivery.id, applied.outcome);
        return applied;
      }),
    );
    this.logger.log({
      msg: 'payment event',
      id: delivery.id,
      type: delivery.label,
      outcome: applied.outcome,
    });
    return applied.outcome;
  }

  /**
   * A verified WooCommerce delivery about one of our orders (rules "Cancelled in the shop"),
   * recorded by its key for good and applied in the same transaction: the order the shop
   * reports cancelled, refunded or failed becomes `canceledInShop`. `cancelled` is read from
   * the order's status in the delivery's body, never from its topic.
   */
  async receiveFromShop(delivery: ShopOrderDelivery): Promise<EventOutcome> {
    const now = Date.now();
    const quiet = delivery.quiet === true;
    const applied = await this.store.write(async (tx): Promise<Applied> => {
      const events = tx.get(WebhookEventRepository);
      if (!quiet && !(await events.record({ id: delivery.id, type: delivery.label }, now))) {
        return { outcome: 'duplicate' };
      }
      let applied: Applied = { outcome: 'ignored' };
      if (delivery.cancelled) {
        const order = await tx.get(OrderRepository).lock({
          id: delivery.reference,
          catalogOrderId: delivery.catalogOrderId,
        });
        if (!order) applied = { outcome: 'unknown_order' };
        else {
          const next = transitionOrder(order.status, order.context, { type: 'shop.cancelled' });
          const saved = await this.commit(tx, order, next, now, NO_FACTS);
          applied = { outcome: outcomeOf(next), order: saved, transition: next };
        }
      }
      if (!quiet) await events.setOutcome(delivery.id, applied.outcome);
      else if (
        applied.transition?.changed &&
        (await events.record({ id: delivery.id, type: delivery.label }, now))
      ) {
        await events.setOutcome(delivery.id, applied.outcome);
      }
      return applied;
    });
    if (quiet && !applied.transition?.changed) return applied.outcome;
    this.logger.log({
      msg: 'shop event',
      id: delivery.id,
      type: delivery.label,
      outcome: applied.outcome,
    });
    return applied.outcome;
  }

  /**
   * Reconciliation (rules "The order's life"): asks the provider about an order still
   * waiting for its payment and applies the answer as its webhook would have been, so a
   * missing or misconfigured webhook loses no paid order. Returns the order as it is now.
   */
  async reconcile(order: Order): Promise<Order> {
    if (!order.sessionId) {
      // The provider never opened a session, so no buyer saw a payment page: once the
      // reservation has run out, the order is given up.
      if (order.expiresAt > Date.now()) return order;
      return (await this.cancel(order.id)) ?? order;
    }
    const event = await this.payments.retrieveSession(order.sessionId);
    if (!event) return order;
    const now = Date.now();
    const applied = await this.withCatalog((facts) =>
      this.store.write((tx) =>
        this.applyPayment(
          tx,
          { ...event, orderId: order.id, sessionId: order.sessionId },
          now,
          facts,
        ),
      ),
    );
    if (applied.transition?.changed) {
      this.logger.log({
        msg: 'order reconciled with the provider',
        orderId: order.id,
        outcome: applied.outcome,
      });
    }
    return applied.order ?? order;
  }

  /**
   * The hand-off job delivered the order to the catalog: handed off, exactly once. The
   * sale is settled at `answeredAt`, when the shop answered (docs/ledger.md "A sale counts
   * once"), not at this commit: stock read in between carries the sale already.
   */
  async recordHandOff(job: OrderJob, catalogOrderId: string, answeredAt?: number): Promise<void> {
    await this.finishJob(job, { type: 'handoff.succeeded', catalogOrderId }, answeredAt);
  }

  /**
   * rules "Hand-off refused": the shop refused the order for good. The order keeps the
   * shop's reason and the organizer's mail is queued; the job ends as failed with the
   * reason, in the same transaction, so nothing retries it until someone asks.
   */
  async recordHandOffRefused(job: OrderJob, reason: string): Promise<void> {
    const now = Date.now();
    await this.store.write(async (tx) => {
      const { orderId } = job.payload;
      const order = await tx.get(OrderRepository).lock({ id: orderId });
      if (!order) throw new Error(`order ${orderId} not found`);
      const next = transitionOrder(order.status, order.context, { type: 'handoff.failed', reason });
      await this.commit(tx, order, next, now, NO_FACTS);
      await tx.get(JobRepository).fail(job.id, now, reason);
    });
  }

  /**
   * rules "Hand-off refused": the organizer fixed the cause; the hand-off runs again. Null
   * when there is no such order; `retried: false` when its hand-off was not refused.
   */
  async retryHandOff(orderId: string): Promise<{ order: Order; retried: boolean } | null> {
    const now = Date.now();
    const applied = await this.store.write(async (tx) => {
      const order = await tx.get(OrderRepository).lock({ id: orderId });
      if (!order) return null;
      const next = transitionOrder(order.status, order.context, { type: 'handoff.retry' });
      return { order: await this.commit(tx, order, next, now, NO_FACTS), next };
    });
    if (!applied) return null;
    return { order: applied.order, retried: applied.next.changed };
  }

  /** The refund job refunded a late payment that found no capacity. */
  async recordRefund(job: OrderJob, refundReference: string): Promise<void> {
    await this.finishJob(job, { type: 'refund.succeeded', refundReference });
  }

  /**
   * rules "The organizer": money the site itself sent back at the provider (the organizer
   * cancelling from the guest list: `amount` cents more than before, the provider's refund
   * `refundReference`), recorded as the provider's report of it would be: a partial refund,
   * or a refund in full once everything went back. `coverPartial` runs in the same
   * transaction before a partial refund's effects, with the order locked: it marks the
   * tickets the organizer chose as refunded, so the refund covers those and no others
   * (`tickets.revokeRefunded` counts them first). A provider that reported the same refund
   * already (Stripe's `charge.refunded` can be faster) changes nothing here. Null when
   * there is no such order.
   */
  async refundedBySite(
    orderId: string,
    refund: { refundReference: string; amount: number },
    coverPartial?: (tx: Transaction, order: Order) => Promise<void>,
  ): Promise<{ order: Order; changed: boolean } | null> {
    const now = Date.now();
    const applied = await this.store.write(async (tx) => {
      const order = await tx.get(OrderRepository).lock({ id: orderId });
      if (!order) return null;
      if (order.context.refundReference === refund.refundReference) {
        return { order, next: null };
      }
      const amountRefunded = (order.context.refundedAmount ?? 0) + refund.amount;
      const { refundReference } = refund;
      const partial = amountRefunded < order.context.total;
      const next = transitionOrder(
        order.status,
        order.context,
        partial
          ? { type: 'payment.partiallyRefunded', refundReference, amountRefunded }
          : { type: 'payment.refunded', refundReference },
      );
      if (next.changed && partial && coverPartial) await coverPartial(tx, order);
      return { order: await this.commit(tx, order, next, now, NO_FACTS), next };
    });
    if (!applied) return null;
    return { order: applied.order, changed: applied.next?.changed ?? false };
  }

  private async finishJob(job: OrderJob, event: OrderEvent, at?: number): Promise<void> {
    const now = at ?? Date.now();
    await this.store.write(async (tx) => {
      const { orderId } = job.payload;
      const order = await tx.get(OrderRepository).lock({ id: orderId });
      if (!order) throw new Error(`order ${orderId} not found`);
      // A repeated job (its lease ran out mid-way) finds the order moved on: unchanged.
      await this.commit(
        tx,
        order,
        transitionOrder(order.status, order.context, event),
        now,
        NO_FACTS,
      );
      await tx.get(JobRepository).complete(job.id, now);
    });
  }

  /** Loads the order once, locked, and sends it the neutral event with the facts it needs. */
  private async applyPayment(
    tx: Transaction,
    event: PaymentEvent,
    now: number,
    facts: CatalogFacts,
  ): Promise<Applied> {
    // A refund or a dispute names the payment, not the session.
    const byPayment = ['payment.refunded', 'dispute.opened', 'dispute.won'].includes(event.type);
    const found = await tx.get(OrderRepository).lock({
      id: event.orderId,
      sessionId: event.sessionId,
      paymentReference: byPayment ? event.paymentReference : null,
    });
    if (!found) return { outcome: 'unknown_order' };
    // The webhook may arrive before the checkout recorded the provider's session.
    const order = { ...found, sessionId: found.sessionId ?? event.sessionId };
    const next = await this.paymentTransition(tx, order, event, now, facts.stock);
    const saved = await this.commit(tx, order, next, now, facts);
    return { outcome: outcomeOf(next), order: saved, transition: next };
  }

  private async paymentTransition(
    tx: Transaction,
    order: Order,
    event: PaymentEvent,
    now: number,
    stock: StockLookup | null,
  ): Promise<OrderTransition> {
    const buyer = { email: event.email, name: event.name };
    if (event.type === 'payment.pending') {
      return transitionOrder(order.status, order.context, { type: 'payment.pending', ...buyer });
    }
    if (event.type === 'payment.refunded') {
      const refundReference = event.refundReference ?? event.paymentReference ?? order.id;
      // rules "Refunds reach the shop": part of the payment went back.
      const amountRefunded = event.amountRefunded ?? null;
      if (amountRefunded !== null && amountRefunded < order.context.total) {
        return transitionOrder(order.status, order.context, {
          type: 'payment.partiallyRefunded',
          refundReference,
          amountRefunded,
        });
      }
      return transitionOrder(order.status, order.context, {
        type: 'payment.refunded',
        refundReference,
      });
    }
    if (event.type !== 'payment.succeeded') {
      return transitionOrder(order.status, order.context, { type: event.type });
    }
    const paid = {
      type: 'payment.succeeded',
      reservationHeld: await tx.get(HoldRepository).isHeld(order.id, now),
      capacityRemains: true,
      paymentReference: event.paymentReference,
      ...buyer,
    } as const;
    const next = transitionOrder(order.status, order.context, paid);
    // The machine reads capacityRemains only on its way to a late payment; the catalog's
    // stock is asked for only then.
    if (next.status !== 'latePaymentAccepted') return next;
    if (await this.capacityRemains(tx, order.id, now, stock)) return next;
    return transitionOrder(order.status, order.context, { ...paid, capacityRemains: false });
  }

  /** rules "Capacity": whether a lapsed order's units fit into what others have not held meanwhile. */
  private async capacityRemains(
    tx: Transaction,
    orderId: string,
    now: number,
    stock: StockLookup | null,
  ): Promise<boolean> {
    if (!stock) throw new CatalogNeeded('stock', await tx.get(OrderRepository).lines(orderId));
    return this.holds.fitAgain(tx, orderId, stock.stock, stock.readAt, now);
  }

  /**
   * Runs `work` without the catalog; when it turns out to need the catalog (a late
   * payment's stock, a paid order's tickets), reads that (outside any transaction) and
   * runs `work` again. Without the catalog the question cannot be answered: the error
   * fails the delivery, so the provider (or the next reconciliation) tries again later.
   * Tickets take the cached products (names and dates, stale is fine); a late payment
   * the current stock.
   */
  private async withCatalog<T>(work: (facts: CatalogFacts) => Promise<T>): Promise<T> {
    const facts: CatalogFacts = { stock: null, products: null };
    for (;;) {
      try {
        return await work(facts);
      } catch (err) {
        if (!(err instanceof CatalogNeeded)) throw err;
        if (err.need === 'stock' && !facts.stock) facts.stock = await this.stockOf(err.lines);
        else if (err.need === 'products' && !facts.products) {
          facts.products = await this.catalog.products();
        } else throw err;
      }
    }
  }

  private async stockOf(lines: readonly OrderLine[]): Promise<StockLookup> {
    const products = await this.catalog.currentProducts();
    const stock = new Map<number, number | null>();
    const units = [];
    for (const line of lines) {
      // A product or tier no longer on offer has no capacity: its key stays unknown.
      const unit = findStockUnit(products, line.productId, line.variationId);
      if (unit) {
        stock.set(unit.productKey, unit.stock);
        units.push(unit);
      }
    }
    return { stock, readAt: readAtOf(units) };
  }

  /** Saves a transition's result and runs its effects; an ignored event writes nothing. */
  private async commit(
    tx: Transaction,
    order: Order,
    next: OrderTransition,
    now: number,
    facts: CatalogFacts,
  ): Promise<Order> {
    if (!next.changed) return order;
    const saved: Order = {
      ...order,
      status: next.status,
      context: next.context,
      paidAt: order.paidAt ?? (toSessionStatus(next.status) === 'paid' ? now : null),
    };
    await tx.get(OrderRepository).save(saved, now);
    await this.runEffects(tx, saved, next.effects, now, facts);
    return saved;
  }

  private async runEffects(
    tx: Transaction,
    order: Order,
    effects: readonly OrderEffect[],
    now: number,
    facts: CatalogFacts,
  ): Promise<void> {
    const context: EffectContext = {
      tx,
      order,
      lines: () => tx.get(OrderRepository).lines(order.id),
      products: () => {
        if (!facts.products) throw new CatalogNeeded('products');
        return facts.products;
      },
      now,
    };
    for (const effect of effects) {
      if (isTicketEffect(effect)) {
        // Another module's work, in this transaction through the table it provided.
        await this.effects.runTicketEffect(effect, context);
      } else {
        await this.ownEffects[effect](context);
      }
    }
  }

  /**
   * The orders module's own effects, one handler each: an effect the machine gains fails
   * `tsc` here until it has one (the tickets' are `OrderEffects.provideTickets`).
   */
  private readonly ownEffects: EffectTable<OwnEffect> = {
    // A paid order's places are sold; an async payment's are only kept.
    'reservation.hold': ({ tx, order }) =>
      this.holds.keep(tx, order.id, HELD_UNTIL, { sold: order.paidAt !== null }),
    // A checkout that lapsed unpaid or was canceled gives a hold it claimed back to its
    // owner until that runs out; a refund does not.
    'reservation.release': ({ tx, order, now }) =>
      this.holds.release(tx, order.id, now, {
        giveBackClaims: order.status === 'expired' || order.status === 'canceled',
      }),
    // docs/ledger.md "A sale counts once": the shop's stock carries the order from the
    // hand-off's answer on; the hold counts only beside stock read before it.
    'reservation.settle': ({ tx, order, now }) => this.holds.settle(tx, order.id, now),
    'handoff.enqueue': ({ tx, order, now }) =>
      tx.get(JobRepository).enqueue(orderJob(ORDER_JOBS.handoff, order.id), now),
    'refund.request': ({ tx, order, now }) =>
      tx.get(JobRepository).enqueue(orderJob(ORDER_JOBS.refund, order.id), now),
    // Again after a retry the shop refused once more.
    'handoff.reportFailure': ({ tx, order, now }) =>
      tx.get(JobRepository).enqueueAgain(orderJob(ORDER_JOBS.handoffRefusedMail, order.id), now),
    'handoff.retry': ({ tx, order, now }) =>
      tx.get(JobRepository).enqueueAgain(orderJob(ORDER_JOBS.handoff, order.id), now),
    // Again when a report names a refund already handled (the job brings the shop up to
    // what the provider refunded so far, and refunds nothing twice).
    'shop.refund': ({ tx, order, now }) =>
      tx
        .get(JobRepository)
        .enqueueAgain(shopRefundJob(order.id, order.context.refundReference ?? 'refund'), now),
    // Known from the hand-off; an order the shop never confirmed keeps nothing out.
    'shop.restock': async ({ tx, order, now }) => {
      if (order.context.catalogOrderId) {
        await tx
          .get(JobRepository)
          .enqueue(shopRestockJob(order.id, order.context.catalogOrderId), now);
      }
    },
  };
}

function orderLine(line: DraftLine): OrderLine {
  return {
    productId: line.productId,
    variationId: line.variationId,
    name: line.name,
    image: line.image,
    quantity: line.quantity,
    unitAmount: line.unitAmount,
    discount: line.discount,
    refundedQuantity: 0,
  };
}

/** The webhook page's word for a transition: the state reached, as the API names it. */
function outcomeOf(next: OrderTransition): EventOutcome {
  if (!next.changed) return 'unchanged';
  if (next.status === 'refunded') return 'refunded';
  if (next.effects.includes('shop.refund')) return 'partially_refunded';
  if (next.status === 'canceledInShop') return 'canceled';
  if (next.status === 'disputed')
    return next.effects.includes('tickets.revoke') ? 'disputed' : 'unchanged';
  if (next.effects.includes('tickets.restore')) return 'dispute_won';
  if (isRefund(next.status)) return 'refund_pending';
  const status = toSessionStatus(next.status);
  return status === 'open' ? 'unchanged' : status;
}
