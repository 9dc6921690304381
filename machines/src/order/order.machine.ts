import { assign, createActor, initialTransition, setup, transition } from 'xstate';
import type { SessionStatus } from '../schemas/wire.schemas.js';
import {
  ORDER_EFFECTS,
  orderContextSchema,
  orderInputSchema,
  orderStatusSchema,
  type OrderContext,
  type OrderEffect,
  type OrderEvent,
  type OrderInput,
  type OrderStatus,
  type OrderTransition,
} from './order.types.js';

export {
  ORDER_EFFECTS,
  ORDER_STATUSES,
  orderContextSchema,
  orderInputSchema,
  orderStatusSchema,
} from './order.types.js';
export type {
  OrderContext,
  OrderEffect,
  OrderEvent,
  OrderInput,
  OrderStatus,
  OrderTransition,
} from './order.types.js';

// What every way into a paid state, and into a refund, records and asks for.
const PAY = ['recordPayment', 'reservation.hold', 'tickets.issue', 'handoff.enqueue'] as const;
const REFUND = ['recordPayment', 'reservation.release', 'refund.request'] as const;
// A paid order refunded at the provider: its places free up (rules "Waiting list") and
// its tickets stop admitting anyone (rules "Tickets and the door").
const REFUNDED = {
  guard: 'wasPaidAtProvider',
  target: 'refunded',
  actions: ['recordRefund', 'reservation.release', 'tickets.revoke', 'shop.refund'],
} as const;
// rules "Refunds": part of the money went back. The tickets stay valid unless the amount
// covers whole tickets: those are revoked (the backend picks them), and WooCommerce records
// the refund, with those tickets' lines back in stock.
const PARTLY_REFUNDED = {
  guard: 'refundGrows',
  actions: ['recordPartialRefund', 'tickets.revokeRefunded', 'shop.refund'],
} as const;
// rules "Hand-off refused": WooCommerce refused the paid order for good. The order stays
// paid (its tickets admit), keeps WooCommerce's reason, and the organizer is told; once
// the cause is fixed, one request hands it off again.
const HANDOFF_FAILED = {
  guard: 'handoffUnrefused',
  actions: ['recordHandoffFailure', 'handoff.reportFailure'],
} as const;
const HANDOFF_RETRY = {
  guard: 'handoffRefused',
  actions: ['clearHandoffFailure', 'handoff.retry'],
} as const;

// A paid order whose payment the buyer's bank disputes: its tickets admit nobody while the
// bank decides, its places stay taken (the shop may win), and WooCommerce keeps the order.
const DISPUTED = {
  guard: 'wasPaidAtProvider',
  target: 'disputed',
  actions: ['tickets.revoke'],
} as const;

// rules "Cancelled in the shop": the organizer cancelled, refunded, failed or trashed the
// order in WooCommerce. Its places free up (the shop's stock gets back what WooCommerce
// itself keeps out) and its tickets stop admitting anyone; the money is the organizer's
// business there (the site refunds nothing itself).
const SHOP_CANCELLED = {
  target: 'canceledInShop',
  actions: ['reservation.release', 'tickets.revoke', 'shop.restock'],
} as const;

// Effects are named actions without a body: the backend reads them from `transition`'s
// action list and runs them itself, so the machine stays pure.
const effect = () => {};

/** rules "Deliberate deviations": a total clamped at 0 needs no payment provider. */
function isFreeOrder(context: Pick<OrderContext, 'total'>): boolean {
  return context.total === 0;
}

/** A new order's context from the checkout's totals (validated: whole cents, total = subtotal − discount). */
function orderContextOf(input: OrderInput): OrderContext {
  const totals = orderInputSchema.parse(input);
  return {
    subtotal: totals.subtotal,
    discount: totals.discount,
    total: totals.total,
    email: totals.email ?? null,
    buyerName: null,
    paymentReference: null,
    catalogOrderId: null,
    refundReference: null,
  };
}

/**
 * rules "The order's life": one machine owns every order state; the backend loads an
 * order, sends it one neutral event and saves the result. States only move forward, so a
 * duplicate or late event finds no transition and changes nothing (rules "Webhook").
 */
export const orderMachine = setup({
  types: {
    context: {} as OrderContext,
    events: {} as OrderEvent,
    input: {} as OrderInput,
  },
  actions: {
    'reservation.hold': effect,
    'reservation.release': effect,
    'reservation.settle': effect,
    'tickets.issue': effect,
    'handoff.enqueue': effect,
    'refund.request': effect,
    'tickets.revoke': effect,
    'tickets.restore': effect,
    'tickets.revokeRefunded': effect,
    'handoff.reportFailure': effect,
    'handoff.retry': effect,
    'shop.refund': effect,
    'shop.restock': effect,
    // The payment's reference and the buyer as the payment page collected them (rules
    // "Everything the shop sells"); a missing value never erases a known one.
    recordPayment: assign(({ context, event }) =>
      event.type === 'payment.succeeded' || event.type === 'payment.pending'
        ? {
            paymentReference:
              (event.type === 'payment.succeeded' ? event.paymentReference : null) ??
              context.paymentReference,
            email: event.email ?? context.email,
            buyerName: event.name ?? context.buyerName,
          }
        : {},
    ),
    recordHandoff: assign({
      catalogOrderId: ({ event }) =>
        event.type === 'handoff.succeeded' ? event.catalogOrderId : null,
      handoffError: null,
    }),
    recordHandoffFailure: assign({
      handoffError: ({ context, event }) =>
        event.type === 'handoff.failed' ? event.reason : (context.handoffError ?? null),
    }),
    clearHandoffFailure: assign({ handoffError: null }),
    recordRefund: assign({
      refundReference: ({ context, event }) =>
        event.type === 'refund.succeeded' || event.type === 'payment.refunded'
          ? event.refundReference
          : context.refundReference,
      refundedAmount: ({ context }) => context.total,
    }),
    recordPartialRefund: assign(({ event }) =>
      event.type === 'payment.partiallyRefunded'
        ? { refundReference: event.refundReference, refundedAmount: event.amountRefunded }
        : {},
    ),
  },
  guards: {
    // rules "Deliberate deviations": a total clamped at 0 needs no payment provider.
    isFree: ({ context }) => isFreeOrder(context),
    // A free order took no money, so no provider can refund it.
    wasPaidAtProvider: ({ context }) => !isFreeOrder(context),
    hasHeldReservation: ({ event }) => event.type === 'payment.succeeded' && event.reservationHeld,
    // rules "Capacity": a payment after its reservation lapsed is accepted if capacity remains.
    hasCapacityForLatePayment: ({ event }) =>
      event.type === 'payment.succeeded' && event.capacityRemains,
    wasHandedOff: ({ context }) => context.catalogOrderId !== null,
    // A repeated hand-off (its job's lease ran out mid-way) records nothing twice.
    awaitsHandoff: ({ context }) => context.catalogOrderId === null,
    // A refusal reported twice (its job ran twice) tells the organizer once.
    handoffUnrefused: ({ context }) =>
      context.catalogOrderId === null && (context.handoffError ?? null) === null,
    handoffRefused: ({ context }) =>
      context.catalogOrderId === null && (context.handoffError ?? null) !== null,
    // Stripe reports what was refunded so far: only more than before, and less than all, is news.
    refundGrows: ({ context, event }) =>
      event.type === 'payment.partiallyRefunded' &&
      event.amountRefunded > (context.refundedAmount ?? 0) &&
      event.amountRefunded < context.total,
  },
}).createMachine({
  id: 'order',
  context: ({ input }) => orderContextOf(input),
  initial: 'created',
  states: {
    // Transient: never stored. A free order is paid at creation, anything else waits for
    // its payment with the places the checkout reserved.
    created: {
      always: [
        {
          guard: 'isFree',
          target: 'paid',
          actions: ['reservation.hold', 'tickets.issue', 'handoff.enqueue'],
        },
        { target: 'open' },
      ],
    },
    open: {
      on: {
        'payment.succeeded': [
          {
            guard: 'hasHeldReservation',
            target: 'paid',
            actions: [...PAY],
          },
          // The reservation lapsed before the provider's expiry event arrived: a late payment.
          {
            guard: 'hasCapacityForLatePayment',
            target: 'latePaymentAccepted',
            actions: [...PAY],
          },
          {
            target: 'refundPending',
            actions: [...REFUND],
          },
        ],
        // An async payment keeps the places until it settles, past the session's expiry.
        'payment.pending': {
          target: 'processing',
          actions: ['recordPayment', 'reservation.hold'],
        },
        'payment.failed': { target: 'canceled', actions: 'reservation.release' },
        'session.expired': { target: 'expired', actions: 'reservation.release' },
        // The server gives up on an order, e.g. when the provider refused to open a session.
        'order.cancel': { target: 'canceled', actions: 'reservation.release' },
      },
    },
    processing: {
      on: {
        'payment.succeeded': [
          {
            guard: 'hasHeldReservation',
            target: 'paid',
            actions: [...PAY],
          },
          {
            guard: 'hasCapacityForLatePayment',
            target: 'latePaymentAccepted',
            actions: [...PAY],
          },
          {
            target: 'refundPending',
            actions: [...REFUND],
          },
        ],
        'payment.failed': { target: 'canceled', actions: 'reservation.release' },
      },
    },
    // rules "Webhook": a paid session becomes a paid order exactly once and is handed to
    // WooCommerce; only the hand-off's success leaves this state.
    paid: {
      on: {
        'handoff.succeeded': {
          target: 'handedOff',
          actions: ['recordHandoff', 'reservation.settle'],
        },
        'handoff.failed': HANDOFF_FAILED,
        'handoff.retry': HANDOFF_RETRY,
        'payment.refunded': REFUNDED,
        'payment.partiallyRefunded': PARTLY_REFUNDED,
        'dispute.opened': DISPUTED,
        'shop.cancelled': SHOP_CANCELLED,
      },
    },
    // Paid like any other order, with places taken again from what remained.
    latePaymentAccepted: {
      on: {
        'handoff.succeeded': {
          target: 'handedOff',
          actions: ['recordHandoff', 'reservation.settle'],
        },
        'handoff.failed': HANDOFF_FAILED,
        'handoff.retry': HANDOFF_RETRY,
        'payment.refunded': REFUNDED,
        'payment.partiallyRefunded': PARTLY_REFUNDED,
        'dispute.opened': DISPUTED,
        'shop.cancelled': SHOP_CANCELLED,
      },
    },
    // In WooCommerce now; a refund or a dispute at the provider, or the organizer cancelling
    // it in the shop, moves it on.
    handedOff: {
      on: {
        'payment.refunded': REFUNDED,
        'payment.partiallyRefunded': PARTLY_REFUNDED,
        'dispute.opened': DISPUTED,
        'shop.cancelled': SHOP_CANCELLED,
      },
    },
    // The bank decides; the hand-off goes on meanwhile. Won, the order is paid again (in
    // WooCommerce or on its way there) and its tickets admit again; lost, it stays here with
    // its tickets revoked, and the organizer settles it in WooCommerce.
    disputed: {
      on: {
        'handoff.succeeded': {
          guard: 'awaitsHandoff',
          target: 'disputed',
          actions: ['recordHandoff', 'reservation.settle'],
        },
        'dispute.won': [
          { guard: 'wasHandedOff', target: 'handedOff', actions: 'tickets.restore' },
          { target: 'paid', actions: 'tickets.restore' },
        ],
        'handoff.failed': HANDOFF_FAILED,
        'handoff.retry': HANDOFF_RETRY,
        'payment.partiallyRefunded': PARTLY_REFUNDED,
        // The tickets are revoked already.
        'payment.refunded': {
          target: 'refunded',
          actions: ['recordRefund', 'reservation.release', 'shop.refund'],
        },
        'shop.cancelled': {
          target: 'canceledInShop',
          actions: ['reservation.release', 'shop.restock'],
        },
      },
    },
    // Money can still arrive for a closed order (a slow payment, a session the server gave
    // up on): rules "Capacity" accepts it if the places are still there, else refunds it.
    expired: {
      on: {
        'payment.succeeded': [
          {
            guard: 'hasCapacityForLatePayment',
            target: 'latePaymentAccepted',
            actions: [...PAY],
          },
          {
            target: 'refundPending',
            actions: [...REFUND],
          },
        ],
      },
    },
    canceled: {
      on: {
        'payment.succeeded': [
          {
            guard: 'hasCapacityForLatePayment',
            target: 'latePaymentAccepted',
            actions: [...PAY],
          },
          {
            target: 'refundPending',
            actions: [...REFUND],
          },
        ],
      },
    },
    // The outbox's refund call or the provider's report of it, whichever comes first.
    refundPending: {
      on: {
        'refund.succeeded': { target: 'refunded', actions: 'recordRefund' },
        'payment.refunded': { target: 'refunded', actions: 'recordRefund' },
      },
    },
    refunded: { type: 'final' },
    // Cancelled by the organizer in WooCommerce: nothing moves it on.
    canceledInShop: { type: 'final' },
  },
});

const CONTEXT_KEYS = Object.keys(orderContextSchema.shape) as (keyof OrderContext)[];

function effectsOf(actions: readonly { type: string }[]): OrderEffect[] {
  return actions
    .map((a) => a.type)
    .filter((type): type is OrderEffect => (ORDER_EFFECTS as readonly string[]).includes(type));
}

/** The snapshot of a stored order; throws on a status or context the machine does not know. */
export function restoreOrder(status: OrderStatus, context: OrderContext) {
  return orderMachine.resolveState({
    value: orderStatusSchema.parse(status),
    context: orderContextSchema.parse(context),
  });
}

/** An actor (not started) that continues a stored order, for callers that want `send` and `can`. */
export function restoreOrderActor(status: OrderStatus, context: OrderContext) {
  // The input only seeds a new order; a restored snapshot already carries its context.
  return createActor(orderMachine, { snapshot: restoreOrder(status, context), input: context });
}

const initialShapes = new Map<boolean, Pick<OrderTransition, 'status' | 'effects'>>();

/**
 * A new order from the checkout's totals: open, or paid at once when free. The initial
 * transition depends on the `isFree` guard alone, so the machine computes it once per
 * branch; every checkout then only builds its context (XState's initialTransition costs
 * about 50 µs, a measurable share of a checkout request).
 */
export function initialOrder(input: OrderInput): Omit<OrderTransition, 'changed'> {
  const context = orderContextOf(input);
  const free = isFreeOrder(context);
  let shape = initialShapes.get(free);
  if (!shape) {
    const [snapshot, actions] = initialTransition(orderMachine, input);
    // Invalid totals fail the context factory, which XState turns into an error snapshot.
    if (snapshot.status === 'error') throw snapshot.error;
    shape = { status: snapshot.value as OrderStatus, effects: effectsOf(actions) };
    initialShapes.set(free, shape);
  }
  return { status: shape.status, context, effects: [...shape.effects] };
}

/**
 * The backend's one call per event: stored status and context in, the next ones and the
 * effects to run out. `changed` is false for an event the order ignores (a duplicate, a
 * late expiry, a second hand-off), which then has no effects either.
 */
export function transitionOrder(
  status: OrderStatus,
  context: OrderContext,
  event: OrderEvent,
): OrderTransition {
  const [next, actions] = transition(orderMachine, restoreOrder(status, context), event);
  const nextStatus = next.value as OrderStatus;
  const changed =
    nextStatus !== status || CONTEXT_KEYS.some((key) => next.context[key] !== context[key]);
  return { status: nextStatus, context: next.context, effects: effectsOf(actions), changed };
}

/**
 * The status the API reports for an order (`sessionStatusSchema`): every paid state is
 * `paid`; a refunded late payment is `canceled`, and the success page tells the buyer it
 * was refunded (rules "Capacity").
 */
export function toSessionStatus(status: OrderStatus): SessionStatus {
  switch (status) {
    // A disputed order is paid until the bank decides otherwise; its tickets say they are
    // revoked meanwhile.
    case 'paid':
    case 'latePaymentAccepted':
    case 'handedOff':
    case 'disputed':
      return 'paid';
    case 'refundPending':
    case 'refunded':
    case 'canceledInShop':
      return 'canceled';
    default:
      return status;
  }
}

/** Whether the order's money goes (or went) back to the buyer. */
export function isRefund(status: OrderStatus): boolean {
  return status === 'refundPending' || status === 'refunded';
}
