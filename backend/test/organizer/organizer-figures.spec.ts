import { cumulative, paidForValidTickets } from '../../src/organizer/organizer-figures.js';
import type { TicketSale } from '../../src/tickets/tickets.port.js';

// rules "The organizer": the dashboard's arithmetic: what a ticket brought in, and the series
// of the charts.

function sale(fields: Partial<TicketSale>): TicketSale {
  return {
    eventId: 1,
    variationId: null,
    eventName: 'Afterwork',
    startsAt: null,
    venue: null,
    tier: null,
    orderId: 'o1',
    seats: 1,
    validSeats: 1,
    issuedAt: 0,
    unitAmount: 2500,
    orderSubtotal: 2500,
    orderTotal: 2500,
    orderRefunded: 0,
    inShop: false,
    ...fields,
  };
}

describe('what the valid tickets brought in', () => {
  it('rules "The organizer": a coupon lowers every line of its order in proportion, merch keeps its share', () => {
    // Two tickets at 25 € and a 15 € shirt (no ticket), 10 € off the order: 55 € paid.
    const [tickets] = paidForValidTickets([
      sale({ seats: 2, validSeats: 2, orderSubtotal: 6500, orderTotal: 5500 }),
    ]);
    expect(tickets).toBeCloseTo((5000 * 5500) / 6500, 6);
  });

  it('rules "The organizer": a refund that kept the tickets lowers them; one that revoked a ticket takes exactly its share', () => {
    const [kept] = paidForValidTickets([
      sale({ seats: 2, validSeats: 2, orderSubtotal: 5000, orderTotal: 5000, orderRefunded: 1000 }),
    ]);
    expect(kept).toBe(4000);
    // Two lines of one order: the VIP seat was refunded and revoked, the other line stays.
    const [vip, regular] = paidForValidTickets([
      sale({
        variationId: 9,
        seats: 1,
        validSeats: 0,
        unitAmount: 4900,
        orderSubtotal: 8400,
        orderTotal: 8400,
        orderRefunded: 4900,
      }),
      sale({
        variationId: 8,
        seats: 1,
        validSeats: 1,
        unitAmount: 3500,
        orderSubtotal: 8400,
        orderTotal: 8400,
        orderRefunded: 4900,
      }),
    ]);
    expect(vip).toBe(0);
    expect(regular).toBe(3500);
  });

  it('rules "The organizer": refunded in full or revoked, nothing is counted', () => {
    expect(
      paidForValidTickets([
        sale({ validSeats: 0 }),
        sale({ orderId: 'o2', orderRefunded: 2500 }),
        sale({ orderId: 'o3', orderTotal: 0, orderSubtotal: 2500 }),
      ]),
    ).toEqual([0, 0, 0]);
  });
});

describe("the charts' series", () => {
  it('rules "The organizer": cumulative, one point per moment, ending at the total', () => {
    expect(
      cumulative([
        { at: 3_000, count: 1 },
        { at: 1_000, count: 2 },
        { at: 3_000, count: 2 },
        { at: 2_000, count: 0 },
      ]),
    ).toEqual([
      { at: new Date(1_000).toISOString(), count: 2 },
      { at: new Date(3_000).toISOString(), count: 5 },
    ]);
  });

  it('rules "The organizer": a long series is thinned to its last points per stretch', () => {
    const series = cumulative(
      Array.from({ length: 1_000 }, (_, i) => ({ at: i * 60_000, count: 1 })),
      200,
    );
    expect(series).toHaveLength(200);
    expect(series.at(-1)).toEqual({ at: new Date(999 * 60_000).toISOString(), count: 1_000 });
    const counts = series.map((p) => p.count);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(new Set(counts).size).toBe(200);
  });
});
