import type { StockUnit } from './stock-unit.js';

/** A number of places of one stock unit (the variation id when it has its own stock, else the product id). */
export interface Places {
  productKey: number;
  quantity: number;
}

/** A line as the capacity check sees it. */
export interface CapacityLine extends StockUnit {
  quantity: number;
}

/** Places wanted per stock unit: two lines (tiers sharing the parent's stock) may draw from one. */
export function wantedByKey(lines: readonly CapacityLine[]): Places[] {
  const wanted = new Map<number, number>();
  for (const l of lines) wanted.set(l.productKey, (wanted.get(l.productKey) ?? 0) + l.quantity);
  return [...wanted].map(([productKey, quantity]) => ({ productKey, quantity }));
}

/**
 * rules "Capacity": available = stock − active holds. The lines that do not fit, each with
 * what is still available, one per stock unit.
 */
export function shortagesOf<L extends CapacityLine>(
  lines: readonly L[],
  held: ReadonlyMap<number, number>,
): { line: L; available: number }[] {
  const wanted = new Map(wantedByKey(lines).map((r) => [r.productKey, r.quantity]));
  const short: { line: L; available: number }[] = [];
  const seen = new Set<number>();
  for (const line of lines) {
    if (line.stock === null || seen.has(line.productKey)) continue;
    seen.add(line.productKey);
    const available = Math.max(0, line.stock - (held.get(line.productKey) ?? 0));
    if ((wanted.get(line.productKey) ?? 0) > available) short.push({ line, available });
  }
  return short;
}

/**
 * rules "Capacity": a payment after its hold lapsed is accepted if the order's places
 * still fit into the stock others have not held meanwhile.
 */
export function fitsAgain(
  own: readonly Places[],
  stock: ReadonlyMap<number, number | null>,
  heldByOthers: ReadonlyMap<number, number>,
): boolean {
  return own.every((r) => {
    const limit = stock.get(r.productKey);
    if (limit === null) return true;
    return limit !== undefined && r.quantity <= limit - (heldByOthers.get(r.productKey) ?? 0);
  });
}
