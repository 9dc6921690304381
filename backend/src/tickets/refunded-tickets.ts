import type { OrderLine } from '../orders/orders.port.js';

/** A ticket as a partial refund weighs it (rules "Refunds"). */
export interface RefundableTicket {
  id: string;
  /** The order line it belongs to (`order_lines.position`, the index in the order's lines). */
  linePosition: number;
  seat: number;
  /** Scanned at the door already. */
  checkedIn: boolean;
  /** A refund gave its price back before. */
  refunded: boolean;
}

/**
 * What each line cost, in cents: its units less its share of the coupon. Lines of orders
 * placed before the lines kept their discount carry 0; then the order's discount is spread
 * over the lines by their subtotals (the largest remainders get the last cents).
 */
export function paidLineTotals(lines: readonly OrderLine[], orderDiscount: number): number[] {
  const subtotals = lines.map((l) => l.unitAmount * l.quantity);
  const kept = lines.reduce((sum, l) => sum + l.discount, 0);
  if (kept === orderDiscount || orderDiscount <= 0) {
    return lines.map((l, i) => Math.max(0, subtotals[i]! - l.discount));
  }
  const subtotal = subtotals.reduce((a, b) => a + b, 0);
  const discount = Math.min(orderDiscount, subtotal);
  if (subtotal === 0) return subtotals;
  const exact = subtotals.map((s) => (s * discount) / subtotal);
  const shares = exact.map(Math.floor);
  let missing = discount - shares.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((e, i) => ({ i, rest: e - Math.floor(e) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of byRemainder) {
    if (missing <= 0) break;
    shares[i]! += 1;
    missing -= 1;
  }
  return subtotals.map((s, i) => s - shares[i]!);
}

/** The line's total split over its units, dearest first: the first `total mod q` carry a cent more. */
function unitPrices(total: number, quantity: number): number[] {
  if (quantity <= 0) return [];
  const base = Math.floor(total / quantity);
  const extra = total - base * quantity;
  return Array.from({ length: quantity }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * rules "Refunds": the tickets a partial refund gives back. What the provider refunded so
 * far (`refundedAmount`, cents), less the price of the tickets refunded before, goes to
 * the dearest tickets whose price still fits, one at a time; among tickets of one price
 * the ones not checked in first, then the later seat. A ticket costs what its line cost
 * per unit after the coupon. Tickets refunded before stay so; an amount that covers no
 * whole ticket gives none back. Returns the tickets to revoke now, with their price.
 */
export function ticketsCoveredByRefund(input: {
  lines: readonly OrderLine[];
  orderDiscount: number;
  tickets: readonly RefundableTicket[];
  refundedAmount: number;
}): { ticket: RefundableTicket; price: number }[] {
  const totals = paidLineTotals(input.lines, input.orderDiscount);
  const candidates: { ticket: RefundableTicket; price: number }[] = [];
  let left = input.refundedAmount;
  input.lines.forEach((line, position) => {
    const prices = unitPrices(totals[position]!, line.quantity);
    const ofLine = input.tickets.filter((t) => t.linePosition === position);
    // The dearest units went back first, whichever seats they were.
    const refunded = ofLine.filter((t) => t.refunded).length;
    for (const price of prices.slice(0, refunded)) left -= price;
    const open = ofLine
      .filter((t) => !t.refunded)
      .sort((a, b) => Number(a.checkedIn) - Number(b.checkedIn) || b.seat - a.seat);
    open.forEach((ticket, i) => {
      const price = prices[refunded + i];
      if (price !== undefined) candidates.push({ ticket, price });
    });
  });
  candidates.sort(
    (a, b) =>
      b.price - a.price ||
      Number(a.ticket.checkedIn) - Number(b.ticket.checkedIn) ||
      a.ticket.linePosition - b.ticket.linePosition ||
      b.ticket.seat - a.ticket.seat,
  );
  const chosen: { ticket: RefundableTicket; price: number }[] = [];
  for (const candidate of candidates) {
    // A free ticket is never "covered": nothing of its price went back.
    if (candidate.price <= 0 || candidate.price > left) continue;
    chosen.push(candidate);
    left -= candidate.price;
  }
  return chosen;
}

/**
 * rules "Refunds": what giving back this one ticket costs (the organizer cancels it): the
 * next unit price of its line, as `ticketsCoveredByRefund` counts the line's refunded
 * tickets against its dearest units first. Null when the ticket is not open to a refund.
 */
export function ticketRefundPrice(input: {
  lines: readonly OrderLine[];
  orderDiscount: number;
  tickets: readonly RefundableTicket[];
  ticketId: string;
}): number | null {
  const ticket = input.tickets.find((t) => t.id === input.ticketId);
  const line = ticket ? input.lines[ticket.linePosition] : undefined;
  if (!ticket || !line || ticket.refunded) return null;
  const totals = paidLineTotals(input.lines, input.orderDiscount);
  const refunded = input.tickets.filter(
    (t) => t.linePosition === ticket.linePosition && t.refunded,
  ).length;
  return unitPrices(totals[ticket.linePosition]!, line.quantity)[refunded] ?? null;
}
