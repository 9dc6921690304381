import { Logger, type Provider } from '@nestjs/common';
import { AppConfig } from '../../config/config.js';
import { CatalogPort } from '../catalog.port.js';
import { DemoCatalogAdapter } from './demo-catalog.adapter.js';
import { WooCommerceCatalogAdapter } from './woocommerce-catalog.adapter.js';

/** WooCommerce when WOOCOMMERCE_URL is set (parseConfig already demanded key and secret). */
export function createCatalogAdapter(config: AppConfig): CatalogPort {
  if (config.woocommerce) return new WooCommerceCatalogAdapter(config.woocommerce);
  new Logger('Catalog').log('WOOCOMMERCE_URL is not set: serving the embedded demo catalog');
  return new DemoCatalogAdapter();
}

export const catalogAdapterProvider: Provider = {
  provide: CatalogPort,
  useFactory: createCatalogAdapter,
  inject: [AppConfig],
};
