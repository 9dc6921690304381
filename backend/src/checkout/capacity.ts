import type { LineProblem } from '@awhh/machines';
import type { CatalogProduct, CatalogVariation } from '../catalog/catalog.port.js';
import type { Reservation, WaitedUnit } from '../store/store.port.js';

/** Stock of a product or variation in units; null = unlimited (stock not managed). */
export function stockOf(
  product: Pick<CatalogProduct | CatalogVariation, 'stock_status' | 'stock_quantity'> | undefined,
): number | null {
  if (!product) return 0;
  if (product.stock_status === 'outofstock') return 0;
  return typeof product.stock_quantity === 'number' ? Math.max(0, product.stock_quantity) : null;
}

/** The stock unit a line draws from, and its stock. */
export interface StockUnit {
  /** The variation id when the variation keeps its own stock, else the product id. */
  productKey: number;
  /** null: unlimited (WooCommerce does not manage stock for it). */
  stock: number | null;
}

/**
 * rules "Everything the shop sells": a variation sells from its own stock, or from the
 * parent's when it shares it.
 */
export function stockUnitOf(
  product: CatalogProduct,
  variation: CatalogVariation | null | undefined,
): StockUnit {
  if (!variation || variation.sharesParentStock) {
    return { productKey: product.id, stock: stockOf(product) };
  }
  return { productKey: variation.id, stock: stockOf(variation) };
}

/** A line as the capacity check sees it. */
export interface CapacityLine extends StockUnit {
  quantity: number;
}

/** Units wanted per stock unit: two lines (tiers sharing the parent's stock) may draw from one. */
export function wantedByKey(lines: readonly CapacityLine[]): Reservation[] {
  const wanted = new Map<number, number>();
  for (const l of lines) wanted.set(l.productKey, (wanted.get(l.productKey) ?? 0) + l.quantity);
  return [...wanted].map(([productKey, quantity]) => ({ productKey, quantity }));
}

/**
 * rules "Capacity": available = stock − active reservations. The lines that do not fit,
 * each with what is still available, one per stock unit.
 */
export function shortagesOf<L extends CapacityLine>(
  lines: readonly L[],
  reserved: ReadonlyMap<number, number>,
): { line: L; available: number }[] {
  const wanted = new Map(wantedByKey(lines).map((r) => [r.productKey, r.quantity]));
  const short: { line: L; available: number }[] = [];
  const seen = new Set<number>();
  for (const line of lines) {
    if (line.stock === null || seen.has(line.productKey)) continue;
    seen.add(line.productKey);
    const available = Math.max(0, line.stock - (reserved.get(line.productKey) ?? 0));
    if ((wanted.get(line.productKey) ?? 0) > available) short.push({ line, available });
  }
  return short;
}

/**
 * rules "Capacity": a payment after its reservation lapsed is accepted if the order's
 * units still fit into the stock others have not reserved meanwhile.
 */
export function fitsAgain(
  own: readonly Reservation[],
  stock: ReadonlyMap<number, number | null>,
  reservedByOthers: ReadonlyMap<number, number>,
): boolean {
  return own.every((r) => {
    const limit = stock.get(r.productKey);
    if (limit === null) return true;
    return limit !== undefined && r.quantity <= limit - (reservedByOthers.get(r.productKey) ?? 0);
  });
}

/** "ausverkauft" / "nur noch N verfügbar", one sentence per line. */
export function shortageMessage(problems: readonly LineProblem[]): string {
  return problems
    .map((p) =>
      !p.available
        ? `„${p.name}“ ist leider ausverkauft.`
        : `Von „${p.name}“ sind nur noch ${p.available} verfügbar.`,
    )
    .join(' ');
}

/**
 * The unit's stock from the catalog (null: unlimited); undefined when the catalog no longer
 * sells it that way (product or tier gone, or its stock moved to another unit).
 */
export function stockOfUnit(
  products: readonly CatalogProduct[],
  unit: WaitedUnit,
): number | null | undefined {
  const product = products.find((p) => p.id === unit.productId);
  if (!product) return undefined;
  const variation =
    unit.variationId === null ? null : product.variants?.find((v) => v.id === unit.variationId);
  if (unit.variationId !== null && !variation) return undefined;
  const found = stockUnitOf(product, variation);
  return found.productKey === unit.productKey ? found.stock : undefined;
}
