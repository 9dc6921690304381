import type { CatalogProduct } from '../catalog/catalog.port.js';

/** Stock of a product as a number of units; null = unlimited (stock not managed). */
export function stockOf(product: CatalogProduct | undefined): number | null {
  if (!product) return 0;
  if (product.stock_status === 'outofstock') return 0;
  return typeof product.stock_quantity === 'number' ? Math.max(0, product.stock_quantity) : null;
}
