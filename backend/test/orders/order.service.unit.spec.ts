import type { OrderJob, OrderJobPayload } from '../../src/orders/order-jobs.js';
import { HELD_UNTIL } from '../../src/orders/order.service.js';
import type { Order } from '../../src/orders/orders.port.js';
import type { StoredJob } from '../support/in-memory-store.js';
import {
  delivery,
  draft,
  draftLine,
  newOrderService,
  openOrder,
  paymentEvent,
} from '../support/order-fixtures.js';

// The order service over typed in-memory fakes: load → event → save, and the effects the
// order machine lists, run in the same transaction (rules "The order's life").

type Fixture = ReturnType<typeof newOrderService>;

const holdsOf = (f: Fixture, orderId: string) => f.data.holds.filter((h) => h.owner === orderId);
const jobsOf = (f: Fixture, orderId: string) => f.data.jobs.filter((j) => j.subject === orderId);
const handOffOf = (f: Fixture, orderId: string) =>
  jobsOf(f, orderId).find((j) => j.name === 'order-handoff')!;
/** A stored job as its handler gets it. */
const asOrderJob = (job: StoredJob): OrderJob => ({
  id: job.id,
  payload: job.payload as OrderJobPayload,
});
const stored = (f: Fixture, orderId: string) => f.data.orders.get(orderId)!;

/** Lets the order's hold run out, as 31 minutes without an expiry event would. */
function lapse(f: Fixture, order: Order): void {
  for (const r of holdsOf(f, order.id)) r.expiresAt = Date.now() - 1;
}

describe('OrderService.place (rules "Capacity")', () => {
  it('creates an open order with its lines and holds until the session expires', async () => {
    const f = newOrderService({ sessionTtlMs: 60_000 });
    const before = Date.now();
    const placed = await f.sut.place(draft([draftLine({ quantity: 3 })]));
    if (!('order' in placed)) throw new Error('expected an order');
    const { order } = placed;
    expect(order).toMatchObject({ status: 'open', provider: 'stripe', sessionId: null });
    expect(order.context).toMatchObject({ subtotal: 7500, total: 7500 });
    expect(order.expiresAt).toBeGreaterThanOrEqual(before + 60_000);
    expect(holdsOf(f, order.id)).toEqual([
      {
        id: 1,
        owner: order.id,
        productKey: 101,
        quantity: 3,
        expiresAt: order.expiresAt,
        released: false,
        sold: false,
        claimToken: null,
        claimedBy: null,
        settledAt: null,
      },
    ]);
    expect(f.data.lines.get(order.id)).toHaveLength(1);
    expect(f.data.capacityLocks).toEqual([[101]]);
    expect(f.data.jobs).toEqual([]);
  });

  it('isFree: a free order is paid at creation, its places held and its hand-off enqueued', async () => {
    const f = newOrderService();
    const placed = await f.sut.place(draft([draftLine()], { discount: 5000, total: 0 }));
    if (!('order' in placed)) throw new Error('expected an order');
    const { order } = placed;
    expect(order).toMatchObject({ status: 'paid', provider: 'none', sessionId: order.id });
    expect(order.paidAt).not.toBeNull();
    expect(holdsOf(f, order.id)[0]!.expiresAt).toBe(HELD_UNTIL);
    // rules "E-mail": the ticket mail is queued by the same paid transition.
    expect(jobsOf(f, order.id)).toMatchObject([{ name: 'ticket-mail' }, { name: 'order-handoff' }]);
    expect(f.wakes()).toBe(1);
  });

  it('stock units two lines share are counted together, and a short one is reported with what is left', async () => {
    const f = newOrderService();
    await openOrder(f, [draftLine({ productKey: 7, stock: 5, quantity: 3 })]);
    const tiers = [
      draftLine({ variationId: 71, productKey: 7, stock: 5, quantity: 1, name: 'Regulär' }),
      draftLine({ variationId: 72, productKey: 7, stock: 5, quantity: 2, name: 'VIP' }),
    ];
    const placed = await f.sut.place(draft(tiers));
    expect(placed).toEqual({ shortages: [{ line: tiers[0], available: 2 }] });
    expect(f.data.orders.size).toBe(1);
  });

  it('unlimited stock takes no capacity lock but is still held', async () => {
    const f = newOrderService();
    const order = await openOrder(f, [draftLine({ productKey: 102, stock: null })]);
    expect(f.data.capacityLocks).toEqual([[]]);
    expect(holdsOf(f, order.id)).toHaveLength(1);
  });
});

describe('OrderService.receive (rules "Webhook")', () => {
  it('hasHeldReservation: a payment pays the order, holds its places and enqueues one hand-off', async () => {
    const f = newOrderService();
    const order = await openOrder(f);
    const event = paymentEvent(order, 'payment.succeeded', {
      email: 'gast@example.org',
      name: 'Karla Kundin',
    });
    expect(await f.sut.receive(delivery(event))).toBe('paid');
    expect(stored(f, order.id)).toMatchObject({
      status: 'paid',
      context: {
        paymentReference: `pi_${order.id}`,
        email: 'gast@example.org',
        buyerName: 'Karla Kundin',
      },
    });
    expect(stored(f, order.id).paidAt).not.toBeNull();
    expect(holdsOf(f, order.id)[0]!.expiresAt).toBe(HELD_UNTIL);
    // rules "E-mail": the ticket mail is queued by the same paid transition.
    expect(jobsOf(f, order.id)).toMatchObject([{ name: 'ticket-mail' }, { name: 'order-handoff' }]);
    expect(f.wakes()).toBe(1);
    // A held reservation needs no current stock: the catalog was read once, into the
    // cache, for the tickets' event details.
    expect(f.catalog.productReads).toBe(1);
  });

  it('a repeated delivery is a duplicate, another event for the same payment changes nothing', async () => {
    const f = newOrderService();
    const order = await openOrder(f);
    const paid = delivery(paymentEvent(order, 'payment.succeeded'), 'evt_once');
    expect(await f.sut.receive(paid)).toBe('paid');
    expect(await f.sut.receive(paid)).toBe('duplicate');
    expect(await f.sut.receive(delivery(paymentEvent(order, 'payment.succeeded')))).toBe(
      'unchanged',
    );
    expect(await f.sut.receive(delivery(paymentEvent(order, 'session.expired')))).toBe('unchanged');
    expect(jobsOf(f, order.id)).toHaveLength(2);
    expect(f.data.webhookEvents.get('evt_once')).toMatchObject({ outcome: 'paid' });
  });

  it('finds the order by its session when the event carries no order id, and records a session the checkout had not', async () => {
    const f = newOrderService();
    const placed = await f.sut.place(draft());
    if (!('order' in placed)) throw new Error('expected an order');
    const event = paymentEvent(placed.order, 'payment.pending', { sessionId: 'cs_late' });
    expect(await f.sut.receive(delivery(event))).toBe('processing');
    expect(stored(f, placed.order.id).sessionId).toBe('cs_late');
    const bySession = paymentEvent(placed.order, 'payment.succeeded', {
      orderId: null,
      sessionId: 'cs_late',
    });
    expect(await f.sut.receive(delivery(bySession))).toBe('paid');
  });

  it('an unknown order, an event the order does not follow and the test event are recorded with their outcome', async () => {
    const f = newOrderService();
    const ghost = paymentEvent({ id: 'ord_x', sessionId: 'cs_x' } as Order, 'payment.succeeded');
    expect(await f.sut.receive(delivery(ghost, 'evt_ghost'))).toBe('unknown_order');
    expect(await f.sut.receive(delivery(null, 'evt_other'))).toBe('ignored');
    expect(
      await f.sut.receive({ id: 'evt_test', label: 'awhh.webhook_test', test: true, event: null }),
    ).toBe('test');
    expect(Object.fromEntries(f.data.webhookEvents)).toMatchObject({
      evt_ghost: { outcome: 'unknown_order' },
      evt_other: { type: 'provider.other', outcome: 'ignored' },
      evt_test: { outcome: 'test' },
    });
  });

  it('session.expired and payment.failed release the places', async () => {
    const f = newOrderService();
    const expired = await openOrder(f);
    const failed = await openOrder(f);
    expect(await f.sut.receive(delivery(paymentEvent(expired, 'session.expired')))).toBe('expired');
    expect(await f.sut.receive(delivery(paymentEvent(failed, 'payment.pending')))).toBe(
      'processing',
    );
    expect(holdsOf(f, failed.id)[0]!.expiresAt).toBe(HELD_UNTIL);
    expect(await f.sut.receive(delivery(paymentEvent(failed, 'payment.failed')))).toBe('canceled');
    for (const order of [expired, failed]) {
      expect(holdsOf(f, order.id).every((r) => r.released)).toBe(true);
    }
  });
});

describe('OrderService: late payments (rules "Capacity")', () => {
  it('hasCapacityForLatePayment: accepted while capacity remains; the catalog is asked only now', async () => {
    const f = newOrderService();
    const order = await openOrder(f);
    await f.sut.receive(delivery(paymentEvent(order, 'session.expired')));
    expect(await f.sut.receive(delivery(paymentEvent(order, 'payment.succeeded')))).toBe('paid');
    expect(stored(f, order.id).status).toBe('latePaymentAccepted');
    expect(holdsOf(f, order.id)[0]).toMatchObject({
      released: false,
      expiresAt: HELD_UNTIL,
    });
    // rules "E-mail": the ticket mail is queued by the same paid transition.
    expect(jobsOf(f, order.id)).toMatchObject([{ name: 'ticket-mail' }, { name: 'order-handoff' }]);
    expect(f.catalog.productReads).toBe(1);
  });

  it('a lapsed reservation without an expiry event counts as late too', async () => {
    const f = newOrderService();
    const order = await openOrder(f);
    lapse(f, order);
    expect(await f.sut.receive(delivery(paymentEvent(order, 'payment.succeeded')))).toBe('paid');
    expect(stored(f, order.id).status).toBe('latePaymentAccepted');
  });

  it('refunds when others took the places meanwhile: refund enqueued, places stay free', async () => {
    const f = newOrderService();
    f.catalog.products = f.catalog.products.map((p) =>
      p.id === 103 ? { ...p, stock_quantity: 2 } : p,
    );
    const shirt = draftLine({ productId: 103, productKey: 103, stock: 2, quantity: 2 });
    const late = await openOrder(f, [shirt]);
    await f.sut.receive(delivery(paymentEvent(late, 'session.expired')));
    await openOrder(f, [shirt]);
    expect(await f.sut.receive(delivery(paymentEvent(late, 'payment.succeeded')))).toBe(
      'refund_pending',
    );
    expect(stored(f, late.id)).toMatchObject({
      status: 'refundPending',
      context: { paymentReference: `pi_${late.id}` },
    });
    expect(holdsOf(f, late.id).every((r) => r.released)).toBe(true);
    expect(jobsOf(f, late.id)).toMatchObject([{ name: 'late-payment-refund' }]);
  });

  it('a tier sharing its parent stock is checked against the parent (rules "Everything the shop sells")', async () => {
    const f = newOrderService();
    f.catalog.products = [
      {
        ...f.catalog.products[0]!,
        id: 500,
        type: 'variable',
        stock_quantity: 4,
        variants: [
          {
            id: 501,
            attributes: [{ name: 'Ticket', option: 'VIP' }],
            price: 40,
            regular_price: 40,
            sale_price: null,
            on_sale: false,
            stock_status: 'instock',
            stock_quantity: null,
            sharesParentStock: true,
            purchasable: true,
            image: null,
          },
        ],
      },
    ];
    const vip = draftLine({ productId: 500, variationId: 501, productKey: 500, stock: 4 });
    const order = await openOrder(f, [vip]);
    await f.sut.receive(delivery(paymentEvent(order, 'session.expired')));
    expect(await f.sut.receive(delivery(paymentEvent(order, 'payment.succeeded')))).toBe('paid');
  });

  it('without the catalog the question stays open: the delivery fails and is not recorded, so a retry applies it', async () => {
    const f = newOrderService();
    const order = await openOrder(f);
    await f.sut.receive(delivery(paymentEvent(order, 'session.expired')));
    f.catalog.down = true;
    const paid = delivery(paymentEvent(order, 'payment.succeeded'), 'evt_retry');
    await expect(f.sut.receive(paid)).rejects.toThrow();
    expect(f.data.webhookEvents.has('evt_retry')).toBe(false);
    expect(stored(f, order.id).status).toBe('expired');
    f.catalog.down = false;
    expect(await f.sut.receive(paid)).toBe('paid');
  });
});

describe('OrderService.reconcile (rules "The order\'s life")', () => {
  it('applies what the provider says about the session, as its webhook would', async () => {
    const f = newOrderService();
    const order = await openOrder(f);
    f.payments.sessions.set(order.sessionId!, paymentEvent(order, 'payment.succeeded'));
    const now = await f.sut.reconcile(order);
    expect(now.status).toBe('paid');
    expect(jobsOf(f, order.id)).toHaveLength(2);
    // Again (a second process, the next sweep): nothing more.
    expect((await f.sut.reconcile(order)).status).toBe('paid');
    expect(jobsOf(f, order.id)).toHaveLength(2);
    expect(f.data.webhookEvents.size).toBe(0);
  });

  it('an open session changes nothing and writes nothing', async () => {
    const f = newOrderService();
    const order = await openOrder(f);
    const transactions = f.store.transactions;
    expect(await f.sut.reconcile(order)).toEqual(order);
    expect(f.store.transactions).toBe(transactions);
  });

  it('an order whose session never opened is canceled once its reservation ran out', async () => {
    const f = newOrderService();
    const placed = await f.sut.place(draft());
    if (!('order' in placed)) throw new Error('expected an order');
    expect((await f.sut.reconcile(placed.order)).status).toBe('open');
    const lapsed = { ...placed.order, expiresAt: Date.now() - 1 };
    expect((await f.sut.reconcile(lapsed)).status).toBe('canceled');
    expect(f.payments.retrieved).toEqual([]);
    expect(holdsOf(f, placed.order.id).every((r) => r.released)).toBe(true);
  });
});

describe('OrderService: outcomes from the jobs', () => {
  it('a hand-off is recorded once: handed off, reservation settled, job done', async () => {
    const f = newOrderService();
    const order = await openOrder(f);
    await f.sut.receive(delivery(paymentEvent(order, 'payment.succeeded')));
    const job = asOrderJob(handOffOf(f, order.id));
    const before = Date.now();
    await f.sut.recordHandOff(job, '4711');
    expect(stored(f, order.id)).toMatchObject({
      status: 'handedOff',
      context: { catalogOrderId: '4711' },
    });
    const settledUntil = holdsOf(f, order.id)[0]!.expiresAt;
    expect(settledUntil).toBeGreaterThanOrEqual(before + f.config.catalogTtlSeconds * 1000);
    expect(settledUntil).toBeLessThan(HELD_UNTIL);
    expect(handOffOf(f, order.id).doneAt).not.toBeNull();
    // A job run twice (its lease ran out) changes nothing more.
    await f.sut.recordHandOff(job, '4712');
    expect(stored(f, order.id).context.catalogOrderId).toBe('4711');
  });

  it('a refund is recorded: refunded with its reference', async () => {
    const f = newOrderService();
    const order = await openOrder(f);
    await f.sut.receive(delivery(paymentEvent(order, 'session.expired')));
    f.catalog.products = [];
    await f.sut.receive(delivery(paymentEvent(order, 'payment.succeeded')));
    await f.sut.recordRefund(asOrderJob(jobsOf(f, order.id)[0]!), 're_1');
    expect(stored(f, order.id)).toMatchObject({
      status: 'refunded',
      context: { refundReference: 're_1' },
    });
  });

  it('order.cancel releases an open order; a paid one stays paid', async () => {
    const f = newOrderService();
    const open = await openOrder(f);
    expect((await f.sut.cancel(open.id))?.status).toBe('canceled');
    const paid = await openOrder(f);
    await f.sut.receive(delivery(paymentEvent(paid, 'payment.succeeded')));
    expect((await f.sut.cancel(paid.id))?.status).toBe('paid');
  });
});

describe('OrderService: tickets (rules "Tickets and the door")', () => {
  it('the paid transition issues one ticket per event seat and queues the mail, in its transaction; never twice', async () => {
    const f = newOrderService();
    const order = await openOrder(f, [
      draftLine({ quantity: 3 }),
      draftLine({ productId: 102, productKey: 102, stock: null, quantity: 1, name: 'Tasche' }),
    ]);
    await f.sut.receive(
      delivery(paymentEvent(order, 'payment.succeeded', { name: 'Karla Kundin' })),
    );
    await f.sut.receive(delivery(paymentEvent(order, 'payment.succeeded')));
    await f.sut.reconcile(stored(f, order.id));
    const tickets = f.data.tickets.filter((t) => t.orderId === order.id);
    expect(tickets.map((t) => [t.eventId, t.seat, t.seats, t.holder, t.status])).toEqual([
      // rules "Named tickets": the buyer holds the first seat until the others are named.
      [101, 1, 3, 'Karla Kundin', 'valid'],
      [101, 2, 3, null, 'valid'],
      [101, 3, 3, null, 'valid'],
    ]);
    expect(jobsOf(f, order.id).filter((j) => j.name === 'ticket-mail')).toHaveLength(1);
  });

  it('a transaction that fails after issuing leaves no tickets behind', async () => {
    const f = newOrderService();
    const order = await openOrder(f);
    const enqueue = f.store.jobs.enqueue.bind(f.store.jobs);
    f.store.jobs.enqueue = async (job, now) => {
      if (job.name === 'order-handoff') throw new Error('disk full');
      return enqueue(job, now);
    };
    await expect(f.sut.receive(delivery(paymentEvent(order, 'payment.succeeded')))).rejects.toThrow(
      'disk full',
    );
    expect(f.data.tickets).toEqual([]);
    expect(stored(f, order.id).status).toBe('open');
  });

  it('the catalog unreachable and never read: the payment is refused for now, nothing issued', async () => {
    const f = newOrderService();
    const order = await openOrder(f);
    f.catalog.down = true;
    await expect(
      f.sut.receive(delivery(paymentEvent(order, 'payment.succeeded'))),
    ).rejects.toThrow();
    expect(f.data.tickets).toEqual([]);
    expect(stored(f, order.id).status).toBe('open');
  });
});
