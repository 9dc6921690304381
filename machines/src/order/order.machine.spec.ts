import fc from 'fast-check';
import { initialTransition } from 'xstate';
import {
  initialOrder,
  orderMachine,
  isRefund,
  ORDER_STATUSES,
  restoreOrder,
  restoreOrderActor,
  toSessionStatus,
  transitionOrder,
  type OrderEvent,
  type OrderInput,
  type OrderStatus,
  type OrderTransition,
} from './order.machine.js';

const TOTALS: OrderInput = { subtotal: 5000, discount: 500, total: 4500 };
const FREE: OrderInput = { subtotal: 1500, discount: 1500, total: 0 };

const paidHeld: OrderEvent = {
  type: 'payment.succeeded',
  reservationHeld: true,
  capacityRemains: true,
  paymentReference: 'pi_1',
  email: 'a@example.org',
  name: 'Alex Muster',
};
const paidLate: OrderEvent = { ...paidHeld, reservationHeld: false, capacityRemains: true };
const paidSoldOut: OrderEvent = { ...paidHeld, reservationHeld: false, capacityRemains: false };
const handedOff: OrderEvent = { type: 'handoff.succeeded', catalogOrderId: '4711' };
const refunded: OrderEvent = { type: 'refund.succeeded', refundReference: 're_1' };
const refundedAtProvider: OrderEvent = { type: 'payment.refunded', refundReference: 're_9' };
const disputeOpened: OrderEvent = { type: 'dispute.opened' };
const disputeWon: OrderEvent = { type: 'dispute.won' };

/** Creates an order and sends it the events the way the backend will: load, event, save. */
function run(input: OrderInput, events: OrderEvent[]) {
  const created = initialOrder(input);
  let order: OrderTransition = { ...created, changed: true };
  const steps: OrderTransition[] = [];
  for (const event of events) {
    order = transitionOrder(order.status, order.context, event);
    steps.push(order);
  }
  return { created, order, steps, effects: steps.flatMap((s) => s.effects) };
}

describe('rules "The order\'s life": creation', () => {
  it('an order with a total opens and waits for its payment, asking for nothing yet', () => {
    const { status, context, effects } = initialOrder(TOTALS);
    expect(status).toBe('open');
    expect(effects).toEqual([]);
    expect(context).toEqual({
      subtotal: 5000,
      discount: 500,
      total: 4500,
      email: null,
      buyerName: null,
      paymentReference: null,
      catalogOrderId: null,
      refundReference: null,
    });
  });

  it('isFree: a free order (total 0) is paid at creation: places held, tickets issued, hand-off enqueued', () => {
    const { status, effects } = initialOrder({ ...FREE, email: 'a@example.org' });
    expect(status).toBe('paid');
    expect(effects).toEqual(['reservation.hold', 'tickets.issue', 'handoff.enqueue']);
  });

  it('money is integer cents and the total is max(0, subtotal − discount) (rules "Deliberate deviations")', () => {
    expect(() => initialOrder({ subtotal: 49.9, discount: 0, total: 49.9 })).toThrow();
    expect(() => initialOrder({ subtotal: 100, discount: 0, total: -1 })).toThrow();
    expect(() => initialOrder({ subtotal: 100, discount: 10, total: 100 })).toThrow();
    expect(initialOrder({ subtotal: 100, discount: 500, total: 0 }).status).toBe('paid');
  });
});

describe('rules "Webhook" and "Capacity": payment', () => {
  it('hasHeldReservation: a payment while the places are held pays the order, records the payment and asks for tickets and the hand-off', () => {
    const { order } = run(TOTALS, [paidHeld]);
    expect(order.status).toBe('paid');
    expect(order.effects).toEqual(['reservation.hold', 'tickets.issue', 'handoff.enqueue']);
    expect(order.context).toMatchObject({
      paymentReference: 'pi_1',
      email: 'a@example.org',
      buyerName: 'Alex Muster',
    });
  });

  it('the buyer from the payment page fills in what the checkout did not know; a missing value erases nothing', () => {
    const created = initialOrder({ ...TOTALS, email: 'checkout@example.org' });
    const pending = transitionOrder(created.status, created.context, {
      type: 'payment.pending',
      name: 'Alex Muster',
    });
    expect(pending.context).toMatchObject({
      email: 'checkout@example.org',
      buyerName: 'Alex Muster',
    });
    const paid = transitionOrder(pending.status, pending.context, {
      type: 'payment.succeeded',
      reservationHeld: true,
      capacityRemains: true,
      email: 'page@example.org',
    });
    expect(paid.context).toMatchObject({
      email: 'page@example.org',
      buyerName: 'Alex Muster',
      paymentReference: null,
    });
  });

  it('hasCapacityForLatePayment: a payment after the session expired is accepted when capacity remains, places taken again', () => {
    const { order } = run(TOTALS, [{ type: 'session.expired' }, paidLate]);
    expect(order.status).toBe('latePaymentAccepted');
    expect(order.effects).toEqual(['reservation.hold', 'tickets.issue', 'handoff.enqueue']);
    expect(toSessionStatus(order.status)).toBe('paid');
  });

  it('a payment on an open order whose reservation lapsed before the expiry event counts as late', () => {
    expect(run(TOTALS, [paidLate]).order.status).toBe('latePaymentAccepted');
    expect(run(TOTALS, [paidSoldOut]).order.status).toBe('refundPending');
  });

  it('a late payment without capacity is refunded automatically and the places stay free', () => {
    const { order, steps } = run(TOTALS, [{ type: 'session.expired' }, paidSoldOut, refunded]);
    expect(steps[1]!.status).toBe('refundPending');
    expect(steps[1]!.effects).toEqual(['reservation.release', 'refund.request']);
    expect(steps[1]!.context.paymentReference).toBe('pi_1');
    expect(order.status).toBe('refunded');
    expect(order.context.refundReference).toBe('re_1');
    expect(toSessionStatus(order.status)).toBe('canceled');
    expect(isRefund(order.status)).toBe(true);
  });

  it('the reservation held flag is not trusted once the order is expired or canceled: only capacity decides', () => {
    const expired = run(TOTALS, [
      { type: 'session.expired' },
      { ...paidHeld, capacityRemains: false },
    ]);
    expect(expired.order.status).toBe('refundPending');
    const canceled = run(TOTALS, [{ type: 'order.cancel' }, paidLate]);
    expect(canceled.order.status).toBe('latePaymentAccepted');
  });

  it('a paid order is handed off once; the reservation then only outlives the catalog caches', () => {
    const { order } = run(TOTALS, [paidHeld, handedOff]);
    expect(order.status).toBe('handedOff');
    expect(order.effects).toEqual(['reservation.settle']);
    expect(order.context.catalogOrderId).toBe('4711');
    const late = run(TOTALS, [{ type: 'session.expired' }, paidLate, handedOff]);
    expect(late.order.status).toBe('handedOff');
  });
});

describe('rules "Tickets and the door": a refund at the provider revokes the tickets', () => {
  it.each([
    ['paid', [paidHeld]],
    ['late payment accepted', [{ type: 'session.expired' } as const, paidLate]],
    ['handed off', [paidHeld, handedOff]],
  ] as const)(
    'a %s order refunded in full is refunded: places released, tickets revoked, once',
    (_name, before) => {
      const { order, effects } = run(TOTALS, [...before, refundedAtProvider, refundedAtProvider]);
      expect(order).toMatchObject({ status: 'refunded', changed: false });
      expect(order.context.refundReference).toBe('re_9');
      expect(effects.filter((e) => e === 'tickets.revoke')).toHaveLength(1);
      expect(effects.filter((e) => e === 'reservation.release')).toHaveLength(
        before.includes(paidLate) ? 2 : 1,
      );
      expect(toSessionStatus(order.status)).toBe('canceled');
    },
  );

  it('wasPaidAtProvider: a free order took no money, so no refund reaches it', () => {
    expect(run(FREE, [refundedAtProvider]).order).toMatchObject({ status: 'paid', changed: false });
  });

  it('a hand-off arriving after the refund changes nothing', () => {
    const { order } = run(TOTALS, [paidHeld, refundedAtProvider, handedOff]);
    expect(order).toMatchObject({ status: 'refunded', changed: false, effects: [] });
    expect(order.context.catalogOrderId).toBeNull();
  });

  it('a refund before any payment, or of an open, expired or canceled order, changes nothing', () => {
    for (const events of [
      [],
      [{ type: 'session.expired' } as const],
      [{ type: 'order.cancel' } as const],
      [{ type: 'payment.pending' } as const],
    ]) {
      const { order } = run(TOTALS, [...events, refundedAtProvider]);
      expect(order.changed).toBe(false);
    }
  });

  it.each([
    ['paid', [paidHeld], 'paid'],
    ['late payment accepted', [{ type: 'session.expired' } as const, paidLate], 'paid'],
    ['handed off', [paidHeld, handedOff], 'handedOff'],
  ] as const)(
    'a disputed %s order: tickets revoked once while the bank decides, places kept; won, they admit again',
    (_name, before, after) => {
      const opened = run(TOTALS, [...before, disputeOpened, disputeOpened]);
      expect(opened.order).toMatchObject({ status: 'disputed', changed: false });
      expect(opened.effects.filter((e) => e === 'tickets.revoke')).toHaveLength(1);
      expect(opened.effects.filter((e) => e === 'reservation.release')).toHaveLength(
        before.includes(paidLate) ? 1 : 0,
      );
      expect(toSessionStatus(opened.order.status)).toBe('paid');

      const won = run(TOTALS, [...before, disputeOpened, disputeWon, disputeWon]);
      expect(won.order).toMatchObject({ status: after, changed: false });
      expect(won.effects.filter((e) => e === 'tickets.restore')).toHaveLength(1);
    },
  );

  it('the hand-off goes on while disputed, and a won dispute then finds the order in WooCommerce', () => {
    const { order, effects } = run(TOTALS, [paidHeld, disputeOpened, handedOff]);
    expect(order).toMatchObject({ status: 'disputed', changed: true });
    expect(order.context.catalogOrderId).toBe('4711');
    expect(effects.filter((e) => e === 'reservation.settle')).toHaveLength(1);
    expect(run(TOTALS, [paidHeld, disputeOpened, handedOff, disputeWon]).order.status).toBe(
      'handedOff',
    );
  });

  it('a refund of a disputed order releases its places and revokes nothing twice', () => {
    const { order, effects } = run(TOTALS, [paidHeld, disputeOpened, refundedAtProvider]);
    expect(order.status).toBe('refunded');
    expect(effects.filter((e) => e === 'tickets.revoke')).toHaveLength(1);
    expect(effects.filter((e) => e === 'reservation.release')).toHaveLength(1);
  });

  it('a dispute of an unpaid, free or refunded order, or a won dispute of an undisputed one, changes nothing', () => {
    for (const events of [
      [disputeOpened],
      [{ type: 'session.expired' } as const, disputeOpened],
      [paidHeld, disputeWon],
      [paidHeld, refundedAtProvider, disputeOpened],
      [paidSoldOut, disputeOpened],
    ]) {
      expect(run(TOTALS, events).order.changed).toBe(false);
    }
    expect(run(FREE, [disputeOpened]).order).toMatchObject({ status: 'paid', changed: false });
  });

  it("the provider's report of the server's own refund closes a pending refund without revoking again", () => {
    const { order, effects } = run(TOTALS, [paidSoldOut, refundedAtProvider, refunded]);
    expect(order.status).toBe('refunded');
    expect(order.context.refundReference).toBe('re_9');
    expect(effects).not.toContain('tickets.revoke');
  });
});

describe('rules "Cancelled in the shop": the organizer cancels a paid order in WooCommerce', () => {
  const shopCancelled: OrderEvent = { type: 'shop.cancelled' };

  it.each([
    ['paid', [paidHeld]],
    ['late payment accepted', [{ type: 'session.expired' } as const, paidLate]],
    ['handed off', [paidHeld, handedOff]],
  ] as const)(
    'a %s order: places released (the shop restocked where it does not itself), tickets revoked, once',
    (_name, before) => {
      const { order, steps } = run(TOTALS, [...before, shopCancelled, shopCancelled]);
      expect(order).toMatchObject({ status: 'canceledInShop', changed: false });
      expect(steps.at(-2)?.effects).toEqual([
        'reservation.release',
        'tickets.revoke',
        'shop.restock',
      ]);
      expect(toSessionStatus(order.status)).toBe('canceled');
    },
  );

  it('a free order (Gästeliste) too: no money was taken, its tickets stop admitting', () => {
    const { order, effects } = run(FREE, [shopCancelled]);
    expect(order.status).toBe('canceledInShop');
    expect(effects).toEqual(['reservation.release', 'tickets.revoke', 'shop.restock']);
  });

  it('a disputed order only frees its places: its tickets are revoked already', () => {
    const { order, steps } = run(TOTALS, [paidHeld, disputeOpened, shopCancelled]);
    expect(order.status).toBe('canceledInShop');
    expect(steps.at(-1)?.effects).toEqual(['reservation.release', 'shop.restock']);
  });

  it('an open, expired, refunded order, or a late refund or hand-off afterwards, changes nothing', () => {
    for (const events of [
      [],
      [{ type: 'session.expired' } as const],
      [paidHeld, refundedAtProvider],
    ]) {
      expect(run(TOTALS, [...events, shopCancelled]).order.changed).toBe(false);
    }
    const after = run(TOTALS, [paidHeld, shopCancelled, handedOff, refundedAtProvider, paidHeld]);
    expect(after.order).toMatchObject({ status: 'canceledInShop', changed: false });
  });
});

describe('async payment methods (SEPA and the like)', () => {
  it('payment.pending keeps the places until the payment settles', () => {
    const { order } = run(TOTALS, [{ type: 'payment.pending', email: 'b@example.org' }]);
    expect(order.status).toBe('processing');
    expect(order.effects).toEqual(['reservation.hold']);
    expect(order.context.email).toBe('b@example.org');
  });

  it('payment.pending then payment.succeeded pays the order', () => {
    const { order, effects } = run(TOTALS, [{ type: 'payment.pending' }, paidHeld]);
    expect(order.status).toBe('paid');
    expect(effects.filter((e) => e === 'handoff.enqueue')).toHaveLength(1);
  });

  it('payment.pending then payment.failed cancels the order and releases the places', () => {
    const { order } = run(TOTALS, [{ type: 'payment.pending' }, { type: 'payment.failed' }]);
    expect(order.status).toBe('canceled');
    expect(order.effects).toEqual(['reservation.release']);
  });

  it('a pending payment outlives the session: session.expired does not close it', () => {
    const { order } = run(TOTALS, [{ type: 'payment.pending' }, { type: 'session.expired' }]);
    expect(order.status).toBe('processing');
    expect(order.changed).toBe(false);
  });
});

describe('closing an open order', () => {
  it.each([
    ['session.expired', 'expired'],
    ['payment.failed', 'canceled'],
    ['order.cancel', 'canceled'],
  ] as const)('%s closes an open order as %s and releases its places', (type, status) => {
    const { order } = run(TOTALS, [{ type }]);
    expect(order.status).toBe(status);
    expect(order.effects).toEqual(['reservation.release']);
  });
});

describe('duplicates and late events are harmless (rules "Webhook")', () => {
  it('a second payment.succeeded after paid changes nothing, not even the payment reference', () => {
    const { order } = run(TOTALS, [
      paidHeld,
      { ...paidHeld, paymentReference: 'pi_2', email: 'other@example.org', name: 'Kim' },
    ]);
    expect(order).toMatchObject({ status: 'paid', changed: false, effects: [] });
    expect(order.context).toMatchObject({
      paymentReference: 'pi_1',
      email: 'a@example.org',
      buyerName: 'Alex Muster',
    });
  });

  it('session.expired, payment.failed, payment.pending and order.cancel after paid change nothing', () => {
    const { steps } = run(TOTALS, [
      paidHeld,
      { type: 'session.expired' },
      { type: 'payment.failed' },
      { type: 'payment.pending' },
      { type: 'order.cancel' },
    ]);
    for (const step of steps.slice(1)) {
      expect(step).toMatchObject({ status: 'paid', changed: false, effects: [] });
    }
  });

  it('never two hand-offs: a repeated handoff.succeeded and a repeated payment enqueue nothing', () => {
    const { effects, order } = run(TOTALS, [paidHeld, paidHeld, handedOff, handedOff, paidLate]);
    expect(effects.filter((e) => e === 'handoff.enqueue')).toHaveLength(1);
    expect(effects.filter((e) => e === 'reservation.settle')).toHaveLength(1);
    expect(order).toMatchObject({ status: 'handedOff', changed: false });
  });

  it('a refund only after a payment: refund.succeeded without a pending refund changes nothing', () => {
    for (const events of [[], [paidHeld], [{ type: 'session.expired' } as const]]) {
      const { order } = run(TOTALS, [...events, refunded]);
      expect(order.changed).toBe(false);
      expect(order.context.refundReference).toBeNull();
    }
  });

  it('a refunded order stays refunded: a repeated payment is not refunded twice', () => {
    const { effects, order } = run(TOTALS, [paidSoldOut, paidSoldOut, refunded, paidLate]);
    expect(effects.filter((e) => e === 'refund.request')).toHaveLength(1);
    expect(order).toMatchObject({ status: 'refunded', changed: false });
  });

  it('an expired order does not expire twice and a canceled one is not canceled twice', () => {
    expect(
      run(TOTALS, [{ type: 'session.expired' }, { type: 'session.expired' }]).order,
    ).toMatchObject({ status: 'expired', changed: false, effects: [] });
    expect(run(TOTALS, [{ type: 'order.cancel' }, { type: 'payment.failed' }]).order).toMatchObject(
      {
        status: 'canceled',
        changed: false,
        effects: [],
      },
    );
  });
});

describe('restoring a stored order', () => {
  it('restoreOrder resolves every stored status to a snapshot an actor can continue from', () => {
    const { context } = initialOrder(TOTALS);
    for (const status of ORDER_STATUSES) {
      const snapshot = restoreOrder(status, context);
      expect(snapshot.value).toBe(status);
      const final = status === 'refunded' || status === 'canceledInShop';
      expect(snapshot.status).toBe(final ? 'done' : 'active');
    }
    const actor = restoreOrderActor('open', context).start();
    expect(actor.getSnapshot().can(paidHeld)).toBe(true);
    expect(actor.getSnapshot().can(handedOff)).toBe(false);
    actor.send(paidHeld);
    expect(actor.getSnapshot().value).toBe('paid');
    actor.stop();
  });

  it('a status or context the machine does not know is refused, not guessed', () => {
    const { context } = initialOrder(TOTALS);
    expect(() => restoreOrder('created' as OrderStatus, context)).toThrow();
    expect(() => restoreOrder('shipped' as OrderStatus, context)).toThrow();
    expect(() => restoreOrder('open', { ...context, total: 12.5 })).toThrow();
  });

  it('transitionOrder needs no actor and leaves its arguments untouched', () => {
    const created = initialOrder(TOTALS);
    const before = structuredClone(created.context);
    const next = transitionOrder(created.status, created.context, paidHeld);
    expect(next.changed).toBe(true);
    expect(created.context).toEqual(before);
  });

  it('the API status of every order state (sessionStatusSchema)', () => {
    expect(Object.fromEntries(ORDER_STATUSES.map((s) => [s, toSessionStatus(s)]))).toEqual({
      open: 'open',
      processing: 'processing',
      paid: 'paid',
      latePaymentAccepted: 'paid',
      handedOff: 'paid',
      disputed: 'paid',
      expired: 'expired',
      canceled: 'canceled',
      refundPending: 'canceled',
      refunded: 'canceled',
      canceledInShop: 'canceled',
    });
  });
});

describe('initialOrder, computed once per branch', () => {
  it("equals the machine's own initial transition for any valid totals, free or not", () => {
    const totals = fc
      .tuple(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 }))
      .map(([subtotal, discount]) => ({
        subtotal,
        discount: Math.min(discount, subtotal),
        total: subtotal - Math.min(discount, subtotal),
      }));
    fc.assert(
      fc.property(totals, (input) => {
        const [snapshot] = initialTransition(orderMachine, input);
        const order = initialOrder(input);
        expect(order.status).toBe(snapshot.value);
        expect(order.context).toEqual(snapshot.context);
        expect(order.effects).toEqual(
          input.total === 0 ? ['reservation.hold', 'tickets.issue', 'handoff.enqueue'] : [],
        );
      }),
      { numRuns: 200 },
    );
  });

  it('still refuses totals that do not add up', () => {
    expect(() => initialOrder({ subtotal: 1000, discount: 100, total: 950 })).toThrow();
  });
});
