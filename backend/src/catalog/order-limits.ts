import { isEventProduct, MAX_UNITS_PER_ORDER } from '@awhh/machines';
import type { CatalogProduct } from './catalog.port.js';

/**
 * Units of one product, all its variants together, that one order may hold: 1 for a
 * product WooCommerce sells individually, MAX_TICKETS_PER_ORDER for an event (so one
 * request cannot hold a whole evening), else the order's own limit. The event and merch
 * pages announce it as `maxPerOrder`; the checkout enforces it.
 */
export function maxPerOrderOf(
  product: Pick<CatalogProduct, 'sold_individually' | 'kind' | 'meta_data' | 'categories'>,
  maxTicketsPerOrder: number,
): number {
  if (product.sold_individually) return 1;
  return isEventProduct(product) ? maxTicketsPerOrder : MAX_UNITS_PER_ORDER;
}
