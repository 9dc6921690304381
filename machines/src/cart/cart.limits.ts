import { MAX_UNITS_PER_ORDER } from '../pricing/pricing.js';
import type { CartItem } from '../schemas/wire.schemas.js';

// The order limits the server enforces at checkout, applied while the cart is filled so
// a visitor never builds a cart the checkout refuses: a product's `maxPerOrder` (the
// server's per-event limit, 1 for a product sold individually) over all its variants,
// and MAX_UNITS_PER_ORDER over the whole cart.

type LimitedItem = Pick<CartItem, 'id' | 'quantity' | 'productId' | 'variationId' | 'maxPerOrder'>;

/** The product a line belongs to: its variants share the product's limit. */
function productOf(item: Pick<CartItem, 'id' | 'productId'>): string {
  return String(item.productId ?? Number.parseInt(item.id, 10));
}

export interface LineLimit {
  /** Which limit is the tighter one: the product's or the whole order's. */
  kind: 'product' | 'order';
  max: number;
  /** The product's own limit per order. */
  perProduct: number;
}

/**
 * The most units the line `item` may hold beside the rest of `items` (which may contain
 * `item` itself; its own quantity does not count against it), and which limit sets it.
 */
export function lineLimit(items: readonly LimitedItem[], item: LimitedItem): LineLimit {
  const product = productOf(item);
  const others = items.filter((i) => i.id !== item.id);
  const perProduct = Math.min(
    ...[item, ...others.filter((i) => productOf(i) === product)].map(
      (i) => i.maxPerOrder ?? MAX_UNITS_PER_ORDER,
    ),
  );
  const sameProduct = others
    .filter((i) => productOf(i) === product)
    .reduce((sum, i) => sum + i.quantity, 0);
  const inCart = others.reduce((sum, i) => sum + i.quantity, 0);
  const byProduct = Math.max(0, perProduct - sameProduct);
  const byOrder = Math.max(0, MAX_UNITS_PER_ORDER - inCart);
  return byProduct <= byOrder
    ? { kind: 'product', max: byProduct, perProduct }
    : { kind: 'order', max: byOrder, perProduct };
}

/** `quantity` cut to what the line may hold (0: nothing more fits). */
export function clampToLimit(
  items: readonly LimitedItem[],
  item: LimitedItem,
  quantity: number,
): number {
  return Math.min(quantity, lineLimit(items, item).max);
}

/**
 * The hint beside a line that has reached its limit, in the words of the checkout's
 * refusal; null while more fits.
 */
export function limitHint(items: readonly LimitedItem[], item: LimitedItem): string | null {
  const limit = lineLimit(items, item);
  if (item.quantity < limit.max) return null;
  if (limit.kind === 'order') {
    return `Eine Bestellung umfasst höchstens ${MAX_UNITS_PER_ORDER} Artikel.`;
  }
  return limit.perProduct === 1
    ? 'Davon gibt es nur ein Stück pro Bestellung.'
    : `Davon sind höchstens ${limit.perProduct} pro Bestellung möglich${item.variationId ? ' (alle Varianten zusammen)' : ''}.`;
}
