import { type CatalogProduct, type CatalogVariation, shopReadAt } from '../catalog/catalog.port.js';

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
  /**
   * When the shop was asked for `stock` (epoch ms; `SHOP_READ_AT`): sales the shop confirmed
   * before are in it, their holds no longer count against it (docs/ledger.md).
   */
  readAt: number;
}

/** A stock unit found in the catalog, with the product and variation it was found through. */
export interface FoundStockUnit extends StockUnit {
  product: CatalogProduct;
  /** null: the product itself (a simple product, or the parent of a variable one). */
  variation: CatalogVariation | null;
}

/**
 * The stock unit a line of `productId` (and `variationId`, null for the product itself)
 * draws from, with its stock; undefined when the catalog does not list the product, or not
 * the variation. rules "Everything the shop sells": a variation sells from its own stock,
 * or from the parent's when it shares it.
 */
export function findStockUnit(
  products: readonly CatalogProduct[],
  productId: number,
  variationId: number | null,
): FoundStockUnit | undefined {
  const product = products.find((p) => p.id === productId);
  if (!product) return undefined;
  const readAt = shopReadAt(product);
  if (variationId === null) {
    return { product, variation: null, productKey: product.id, stock: stockOf(product), readAt };
  }
  const variation = product.variants?.find((v) => v.id === variationId);
  if (!variation) return undefined;
  return variation.sharesParentStock
    ? { product, variation, productKey: product.id, stock: stockOf(product), readAt }
    : { product, variation, productKey: variation.id, stock: stockOf(variation), readAt };
}
