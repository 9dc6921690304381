import { Module } from '@nestjs/common';
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
export class CatalogModule {}
