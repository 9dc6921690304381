import type { OrderLine } from '../../src/orders/orders.port.js';
import {
  paidLineTotals,
  type RefundableTicket,
  ticketsCoveredByRefund,
} from '../../src/tickets/refunded-tickets.js';

// rules "Refunds": which tickets a partial refund gives back.

const line = (unitAmount: number, quantity: number, discount = 0): OrderLine => ({
  productId: 1,
  variationId: null,
  name: 'Event',
  image: null,
  quantity,
  unitAmount,
  discount,
  refundedQuantity: 0,
});

const seats = (
  linePosition: number,
  count: number,
  extra: Partial<RefundableTicket> = {},
): RefundableTicket[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `t${linePosition}-${i + 1}`,
    linePosition,
    seat: i + 1,
    checkedIn: false,
    refunded: false,
    ...extra,
  }));

const covered = (input: Parameters<typeof ticketsCoveredByRefund>[0]) =>
  ticketsCoveredByRefund(input).map((c) => [c.ticket.id, c.price]);

describe('ticketsCoveredByRefund (rules "Refunds")', () => {
  it('an amount below every ticket gives none back; exactly one ticket gives one, the later seat', () => {
    const lines = [line(2900, 2)];
    const tickets = seats(0, 2);
    expect(covered({ lines, orderDiscount: 0, tickets, refundedAmount: 2899 })).toEqual([]);
    expect(covered({ lines, orderDiscount: 0, tickets, refundedAmount: 2900 })).toEqual([
      ['t0-2', 2900],
    ]);
  });

  it('the dearest ticket that fits first, then what is left for cheaper ones', () => {
    // VIP 49 €, Regulär 35 € × 2, merch 25 € (no tickets).
    const lines = [line(4900, 1), line(3500, 2), line(2500, 1)];
    const tickets = [...seats(0, 1), ...seats(1, 2)];
    expect(covered({ lines, orderDiscount: 0, tickets, refundedAmount: 8400 })).toEqual([
      ['t0-1', 4900],
      ['t1-2', 3500],
    ]);
    // 40 € cover no VIP ticket, but one Regulär.
    expect(covered({ lines, orderDiscount: 0, tickets, refundedAmount: 4000 })).toEqual([
      ['t1-2', 3500],
    ]);
  });

  it('a ticket costs its share after the coupon; a line that does not divide evenly puts the extra cent on its first units', () => {
    const lines = [line(1000, 3, 1)];
    expect(paidLineTotals(lines, 1)).toEqual([2999]);
    const tickets = seats(0, 3);
    expect(covered({ lines, orderDiscount: 1, tickets, refundedAmount: 2999 })).toEqual([
      ['t0-3', 1000],
      ['t0-2', 1000],
      ['t0-1', 999],
    ]);
  });

  it('tickets not checked in go before those already at the door', () => {
    const lines = [line(2000, 3)];
    const tickets = seats(0, 3).map((t) => (t.seat === 3 ? { ...t, checkedIn: true } : t));
    expect(covered({ lines, orderDiscount: 0, tickets, refundedAmount: 4000 })).toEqual([
      ['t0-2', 2000],
      ['t0-1', 2000],
    ]);
  });

  it('a later refund counts what earlier ones gave back and keeps those tickets', () => {
    const lines = [line(2900, 3)];
    const first = seats(0, 3).map((t) => (t.seat === 3 ? { ...t, refunded: true } : t));
    // 29 € then another 10 €: nothing more. Then 58 € in all: one more.
    expect(covered({ lines, orderDiscount: 0, tickets: first, refundedAmount: 3900 })).toEqual([]);
    expect(covered({ lines, orderDiscount: 0, tickets: first, refundedAmount: 5800 })).toEqual([
      ['t0-2', 2900],
    ]);
  });

  it("an order placed before lines kept their discount: the order's discount spread by the lines' subtotals", () => {
    const lines = [line(4900, 1), line(3500, 1)];
    expect(paidLineTotals(lines, 840)).toEqual([4410, 3150]);
  });

  it('a free ticket (100 % off) is never covered', () => {
    const lines = [line(2900, 1, 2900), line(1200, 1)];
    expect(
      covered({ lines, orderDiscount: 2900, tickets: seats(0, 1), refundedAmount: 1200 }),
    ).toEqual([]);
  });
});
