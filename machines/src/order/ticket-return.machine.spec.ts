import {
  TICKET_RETURN_STATUSES,
  type TicketReturnEvent,
  type TicketReturnStatus,
  transitionTicketReturn,
} from './ticket-return.machine.js';

const EVENTS: TicketReturnEvent['type'][] = [
  'return.withdraw',
  'return.lapse',
  'return.take',
  'return.refunded',
];

// rules "Giving a ticket back": every (state, event) pair against the table the rules give.
const EXPECTED: Record<TicketReturnStatus, Partial<Record<TicketReturnEvent['type'], string>>> = {
  offered: {
    'return.withdraw': 'withdrawn',
    'return.lapse': 'lapsed',
    'return.take': 'taken',
  },
  withdrawn: {},
  lapsed: {},
  taken: { 'return.refunded': 'refunded' },
  refunded: {},
};

describe('ticket return machine (rules "Giving a ticket back")', () => {
  it.each(TICKET_RETURN_STATUSES.flatMap((s) => EVENTS.map((e) => [s, e] as const)))(
    'from %s on %s',
    (status, type) => {
      expect(transitionTicketReturn(status, { type } as TicketReturnEvent)).toBe(
        EXPECTED[status][type] ?? null,
      );
    },
  );

  it('a lent place is bought at most once: no path leads back to offered or taken twice', () => {
    // Walk every sequence of up to five events from offered: `taken` appears at most once.
    const walk = (status: TicketReturnStatus, depth: number, takes: number): void => {
      expect(takes).toBeLessThanOrEqual(1);
      if (depth === 0) return;
      for (const type of EVENTS) {
        const next = transitionTicketReturn(status, { type } as TicketReturnEvent);
        if (next) walk(next, depth - 1, takes + (next === 'taken' ? 1 : 0));
      }
    };
    walk('offered', 5, 0);
  });

  it('a withdrawn or lapsed return refunds nothing and is never taken', () => {
    for (const status of ['withdrawn', 'lapsed'] as const) {
      expect(transitionTicketReturn(status, { type: 'return.take' })).toBeNull();
      expect(transitionTicketReturn(status, { type: 'return.refunded' })).toBeNull();
    }
  });

  it('refuses a status it does not know', () => {
    expect(() =>
      transitionTicketReturn('sold' as TicketReturnStatus, { type: 'return.take' }),
    ).toThrow();
  });
});
