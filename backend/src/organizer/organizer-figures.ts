import type { OrganizerPoint } from '@awhh/machines';
import type { TicketSale } from '../tickets/tickets.port.js';

/** Most points a series sends: an evening's check-ins by the minute fit, years of sales thin out. */
export const MAX_SERIES_POINTS = 200;

/**
 * rules "The organizer": what buyers paid for each line's valid tickets, in cents. An order's
 * money (its total less what was refunded) is spread over what it still delivers: its
 * subtotal less the list price of its revoked tickets. So a coupon's discount and a refund
 * that kept the tickets lower every line in proportion, a refund that revoked tickets takes
 * exactly their share away, and merch keeps its own share of the order. Keyed like the input.
 */
export function paidForValidTickets(sales: readonly TicketSale[]): number[] {
  const revokedOfOrder = new Map<string, number>();
  for (const s of sales) {
    revokedOfOrder.set(
      s.orderId,
      (revokedOfOrder.get(s.orderId) ?? 0) + (s.seats - s.validSeats) * s.unitAmount,
    );
  }
  return sales.map((s) => {
    if (s.validSeats <= 0) return 0;
    const delivered = s.orderSubtotal - (revokedOfOrder.get(s.orderId) ?? 0);
    const kept = Math.max(0, s.orderTotal - s.orderRefunded);
    if (delivered <= 0) return 0;
    return (s.validSeats * s.unitAmount * kept) / delivered;
  });
}

/**
 * A cumulative series of events at `at` (epoch ms) counting `count` each: one point per
 * moment, thinned to at most `max` points (the last of each stretch kept, so the series
 * still ends at the total).
 */
export function cumulative(
  events: readonly { at: number; count: number }[],
  max = MAX_SERIES_POINTS,
): OrganizerPoint[] {
  const sorted = events.filter((e) => e.count > 0).sort((a, b) => a.at - b.at);
  const points: { at: number; count: number }[] = [];
  let total = 0;
  for (const e of sorted) {
    total += e.count;
    const last = points.at(-1);
    if (last && last.at === e.at) last.count = total;
    else points.push({ at: e.at, count: total });
  }
  const thinned =
    points.length <= max
      ? points
      : Array.from(
          { length: max },
          (_, i) => points[Math.ceil(((i + 1) * points.length) / max) - 1]!,
        );
  return thinned.map((p) => ({ at: new Date(p.at).toISOString(), count: p.count }));
}
