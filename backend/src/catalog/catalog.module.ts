import { Module } from '@nestjs/common';
import { catalogAdapterProvider } from './adapters/catalog-adapter.factory.js';
import { CatalogService } from './catalog.service.js';

/** Imported by the products and checkout modules; Nest shares one instance between them. */
@Module({
  providers: [catalogAdapterProvider, CatalogService],
  exports: [CatalogService],
})
export class CatalogModule {}
