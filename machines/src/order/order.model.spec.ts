import fc from 'fast-check';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import {
  initialOrder,
  ORDER_STATUSES,
  orderMachine,
  transitionOrder,
  type OrderEvent,
  type OrderInput,
  type OrderStatus,
  type OrderTransition,
} from './order.machine.js';

const TOTALS: OrderInput = { subtotal: 5000, discount: 500, total: 4500 };
const FREE: OrderInput = { subtotal: 1500, discount: 1500, total: 0 };

/** Every neutral event, with each combination of the facts the backend computes. */
const EVENTS: OrderEvent[] = [
  {
    type: 'payment.succeeded',
    reservationHeld: true,
    capacityRemains: true,
    paymentReference: 'pi_1',
    email: 'a@example.org',
    name: 'Alex Muster',
  },
  { type: 'payment.succeeded', reservationHeld: true, capacityRemains: false },
  {
    type: 'payment.succeeded',
    reservationHeld: false,
    capacityRemains: true,
    paymentReference: 'pi_2',
  },
  {
    type: 'payment.succeeded',
    reservationHeld: false,
    capacityRemains: false,
    paymentReference: 'pi_3',
  },
  { type: 'payment.pending', email: 'b@example.org', name: 'Kim Muster' },
  { type: 'payment.failed' },
  { type: 'session.expired' },
  { type: 'order.cancel' },
  { type: 'handoff.succeeded', catalogOrderId: '4711' },
  { type: 'handoff.failed', reason: 'Coupon "fest5" has expired.' },
  { type: 'handoff.retry' },
  // What the provider refunded so far: part of the total, more of it, and all of it (a
  // partial report of the whole amount is no partial refund).
  { type: 'payment.partiallyRefunded', refundReference: 're_p1', amountRefunded: 1000 },
  { type: 'payment.partiallyRefunded', refundReference: 're_p2', amountRefunded: 2500 },
  { type: 'payment.partiallyRefunded', refundReference: 're_p3', amountRefunded: 4500 },
  { type: 'refund.succeeded', refundReference: 're_1' },
  { type: 'payment.refunded', refundReference: 're_2' },
  { type: 'dispute.opened' },
  { type: 'dispute.won' },
  { type: 'shop.cancelled' },
];

/**
 * The events whose every simple path is walked. A refusal and its retry loop, and the
 * partial refunds' amounts, multiply the orders' contexts past what walking every simple
 * path can finish; the shortest paths, every event in every state they reach and the
 * random walks cover them.
 */
const LOOPING = ['handoff.failed', 'handoff.retry', 'payment.partiallyRefunded'];
const SIMPLE_EVENTS = EVENTS.filter((e) => !LOOPING.includes(e.type));

const FINAL: readonly OrderStatus[] = ['refunded', 'canceledInShop'];
const PAID: readonly OrderStatus[] = ['paid', 'latePaymentAccepted', 'handedOff'];
const CLOSED: readonly OrderStatus[] = [
  'expired',
  'canceled',
  'refundPending',
  'refunded',
  'canceledInShop',
];

const count = (steps: { effects: string[] }[], effect: string) =>
  steps.flatMap((s) => s.effects).filter((e) => e === effect).length;

/**
 * Replays events through `transitionOrder` (as the backend will) and checks the order's
 * invariants after every step.
 */
function replay(
  input: OrderInput,
  events: readonly OrderEvent[],
  onStep?: (o: OrderTransition) => void,
) {
  const created = initialOrder(input);
  let order: OrderTransition = { ...created, changed: true };
  const history: { event: OrderEvent | null; order: OrderTransition }[] = [{ event: null, order }];
  // The checkout reserves the places with the order; only effects change that afterwards.
  let placesHeld = true;
  for (const event of events) {
    const before = order;
    order = transitionOrder(before.status, before.context, event);
    history.push({ event, order });
    const steps = history.map((h) => h.order);
    const payments = history.filter((h) => h.event?.type === 'payment.succeeded');

    // Totals never change, in particular not after a payment.
    expect(order.context.subtotal).toBe(input.subtotal);
    expect(order.context.discount).toBe(input.discount);
    expect(order.context.total).toBe(input.total);

    // An ignored event is a no-op: same state, same context, nothing to run.
    if (!order.changed) {
      expect(order.status).toBe(before.status);
      expect(order.context).toEqual(before.context);
      expect(order.effects).toEqual([]);
    }
    // A final state accepts no further change.
    if (FINAL.includes(before.status)) expect(order.changed).toBe(false);

    // A refund only after a payment, and at most one.
    if (order.effects.includes('refund.request')) expect(event.type).toBe('payment.succeeded');
    if (order.status === 'refundPending' || order.status === 'refunded') {
      expect(payments.length).toBeGreaterThan(0);
    }
    if (order.status === 'refunded') {
      expect(
        history.some((h) => h.order.status === 'refundPending' || PAID.includes(h.order.status)),
      ).toBe(true);
    }
    expect(count(steps, 'refund.request')).toBeLessThanOrEqual(1);

    // Tickets: revoked only after they were issued, by a refund or a dispute at the
    // provider or a cancellation in the shop, restored only by a won dispute; an order whose tickets still admit is a paid
    // one, and a refunded or disputed order's admit nobody.
    const issued = count(steps, 'tickets.issue');
    const revoked = count(steps, 'tickets.revoke');
    const restored = count(steps, 'tickets.restore');
    if (order.effects.includes('tickets.revoke')) {
      expect(['payment.refunded', 'dispute.opened', 'shop.cancelled']).toContain(event.type);
    }
    if (order.effects.includes('tickets.restore')) expect(event.type).toBe('dispute.won');
    // rules "Refunds": a partial refund revokes only what it covers, after the tickets were
    // issued, and tells the shop; what was refunded only grows and stays below the total.
    // Read as strings: the effect list grows with the machine.
    if ((order.effects as readonly string[]).includes('tickets.revokeRefunded')) {
      expect(event.type).toBe('payment.partiallyRefunded');
      expect(issued).toBe(1);
      expect(order.effects).toContain('shop.refund');
    }
    if (event.type === 'payment.partiallyRefunded' && order.changed) {
      expect(order.context.refundedAmount).toBe(event.amountRefunded);
      expect(order.context.refundedAmount!).toBeGreaterThan(before.context.refundedAmount ?? 0);
      expect(order.context.refundedAmount!).toBeLessThan(input.total);
      expect(order.status).toBe(before.status);
    }
    if (order.effects.includes('shop.refund')) expect(issued).toBe(1);

    // rules "Hand-off refused": a refusal is recorded once and only before the hand-off; a
    // retry only after one, and the order stays paid with its tickets meanwhile.
    if (order.effects.includes('handoff.reportFailure')) {
      expect(event.type).toBe('handoff.failed');
      expect(before.context.handoffError ?? null).toBeNull();
    }
    if (order.effects.includes('handoff.retry')) {
      expect(event.type).toBe('handoff.retry');
      expect(count(steps, 'handoff.retry')).toBeLessThanOrEqual(
        count(steps, 'handoff.reportFailure'),
      );
    }
    if ((order.context.handoffError ?? null) !== null) {
      expect(order.context.catalogOrderId).toBeNull();
      expect(['paid', 'latePaymentAccepted', 'disputed', 'refunded', 'canceledInShop']).toContain(
        order.status,
      );
    }
    const admitting = issued - revoked + restored;
    expect(admitting === 0 || admitting === 1).toBe(true);
    expect(restored).toBeLessThanOrEqual(revoked);
    if (admitting > 0) expect(PAID.includes(order.status)).toBe(true);
    if (
      issued > 0 &&
      (order.status === 'refunded' ||
        order.status === 'disputed' ||
        order.status === 'canceledInShop')
    ) {
      expect(admitting).toBe(0);
    }

    // Never two hand-offs, never tickets twice, never both a hand-off and a refund.
    expect(count(steps, 'handoff.enqueue')).toBeLessThanOrEqual(1);
    expect(count(steps, 'tickets.issue')).toBe(count(steps, 'handoff.enqueue'));
    expect(count(steps, 'reservation.settle')).toBeLessThanOrEqual(1);
    expect(count(steps, 'handoff.enqueue') + count(steps, 'refund.request')).toBeLessThanOrEqual(1);
    if (PAID.includes(order.status) || order.status === 'disputed') {
      expect(count(steps, 'handoff.enqueue')).toBe(1);
    }
    if (order.status === 'handedOff') expect(order.context.catalogOrderId).not.toBeNull();

    // The first payment's reference stays.
    if (before.context.paymentReference !== null) {
      expect(order.context.paymentReference).toBe(before.context.paymentReference);
    }

    // Places: a closed order holds none, an order that may still be paid, or is, keeps them.
    for (const effect of order.effects) {
      if (effect === 'reservation.hold') placesHeld = true;
      if (effect === 'reservation.release') placesHeld = false;
    }
    expect(placesHeld).toBe(!CLOSED.includes(order.status));

    onStep?.(order);
  }
  return history;
}

describe('order machine, model-based', () => {
  const model = (input: OrderInput, events: readonly OrderEvent[]) =>
    createTestModel(orderMachine, {
      input,
      events: [...events],
      // Only the alphabet above: the graph would otherwise add payload-less events of every type.
      filterEvents: (_s, e) => events.includes(e),
      serializeState: (s) => JSON.stringify([s.value, s.context]) as never,
    });
  // The walk's first step is the actor's start (`xstate.init`), not an order event.
  const pathsOf = (input: OrderInput) =>
    [
      ...model(input, EVENTS).getShortestPaths(),
      ...model(input, SIMPLE_EVENTS).getSimplePaths(),
    ].map((path) => ({
      state: path.state,
      steps: path.steps.filter((step) => (step.event as { type: string }).type !== 'xstate.init'),
    }));
  const walks = [TOTALS, FREE].flatMap((input) => pathsOf(input).map((path) => ({ input, path })));

  it('reaches every stored state of the order graph', () => {
    // Paths that are a prefix of another are dropped, so collect the states along each path.
    const reached = walks.flatMap(({ input, path }) => [
      initialOrder(input).status,
      ...path.steps.map((s) => s.state.value),
    ]);
    expect(new Set(reached)).toEqual(new Set(ORDER_STATUSES));
  });

  it('walks every transition of the machine definition', () => {
    const defined = new Set(
      Object.values(orderMachine.root.states)
        .filter((node) => node.key !== 'created')
        .flatMap((node) =>
          [...node.transitions.values()]
            .flat()
            .flatMap((t) => (t.target ?? []).map((target) => `${node.key} → ${target.key}`)),
        ),
    );
    // A transition without a target (a partial refund, a refused hand-off and its retry)
    // keeps the state and changes the context: it walks no edge of the definition.
    const walked = new Set(
      walks.flatMap(({ input, path }) =>
        path.steps
          .map((step, i) => ({
            from: i === 0 ? initialOrder(input).status : path.steps[i - 1]!.state.value,
            to: step.state.value,
          }))
          .filter(({ from, to }) => from !== to || defined.has(`${from} → ${to}`))
          .map(({ from, to }) => `${from} → ${to}`),
      ),
    );
    expect(defined.size).toBe(31);
    expect(walked).toEqual(defined);
  });

  it.each([
    ['an order with a total', TOTALS],
    ['a free order', FREE],
  ])(
    '%s: a refund only after a payment, never two hand-offs, totals unchanged, final states final: after every step of every path',
    (_name, input) => {
      for (const path of pathsOf(input)) {
        const events = path.steps.map((s) => s.event);
        const actor = createActor(orderMachine, { input }).start();
        let i = 0;
        replay(input, events, (order) => {
          // The pure function, a running actor and the model's prediction agree.
          actor.send(events[i]!);
          const snapshot = actor.getSnapshot();
          expect(order.status).toEqual(path.steps[i]!.state.value);
          expect(order.context).toEqual(path.steps[i]!.state.context);
          expect(snapshot.value).toEqual(order.status);
          expect(snapshot.context).toEqual(order.context);
          i++;
        });
        actor.stop();
      }
    },
  );

  it('every event in every reachable state keeps the invariants, and a final state accepts none', () => {
    // One path per reachable state (status and context) is enough: the first found.
    const reachable = new Map<string, (typeof walks)[number]>();
    for (const walk of walks) {
      const key = JSON.stringify([walk.input, walk.path.state.value, walk.path.state.context]);
      if (!reachable.has(key)) reachable.set(key, walk);
    }
    for (const { input, path } of reachable.values()) {
      const prefix = path.steps.map((s) => s.event);
      for (const event of EVENTS) replay(input, [...prefix, event]);
      if (FINAL.includes(path.state.value as OrderStatus)) {
        for (const event of EVENTS) {
          const after = transitionOrder(path.state.value as OrderStatus, path.state.context, event);
          expect(after).toMatchObject({ changed: false, effects: [] });
        }
      }
    }
  });

  it('keeps the invariants on long random walks full of duplicates and late events', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(TOTALS, FREE),
        fc.array(fc.constantFrom(...EVENTS), { maxLength: 40 }),
        (input, events) => {
          replay(input, events);
        },
      ),
    );
  });
});
