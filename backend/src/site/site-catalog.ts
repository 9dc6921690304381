import type {
  BlogPost,
  BlogPostSummary,
  EventDetail,
  EventSummary,
  MerchDetail,
  MerchSummary,
  Product,
} from '@awhh/machines';

/**
 * What the site's HTML needs from the products side. SiteModule binds it to the cached
 * CatalogService, so pages, sitemap and the API always show the same data.
 */
export abstract class SiteCatalog {
  abstract products(): Promise<Product[]>;
  abstract events(): Promise<EventSummary[]>;
  /** null for an unknown slug. */
  abstract event(slug: string): Promise<EventDetail | null>;
  /** rules "Everything the shop sells": every product that is not an event. */
  abstract merch(): Promise<MerchSummary[]>;
  /** null for an unknown slug. */
  abstract merchItem(slug: string): Promise<MerchDetail | null>;
  abstract posts(): Promise<BlogPostSummary[]>;
  /** null for an unknown slug. */
  abstract post(slug: string): Promise<BlogPost | null>;
}
