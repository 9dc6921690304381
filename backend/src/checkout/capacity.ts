import type { CatalogProduct, CatalogVariation } from '../catalog/catalog.port.js';

/** Stock of a product or variation in units; null = unlimited (stock not managed). */
export function stockOf(
  product: Pick<CatalogProduct | CatalogVariation, 'stock_status' | 'stock_quantity'> | undefined,
): number | null {
  if (!product) return 0;
  if (product.stock_status === 'outofstock') return 0;
  return typeof product.stock_quantity === 'number' ? Math.max(0, product.stock_quantity) : null;
}
