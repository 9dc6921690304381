import { setup, transition } from 'xstate';
import { z } from 'zod';

/**
 * rules "Giving a ticket back": a guest who cannot come offers a paid ticket back while the
 * evening is sold out and people wait for it. The ticket stays valid until somebody from
 * the waiting list buys the place; only then is it revoked and its price refunded (less
 * the fee). These are the return's states; the refund itself runs through the returned
 * order's machine (`payment.partiallyRefunded` or `payment.refunded`).
 * - `offered`: the place is lent to the waiting list; the ticket still admits.
 * - `withdrawn`: the guest took it back before anybody bought the place.
 * - `lapsed`: nobody bought it before the deadline; the ticket stays valid, nothing is refunded.
 * - `taken`: a waiting-list buyer paid for the place; the ticket is revoked, the refund is on its way.
 * - `refunded`: the provider took the refund; the guest was told.
 */
export const TICKET_RETURN_STATUSES = [
  'offered',
  'withdrawn',
  'lapsed',
  'taken',
  'refunded',
] as const;
export const ticketReturnStatusSchema = z.enum(TICKET_RETURN_STATUSES);
export type TicketReturnStatus = z.infer<typeof ticketReturnStatusSchema>;

export type TicketReturnEvent =
  /** The guest takes the ticket back ("Rückgabe zurücknehmen"). */
  | { type: 'return.withdraw' }
  /** The return's deadline passed, or the ticket stopped admitting for another reason. */
  | { type: 'return.lapse' }
  /** A waiting-list buyer's payment for the lent place arrived. */
  | { type: 'return.take' }
  /** The provider refunded the returned ticket's price. */
  | { type: 'return.refunded' };

/**
 * The return's life. A lent place is bought at most once: `taken` is reached only from
 * `offered`, and nothing leads back, so a repeated payment report takes nothing twice.
 */
export const ticketReturnMachine = setup({
  types: { events: {} as TicketReturnEvent },
}).createMachine({
  id: 'ticketReturn',
  initial: 'offered',
  states: {
    offered: {
      on: {
        'return.withdraw': 'withdrawn',
        'return.lapse': 'lapsed',
        'return.take': 'taken',
      },
    },
    withdrawn: { type: 'final' },
    lapsed: { type: 'final' },
    taken: { on: { 'return.refunded': 'refunded' } },
    refunded: { type: 'final' },
  },
});

/** The next status of a stored return, or null when the event does not apply to it. */
export function transitionTicketReturn(
  status: TicketReturnStatus,
  event: TicketReturnEvent,
): TicketReturnStatus | null {
  const [next] = transition(
    ticketReturnMachine,
    ticketReturnMachine.resolveState({ value: ticketReturnStatusSchema.parse(status) }),
    event,
  );
  const value = next.value as TicketReturnStatus;
  return value === status ? null : value;
}

const euros = z.number().nonnegative();

/**
 * GET /api/tickets/:token/return: what the ticket page offers. `available`: the guest may
 * offer it back until `until`, and gets `refund` € (its price less `fee`) once somebody
 * buys the place; `offered`: offered back, with the undo; `taken`: somebody bought the
 * place, the ticket is revoked and the money goes back; `unavailable`: nothing to offer.
 */
export const ticketReturnViewSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('available'),
    refund: euros,
    fee: euros,
    until: z.string(),
    passedOn: z.boolean(),
  }),
  z.object({
    state: z.literal('offered'),
    refund: euros,
    fee: euros,
    until: z.string(),
    passedOn: z.boolean(),
  }),
  z.object({
    state: z.literal('taken'),
    refund: euros,
    refunded: z.boolean(),
    passedOn: z.boolean(),
  }),
  z.object({ state: z.literal('unavailable') }),
]);
export type TicketReturnView = z.infer<typeof ticketReturnViewSchema>;
