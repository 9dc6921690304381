import { Logger, type Provider } from '@nestjs/common';
import { AppConfig } from '../../config/config.js';
import { instrumented, MetricsRegistry } from '../../ops/dependency-metrics.js';
import { CatalogError } from '../catalog.errors.js';
import { CatalogPort } from '../catalog.port.js';
import { DemoCatalogAdapter } from './demo-catalog.adapter.js';
import { WooCommerceCatalogAdapter } from './woocommerce-catalog.adapter.js';

/** WooCommerce when WOOCOMMERCE_URL is set (parseConfig already demanded key and secret). */
export function createCatalogAdapter(config: AppConfig): CatalogPort {
  const logger = new Logger('Catalog');
  // An http:// shop outside loopback is refused by the configuration already.
  if (config.woocommerce) {
    return new WooCommerceCatalogAdapter(config.woocommerce);
  }
  logger.log('WOOCOMMERCE_URL is not set: serving the embedded demo catalog');
  return new DemoCatalogAdapter();
}

/**
 * WooCommerce's calls timed and their failures counted (docs/operations.md "Betrieb: Metriken"). A
 * refused hand-off is the shop's answer, shown to the organizer (rules "Hand-off
 * refused"), not WooCommerce failing.
 */
export function instrumentedCatalog(adapter: CatalogPort, metrics: MetricsRegistry): CatalogPort {
  if (adapter.name !== 'woocommerce') return adapter;
  return instrumented(
    adapter,
    'woocommerce',
    [
      'listProducts',
      'findCoupon',
      'listPosts',
      'createOrder',
      'refundOrder',
      'ordersChangedSince',
      'findOrder',
      'orderRefunds',
      'restockOrder',
    ],
    metrics.dependencies,
    (err) => !(err instanceof CatalogError && err.kind === 'refused'),
  );
}

export const catalogAdapterProvider: Provider = {
  provide: CatalogPort,
  useFactory: (config: AppConfig, metrics: MetricsRegistry) =>
    instrumentedCatalog(createCatalogAdapter(config), metrics),
  inject: [AppConfig, MetricsRegistry],
};
