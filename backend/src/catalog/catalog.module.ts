import { Module, type OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { MetricsRegistry } from '../ops/dependency-metrics.js';
import { StoreModule } from '../store/store.module.js';
import { catalogAdapterProvider } from './adapters/catalog-adapter.factory.js';
import { CatalogVersion } from './catalog-version.js';
import { CatalogService } from './catalog.service.js';

/**
 * Imported by the products and checkout modules; Nest shares one instance between them. The
 * store carries the catalog's version, which tells every process of a change in the shop
 * (docs/decisions/0014-catalog-changes-reach-every-process.md).
 */
@Module({
  imports: [StoreModule],
  providers: [catalogAdapterProvider, CatalogService, CatalogVersion],
  exports: [CatalogService, CatalogVersion],
})
export class CatalogModule implements OnModuleInit {
  constructor(
    private readonly catalog: CatalogService,
    private readonly metrics: MetricsRegistry,
  ) {}

  /**
   * How old the catalog this process serves is (docs/operations.md "Betrieb: Metriken"): beyond
   * CATALOG_TTL_SECONDS only while WooCommerce cannot be reached (served stale for up to a
   * day, rules "Errors"). No series before the first successful fetch.
   */
  onModuleInit(): void {
    const catalog = this.catalog;
    new Gauge({
      name: 'catalog_cache_age_seconds',
      help: 'Seconds since the catalog was last fetched successfully (WooCommerce or the demo catalog), by resource',
      labelNames: ['resource'] as const,
      registers: [this.metrics.registry],
      collect() {
        this.reset();
        for (const [resource, age] of Object.entries(catalog.cacheAges())) {
          if (age !== null) this.set({ resource }, age);
        }
      },
    });
  }
}
