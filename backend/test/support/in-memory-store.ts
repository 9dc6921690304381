import type { JobSignal } from '../../src/jobs/job-signal.js';
import type { Places } from '../../src/holds/capacity.js';
import {
  couponKey,
  type HeldExcept,
  type Hold,
  HoldRepository,
  type NewCouponUse,
  type NewHold,
} from '../../src/holds/holds.port.js';
import { ContactRepository } from '../../src/contact/contact.port.js';
import {
  type NewOrder,
  type Order,
  type OrderKey,
  type OrderLine,
  OrderRepository,
  type OpenCheckouts,
  type OpenPlaces,
  type RefusedHandOff,
  type EventSource,
  type RecordedEvent,
  SHOP_EVENT_PREFIX,
  WebhookEventRepository,
} from '../../src/orders/orders.port.js';
import { JobRepository, type LeasedJob, type NewJob } from '../../src/jobs/jobs.port.js';
import {
  type NewTicket,
  type StoredTicket,
  type TicketHolder,
  TicketRepository,
  type TicketSale,
  type TicketTransfer,
  type TransferRefusal,
} from '../../src/tickets/tickets.port.js';
import { newTicketCode } from '../../src/tickets/ticket-issue.js';
import type { RefundableTicket } from '../../src/tickets/refunded-tickets.js';
import { Store, type RepositoryPort, type Transaction } from '../../src/store/store.port.js';
import { WaitlistRepository } from '../../src/waitlist/waitlist.port.js';

/** A job as the in-memory store keeps it; `payload` as enqueued. */
export interface StoredJob extends LeasedJob {
  key: string | null;
  subject: string | null;
  nextAttemptAt: number;
  leaseOwner: string | null;
  leaseUntil: number | null;
  doneAt: number | null;
  failedAt?: number | null;
  lastError: string | null;
}

/** Everything the store holds, as plain data a test can read and arrange. */
export class StoreData {
  orders = new Map<string, Order>();
  lines = new Map<string, OrderLine[]>();
  holds: Hold[] = [];
  jobs: StoredJob[] = [];
  webhookEvents = new Map<string, RecordedEvent>();
  contacts: { name: string; email: string; message: string; createdAt: number }[] = [];
  tickets: StoredTicket[] = [];
  /** rules "Refunds": tickets whose price a refund gave back (the `refunded_at` column). */
  refundedTickets = new Set<string>();
  /** Stock units whose capacity lock was taken, in order. */
  capacityLocks: number[][] = [];
  /** Each order's client key while it is open. */
  clientKeys = new Map<string, string>();
  /** rules "Coupons": the coupon uses held, as the `coupon_holds` rows. */
  couponUses: (NewCouponUse & { released: boolean; settledAt: number | null })[] = [];

  snapshot(): StoreData {
    return structuredClone(this);
  }

  restore(from: StoreData): void {
    Object.assign(this, from);
  }
}

export class InMemoryOrderRepository extends OrderRepository {
  constructor(private readonly data: StoreData) {
    super();
  }

  async create({ order, lines, clientKey }: NewOrder): Promise<void> {
    if (this.data.orders.has(order.id)) throw new Error(`duplicate order ${order.id}`);
    if (clientKey && order.status === 'open') this.data.clientKeys.set(order.id, clientKey);
    this.data.orders.set(order.id, structuredClone(order));
    this.data.lines.set(order.id, structuredClone([...lines]));
  }

  async find(key: OrderKey): Promise<Order | undefined> {
    const byId = key.id ? this.data.orders.get(key.id) : undefined;
    const found =
      byId ??
      (key.sessionId
        ? [...this.data.orders.values()].find((o) => o.sessionId === key.sessionId)
        : undefined);
    return found ? structuredClone(found) : undefined;
  }

  lock(key: OrderKey): Promise<Order | undefined> {
    return this.find(key);
  }

  async lockClient(): Promise<void> {}

  async openForClient(clientKey: string, now: number): Promise<OpenCheckouts> {
    const open = [...this.data.orders.values()].filter(
      (o) =>
        this.data.clientKeys.get(o.id) === clientKey && o.status === 'open' && o.expiresAt > now,
    );
    const unitsByProduct = new Map<number, number>();
    for (const o of open) {
      for (const l of this.data.lines.get(o.id) ?? []) {
        unitsByProduct.set(l.productId, (unitsByProduct.get(l.productId) ?? 0) + l.quantity);
      }
    }
    return {
      count: open.length,
      firstExpiresAt: open.length > 0 ? Math.min(...open.map((o) => o.expiresAt)) : null,
      unitsByProduct,
    };
  }

  async lines(orderId: string): Promise<OrderLine[]> {
    return structuredClone(this.data.lines.get(orderId) ?? []);
  }

  async recordSession(orderId: string, session: { id: string; url: string }): Promise<void> {
    this.existing(orderId).sessionId = session.id;
  }

  async save(order: Order): Promise<void> {
    this.existing(order.id);
    this.data.orders.set(order.id, structuredClone(order));
  }

  async refusedHandOffs(limit: number): Promise<RefusedHandOff[]> {
    return [...this.data.orders.values()]
      .filter((o) => o.context.handoffError && o.context.catalogOrderId === null)
      .map((o) => ({ orderId: o.id, reason: o.context.handoffError ?? '', at: o.createdAt }))
      .slice(0, limit);
  }

  async addRefundedUnits(
    orderId: string,
    units: readonly { position: number; quantity: number }[],
  ): Promise<void> {
    const lines = this.data.lines.get(orderId) ?? [];
    for (const { position, quantity } of units) {
      const line = lines[position];
      if (line) line.refundedQuantity += quantity;
    }
  }

  async openPlaces(now: number): Promise<OpenPlaces[]> {
    const places = new Map<string, OpenPlaces>();
    for (const order of this.data.orders.values()) {
      const waiting =
        (order.status === 'open' && order.expiresAt > now) || order.status === 'processing';
      if (!waiting) continue;
      for (const line of this.data.lines.get(order.id) ?? []) {
        const key = `${line.productId}:${line.variationId}`;
        const entry = places.get(key) ?? {
          productId: line.productId,
          variationId: line.variationId,
          quantity: 0,
        };
        entry.quantity += line.quantity;
        places.set(key, entry);
      }
    }
    return [...places.values()];
  }

  /** Tickets are not kept here: no order has an upcoming evening. */
  async handedOffUpcoming(): Promise<Order[]> {
    return [];
  }

  async findUnsettled(query: {
    provider: string;
    createdBefore: number;
    limit: number;
  }): Promise<Order[]> {
    return [...this.data.orders.values()]
      .filter(
        (o) =>
          (o.status === 'open' || o.status === 'processing') &&
          o.provider === query.provider &&
          o.createdAt < query.createdBefore,
      )
      .sort((a, b) => a.createdAt - b.createdAt)
      .slice(0, query.limit)
      .map((o) => structuredClone(o));
  }

  private existing(orderId: string): Order {
    const order = this.data.orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    return order;
  }
}

/** The holds (rules "Capacity") as plain rows in `StoreData.holds`. */
export class InMemoryHoldRepository extends HoldRepository {
  constructor(private readonly data: StoreData) {
    super();
  }

  async lockCapacity(productKeys: readonly number[]): Promise<void> {
    this.data.capacityLocks.push([...productKeys]);
  }

  async heldByKey(
    productKeys: readonly number[],
    now: number,
    readAt: number,
    except: HeldExcept = {},
  ): Promise<Map<number, number>> {
    return this.sum(
      productKeys,
      now,
      (h) =>
        h.owner !== except.owner &&
        h.id !== except.holdId &&
        (h.settledAt === null || h.settledAt > readAt),
    );
  }

  async add(holds: readonly NewHold[]): Promise<Hold[]> {
    const added = holds.map((h) => ({
      id: Math.max(0, ...this.data.holds.map((held) => held.id)) + 1,
      owner: h.owner,
      productKey: h.productKey,
      quantity: h.quantity,
      expiresAt: h.expiresAt,
      released: false,
      sold: false,
      claimToken: h.claimToken ?? null,
      claimedBy: null,
      settledAt: null,
    }));
    for (const h of added) this.data.holds.push(h);
    return structuredClone(added);
  }

  async find(id: number): Promise<Hold | undefined> {
    return structuredClone(this.data.holds.find((h) => h.id === id));
  }

  async findByClaimToken(token: string): Promise<Hold | undefined> {
    return structuredClone(this.data.holds.find((h) => h.claimToken === token));
  }

  async placesOf(owner: string): Promise<Places[]> {
    return this.of(owner).map(({ productKey, quantity }) => ({ productKey, quantity }));
  }

  async isHeld(owner: string, now: number): Promise<boolean> {
    return this.of(owner).every((h) => !h.released && h.expiresAt > now);
  }

  async keep(owner: string, until: number, sold = false): Promise<void> {
    for (const h of this.of(owner)) {
      Object.assign(h, { released: false, expiresAt: until, sold: h.sold || sold });
    }
    for (const u of this.data.couponUses) {
      if (u.owner === owner) Object.assign(u, { released: false, expiresAt: until });
    }
  }

  async settle(owner: string, at: number, until: number): Promise<void> {
    for (const h of this.of(owner)) {
      if (h.settledAt === null) Object.assign(h, { settledAt: at, expiresAt: until });
    }
    for (const u of this.data.couponUses) {
      if (u.owner === owner && u.settledAt === null) {
        Object.assign(u, { settledAt: at, expiresAt: until });
      }
    }
  }

  async release(owner: string): Promise<void> {
    for (const h of this.of(owner)) h.released = true;
    for (const u of this.data.couponUses) if (u.owner === owner) u.released = true;
  }

  async releaseHold(holdId: number): Promise<void> {
    for (const h of this.data.holds) if (h.id === holdId) h.released = true;
  }

  async claim(holdId: number, by: string, now: number): Promise<boolean> {
    const hold = this.data.holds.find((h) => h.id === holdId && !h.released && h.expiresAt > now);
    if (!hold) return false;
    Object.assign(hold, { released: true, claimedBy: by });
    return true;
  }

  async giveBack(by: string, now: number): Promise<Hold[]> {
    const given = this.data.holds.filter((h) => h.claimedBy === by && h.expiresAt > now);
    for (const h of given) Object.assign(h, { released: false, claimedBy: null });
    return structuredClone(given);
  }

  async claimedBy(by: string): Promise<Hold[]> {
    return structuredClone(this.data.holds.filter((h) => h.claimedBy === by));
  }

  async releaseLent(owner: string): Promise<number> {
    const lent = this.data.holds.filter((h) => h.owner === owner && h.quantity < 0 && !h.released);
    for (const h of lent) h.released = true;
    return lent.length;
  }

  async lentTo(owner: string, productKey: number, now: number): Promise<number> {
    return -this.data.holds
      .filter(
        (h) =>
          h.owner === owner &&
          h.productKey === productKey &&
          h.quantity < 0 &&
          !h.released &&
          h.expiresAt > now,
      )
      .reduce((sum, h) => sum + h.quantity, 0);
  }

  async lockCouponUses(): Promise<void> {}

  async couponUsesHeld(code: string, holder: string | null, now: number, readAt: number) {
    const held = this.data.couponUses.filter(
      (u) =>
        u.code === couponKey(code) &&
        !u.released &&
        u.expiresAt > now &&
        (u.settledAt === null || u.settledAt > readAt),
    );
    return { all: held.length, byHolder: held.filter((u) => u.holder === holder).length };
  }

  async addCouponUse(use: NewCouponUse): Promise<void> {
    this.data.couponUses.push({
      ...use,
      code: couponKey(use.code),
      released: false,
      settledAt: null,
    });
  }

  private of(owner: string): Hold[] {
    return this.data.holds.filter((h) => h.owner === owner);
  }

  private sum(
    productKeys: readonly number[],
    now: number,
    counts: (hold: Hold) => boolean,
  ): Map<number, number> {
    const held = new Map<number, number>();
    for (const h of this.data.holds) {
      if (!productKeys.includes(h.productKey) || h.released || h.expiresAt <= now) continue;
      if (!counts(h)) continue;
      held.set(h.productKey, (held.get(h.productKey) ?? 0) + h.quantity);
    }
    return held;
  }
}

/** The `jobs` table as plain rows in `StoreData.jobs`. */
export class InMemoryJobRepository extends JobRepository {
  constructor(
    private readonly data: StoreData,
    /** Told of every job enqueued, as the real adapter wakes the runner after the commit. */
    private readonly enqueued: () => void = () => undefined,
  ) {
    super();
  }

  async enqueue(job: NewJob, now: number, runAt = now): Promise<void> {
    this.enqueued();
    if (this.find(job.name, job.key ?? null)) return;
    this.data.jobs.push({
      id: Math.max(0, ...this.data.jobs.map((j) => j.id)) + 1,
      name: job.name,
      key: job.key ?? null,
      subject: job.subject ?? null,
      payload: structuredClone(job.payload ?? null),
      attempts: 0,
      requestedAt: now,
      nextAttemptAt: runAt,
      leaseOwner: null,
      leaseUntil: null,
      doneAt: null,
      lastError: null,
    });
  }

  async enqueueAgain(job: NewJob, now: number, againAfterMs = 0): Promise<void> {
    const found = this.find(job.name, job.key ?? null);
    if (!found) return this.enqueue(job, now);
    if (found.doneAt !== null && found.requestedAt <= now - againAfterMs) {
      Object.assign(found, {
        payload: structuredClone(job.payload ?? null),
        doneAt: null,
        failedAt: null,
        attempts: 0,
        nextAttemptAt: now,
        requestedAt: now,
        lastError: null,
      });
    }
  }

  async schedule(name: string, runAt: number, now: number): Promise<void> {
    await this.enqueue({ name, key: 'recurring', payload: null }, now, runAt);
  }

  async lease(
    leases: ReadonlyMap<string, number>,
    owner: string,
    now: number,
  ): Promise<LeasedJob | undefined> {
    const job = this.data.jobs
      .filter(
        (j) =>
          leases.has(j.name) &&
          j.doneAt === null &&
          j.nextAttemptAt <= now &&
          (j.leaseUntil === null || j.leaseUntil < now || j.leaseOwner === owner),
      )
      .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.id - b.id)[0];
    if (!job) return undefined;
    Object.assign(job, {
      leaseOwner: owner,
      leaseUntil: now + leases.get(job.name)!,
      attempts: job.attempts + 1,
    });
    const { id, name, payload, attempts, requestedAt } = job;
    return { id, name, payload: structuredClone(payload), attempts, requestedAt };
  }

  async complete(jobId: number, now: number): Promise<void> {
    const job = this.data.jobs.find((j) => j.id === jobId && j.doneAt === null);
    if (job)
      Object.assign(job, { doneAt: now, leaseOwner: null, leaseUntil: null, lastError: null });
  }

  async fail(jobId: number, now: number, reason: string): Promise<void> {
    const job = this.data.jobs.find((j) => j.id === jobId && j.doneAt === null);
    if (job) {
      Object.assign(job, {
        doneAt: now,
        failedAt: now,
        leaseOwner: null,
        leaseUntil: null,
        lastError: reason,
      });
    }
  }

  async retry(jobId: number, owner: string, nextAttemptAt: number, error: string): Promise<void> {
    const job = this.data.jobs.find((j) => j.id === jobId && j.leaseOwner === owner);
    if (job) {
      Object.assign(job, { nextAttemptAt, leaseOwner: null, leaseUntil: null, lastError: error });
    }
  }

  async reschedule(jobId: number, owner: string, nextRunAt: number): Promise<void> {
    const job = this.data.jobs.find((j) => j.id === jobId && j.leaseOwner === owner);
    if (job) {
      Object.assign(job, {
        nextAttemptAt: nextRunAt,
        attempts: 0,
        leaseOwner: null,
        leaseUntil: null,
        lastError: null,
      });
    }
  }

  private find(name: string, key: string | null): StoredJob | undefined {
    return key === null ? undefined : this.data.jobs.find((j) => j.name === name && j.key === key);
  }
}

export class InMemoryWebhookEventRepository extends WebhookEventRepository {
  constructor(private readonly data: StoreData) {
    super();
  }

  async record(event: { id: string; type: string }, now: number): Promise<boolean> {
    if (this.data.webhookEvents.has(event.id)) return false;
    this.data.webhookEvents.set(event.id, {
      type: event.type,
      receivedAt: now,
      outcome: 'received',
    });
    return true;
  }

  async setOutcome(id: string, outcome: string): Promise<void> {
    const event = this.data.webhookEvents.get(id);
    if (event) event.outcome = outcome;
  }

  async recent(limit: number, source: EventSource): Promise<RecordedEvent[]> {
    return [...this.data.webhookEvents.values()]
      .filter((e) => e.type.startsWith(SHOP_EVENT_PREFIX) === (source === 'shop'))
      .sort((a, b) => b.receivedAt - a.receivedAt)
      .slice(0, limit);
  }
}

export class InMemoryTicketRepository extends TicketRepository {
  constructor(private readonly data: StoreData) {
    super();
  }

  async issue(tickets: readonly NewTicket[], now: number): Promise<void> {
    for (const t of tickets) {
      const taken = this.data.tickets.some(
        (s) => s.orderId === t.orderId && s.linePosition === t.linePosition && s.seat === t.seat,
      );
      if (!taken) {
        this.data.tickets.push({
          ...t,
          guestList: t.guestList ?? false,
          status: 'valid',
          issuedAt: now,
          code: newTicketCode(),
          revokedAt: null,
          company: null,
          holderEmail: null,
          generation: 0,
        });
      }
    }
  }

  async find(id: string): Promise<StoredTicket | undefined> {
    const found = this.data.tickets.find((t) => t.id === id);
    return found ? structuredClone(found) : undefined;
  }

  async forOrder(orderId: string): Promise<StoredTicket[]> {
    return this.data.tickets
      .filter((t) => t.orderId === orderId)
      .sort((a, b) => a.linePosition - b.linePosition || a.seat - b.seat)
      .map((t) => structuredClone(t));
  }

  async validForEmail(email: string): Promise<StoredTicket[]> {
    const wanted = email.trim().toLowerCase();
    const orders = [...this.data.orders.values()]
      .filter((o) => o.context.email?.toLowerCase() === wanted)
      .sort((a, b) => b.createdAt - a.createdAt);
    return orders.flatMap((o) =>
      this.data.tickets
        .filter((t) => t.orderId === o.id && t.status === 'valid' && t.holderEmail === null)
        .map((t) => structuredClone(t)),
    );
  }

  async validForOrders(orderIds: readonly string[]): Promise<StoredTicket[]> {
    return orderIds.flatMap((id) =>
      this.data.tickets
        .filter((t) => t.orderId === id && t.status === 'valid' && t.holderEmail === null)
        .sort((a, b) => a.linePosition - b.linePosition || a.seat - b.seat)
        .map((t) => structuredClone(t)),
    );
  }

  async passedOnTo(email: string): Promise<StoredTicket[]> {
    const wanted = email.trim().toLowerCase();
    return this.data.tickets
      .filter((t) => t.status === 'valid' && t.holderEmail?.toLowerCase() === wanted)
      .map((t) => structuredClone(t));
  }

  async setHolder(id: string, holder: TicketHolder, generation?: number): Promise<boolean> {
    const t = this.data.tickets.find((x) => x.id === id);
    if (!t || (generation !== undefined && t.generation !== generation)) return false;
    Object.assign(t, { holder: holder.name, company: holder.company });
    return true;
  }

  /** The order service's tests check in nobody. */
  async isCheckedIn(): Promise<boolean> {
    return false;
  }

  async transfersSince(): Promise<number> {
    return 0;
  }

  async givenBy(): Promise<string | null> {
    return null;
  }

  async lockCurrent(id: string, generation: number): Promise<boolean> {
    const t = this.data.tickets.find((x) => x.id === id);
    return t?.generation === generation && t.status === 'valid';
  }

  async revokeReturned(id: string, generation: number, now: number): Promise<boolean> {
    if (!(await this.lockCurrent(id, generation))) return false;
    await this.markRefunded([id], now);
    return true;
  }

  async transfer(
    id: string,
    generation: number,
    to: TicketTransfer,
  ): Promise<StoredTicket | TransferRefusal> {
    const t = this.data.tickets.find((x) => x.id === id);
    if (!t || t.generation !== generation) return 'stale';
    if (t.status !== 'valid') return 'revoked';
    Object.assign(t, {
      generation: generation + 1,
      code: newTicketCode(),
      holder: to.name,
      company: to.company,
      holderEmail: to.email,
    });
    return structuredClone(t);
  }

  async revokeForOrder(orderId: string, now: number): Promise<number> {
    let changed = 0;
    for (const t of this.data.tickets) {
      if (t.orderId !== orderId || t.status !== 'valid') continue;
      Object.assign(t, { status: 'revoked', revokedAt: now });
      changed += 1;
    }
    return changed;
  }

  async restoreForOrder(orderId: string): Promise<number> {
    let changed = 0;
    for (const t of this.data.tickets) {
      if (t.orderId !== orderId || t.status !== 'revoked') continue;
      if (this.data.refundedTickets.has(t.id)) continue;
      Object.assign(t, { status: 'valid', revokedAt: null });
      changed += 1;
    }
    return changed;
  }

  async refundable(orderId: string): Promise<RefundableTicket[]> {
    return this.data.tickets
      .filter((t) => t.orderId === orderId)
      .map((t) => ({
        id: t.id,
        linePosition: t.linePosition,
        seat: t.seat,
        checkedIn: false,
        refunded: this.data.refundedTickets.has(t.id),
      }));
  }

  async markRefunded(ticketIds: readonly string[], now: number): Promise<void> {
    for (const t of this.data.tickets) {
      if (!ticketIds.includes(t.id) || this.data.refundedTickets.has(t.id)) continue;
      this.data.refundedTickets.add(t.id);
      Object.assign(t, { status: 'revoked', revokedAt: t.revokedAt ?? now });
    }
  }

  async eventSales(eventIds: readonly number[] | null): Promise<TicketSale[]> {
    const orders = new Set(
      this.data.tickets
        .filter((t) => eventIds === null || eventIds.includes(t.eventId))
        .map((t) => t.orderId),
    );
    const sales = new Map<string, TicketSale>();
    for (const t of this.data.tickets) {
      if (!orders.has(t.orderId)) continue;
      // A ticket of an order made in the shop has no order here (decision 15).
      const order = this.data.orders.get(t.orderId);
      const line = this.data.lines.get(t.orderId)?.[t.linePosition];
      const key = `${t.orderId}:${t.linePosition}`;
      const sale = sales.get(key) ?? {
        eventId: t.eventId,
        variationId: t.variationId,
        eventName: t.eventName,
        startsAt: t.startsAt,
        venue: t.venue,
        tier: t.tier,
        orderId: t.orderId,
        seats: 0,
        validSeats: 0,
        issuedAt: t.issuedAt,
        unitAmount: line?.unitAmount ?? 0,
        orderSubtotal: order?.context.subtotal ?? 0,
        orderTotal: order?.context.total ?? 0,
        orderRefunded: order?.context.refundedAmount ?? 0,
        inShop: !order || order.context.catalogOrderId !== null,
      };
      sale.seats += 1;
      if (t.status === 'valid') sale.validSeats += 1;
      sale.issuedAt = Math.min(sale.issuedAt, t.issuedAt);
      sales.set(key, sale);
    }
    return [...sales.values()];
  }
}

export class InMemoryContactRepository extends ContactRepository {
  constructor(private readonly data: StoreData) {
    super();
  }

  async add(message: { name: string; email: string; message: string }, now: number) {
    this.data.contacts.push({ ...message, createdAt: now });
  }
}

/**
 * The order service's view of the waiting list with nobody on it: no offers to use or give
 * back. The waiting list itself is tested on the real stores (backend/test/waitlist).
 */
export class EmptyWaitlistRepository extends WaitlistRepository {
  private none(): never {
    throw new Error('the in-memory store keeps no waiting list');
  }
  add = () => this.none();
  findByConfirmToken = async () => undefined;
  findByUnsubscribeToken = async () => undefined;
  find = async () => undefined;
  confirm = async () => false;
  ahead = async () => 0;
  remove = async () => undefined;
  waitedUnits = async () => [];
  queue = async () => [];
  capPublicFree = async () => undefined;
  markOffered = async () => false;
  createOffer = () => this.none();
  findOffer = async () => undefined;
  findOfferById = async () => undefined;
  markOfferClaimed = async () => undefined;
  markOfferActive = async () => undefined;
  declineOffer = async () => false;
  withdrawOffer = async () => false;
  expireOffers = async () => 0;
  counts = async () => [];
  removeStartedBefore = async () => 0;
}

/**
 * Transactions one at a time (as SQLite's write lock runs them), undone when the work
 * throws, like the real store's.
 */
export class InMemoryStore extends Store {
  readonly orders: InMemoryOrderRepository;
  readonly holds: InMemoryHoldRepository;
  readonly jobs: InMemoryJobRepository;
  readonly webhookEvents: InMemoryWebhookEventRepository;
  readonly contacts: InMemoryContactRepository;
  readonly tickets: InMemoryTicketRepository;
  readonly waitlist = new EmptyWaitlistRepository();
  /** Transactions begun, committed or not. */
  transactions = 0;
  private queue: Promise<unknown> = Promise.resolve();
  /** What the running transaction leaves for after its commit. */
  private pending = new Map<string, () => void>();

  constructor(
    readonly data = new StoreData(),
    private readonly signal: JobSignal | null = null,
  ) {
    super();
    this.orders = new InMemoryOrderRepository(data);
    this.holds = new InMemoryHoldRepository(data);
    this.jobs = new InMemoryJobRepository(data, () =>
      this.transaction.afterCommit(() => this.signal?.wake(), 'jobs.wake'),
    );
    this.webhookEvents = new InMemoryWebhookEventRepository(data);
    this.contacts = new InMemoryContactRepository(data);
    this.tickets = new InMemoryTicketRepository(data);
  }

  /** The repositories a transaction reaches by their port, as the real store binds them. */
  private readonly transaction: Transaction = {
    afterCommit: (work, key) => {
      this.pending.set(key ?? `#${this.pending.size}`, work);
    },
    get: <R>(port: RepositoryPort<R>): R => {
      const bound = new Map<RepositoryPort<unknown>, unknown>([
        [OrderRepository, this.orders],
        [HoldRepository, this.holds],
        [JobRepository, this.jobs],
        [WebhookEventRepository, this.webhookEvents],
        [ContactRepository, this.contacts],
        [TicketRepository, this.tickets],
        [WaitlistRepository, this.waitlist],
      ]).get(port);
      if (!bound) throw new Error(`the in-memory store has no ${port.name}`);
      return bound as R;
    },
  };

  write<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      this.transactions += 1;
      const before = this.data.snapshot();
      this.pending = new Map();
      try {
        const result = await work(this.transaction);
        for (const after of this.pending.values()) after();
        return result;
      } catch (err) {
        this.data.restore(before);
        throw err;
      } finally {
        this.pending = new Map();
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
