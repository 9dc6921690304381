import type { Provider } from '@nestjs/common';
import type {
  BlogPost,
  BlogPostSummary,
  EventDetail,
  EventSummary,
  MerchDetail,
  MerchSummary,
} from '@awhh/machines';
import { CatalogModule } from '../catalog/catalog.module.js';
import { CatalogService } from '../catalog/catalog.service.js';
import type { CachedBody } from '../products/http-cache.js';
import { ProductsModule } from '../products/products.module.js';
import { ProductsService } from '../products/products.service.js';
import { SiteCatalog } from './site-catalog.js';

export const SITE_CATALOG_IMPORTS = [CatalogModule, ProductsModule];

/**
 * The pages read exactly what /api/events, /api/merch and /api/blog answer (same cache, same
 * sanitising, same availability rule). Parsed once per ETag, i.e. per catalog generation.
 */
export class ProductsSiteCatalog extends SiteCatalog {
  private readonly parsed = new Map<string, unknown>();

  constructor(
    private readonly catalog: CatalogService,
    private readonly products_: ProductsService,
  ) {
    super();
  }

  private parse<T>(cached: CachedBody | undefined): T | null {
    if (!cached) return null;
    let value = this.parsed.get(cached.etag);
    if (value === undefined) {
      // Bounded: old generations are dropped wholesale.
      if (this.parsed.size > 500) this.parsed.clear();
      value = JSON.parse(cached.body);
      this.parsed.set(cached.etag, value);
    }
    return value as T;
  }

  products() {
    return this.catalog.products();
  }

  async events() {
    return this.parse<EventSummary[]>(await this.products_.events(new Date())) ?? [];
  }

  async event(slug: string) {
    return this.parse<EventDetail>(await this.products_.event(slug, new Date()));
  }

  async merch() {
    return this.parse<MerchSummary[]>(await this.products_.merch()) ?? [];
  }

  async merchItem(slug: string) {
    return this.parse<MerchDetail>(await this.products_.merchItem(slug));
  }

  async posts() {
    return this.parse<BlogPostSummary[]>(await this.products_.posts()) ?? [];
  }

  async post(slug: string) {
    return this.parse<BlogPost>(await this.products_.post(slug));
  }
}

export const siteCatalogProvider: Provider = {
  provide: SiteCatalog,
  useFactory: (catalog: CatalogService, products: ProductsService) =>
    new ProductsSiteCatalog(catalog, products),
  inject: [CatalogService, ProductsService],
};
