import { WooCommerceCatalogAdapter } from '../../src/catalog/adapters/woocommerce-catalog.adapter.js';
import type { FakeWooCommerce } from '../../../tests/support/fake-woocommerce.js';

/**
 * The real WooCommerce adapter against the one fake shop, as the API specs use it: no
 * retries (a refusal is the test's subject) and a timeout that fails a test instead of
 * hanging it.
 */
export function shopCatalog(shop: FakeWooCommerce): WooCommerceCatalogAdapter {
  return new WooCommerceCatalogAdapter(
    { url: shop.url, key: shop.key, secret: shop.secret },
    { retries: 0, timeoutMs: 15_000 },
  );
}
