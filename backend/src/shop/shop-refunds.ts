import type { RefundableTicket } from '../tickets/refunded-tickets.js';
import type { WooOrderLine } from './woocommerce-webhook.js';

/**
 * docs/ledger.md "A place freed in the shop": refunds made in WooCommerce name the lines
 * they refund (`_refunded_item_id` on each refund line, its quantity negative, recorded).
 * Units refunded per line of the shop's order, by the line item's id, over every refund the
 * shop keeps (the site's own, which named the same units, included).
 */
export function refundedUnitsByLine(refunds: readonly unknown[]): Map<number, number> {
  const units = new Map<number, number>();
  for (const refund of refunds) {
    const items = (refund as { line_items?: unknown })?.line_items;
    for (const item of Array.isArray(items) ? items : []) {
      const meta = Array.isArray(item?.meta_data) ? item.meta_data : [];
      const lineId = Number(
        meta.find((m: { key?: unknown }) => m?.key === '_refunded_item_id')?.value,
      );
      const quantity = Math.abs(Number(item?.quantity) || 0);
      if (!Number.isSafeInteger(lineId) || lineId <= 0 || quantity === 0) continue;
      units.set(lineId, (units.get(lineId) ?? 0) + quantity);
    }
  }
  return units;
}

/**
 * Which of the site's order lines each line of the shop's order is: the hand-off sends
 * them in order, so the n-th shop line with the same product and variation is the n-th such
 * line of the site's order. Shop line id → the site line's position.
 */
export function sitePositions(
  shopLines: readonly Pick<WooOrderLine, 'id' | 'productId' | 'variationId'>[],
  siteLines: readonly { productId: number; variationId: number | null }[],
): Map<number, number> {
  const taken = new Set<number>();
  const positions = new Map<number, number>();
  for (const shop of shopLines) {
    const position = siteLines.findIndex(
      (l, i) =>
        !taken.has(i) &&
        l.productId === shop.productId &&
        (l.variationId ?? null) === (shop.variationId ?? null),
    );
    if (position < 0) continue;
    taken.add(position);
    positions.set(shop.id, position);
  }
  return positions;
}

/**
 * rules "Refunds made in the shop": which tickets of one line a refund of `units` more
 * units takes: those not yet checked in first, then the last issued; a checked-in one only
 * when no other is left (the organizer is told).
 */
export function ticketsToRevoke(
  tickets: readonly RefundableTicket[],
  position: number,
  units: number,
): RefundableTicket[] {
  if (units <= 0) return [];
  return tickets
    .filter((t) => t.linePosition === position && !t.refunded)
    .sort((a, b) => Number(a.checkedIn) - Number(b.checkedIn) || b.seat - a.seat)
    .slice(0, units);
}
