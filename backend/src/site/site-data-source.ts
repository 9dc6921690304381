import { Logger } from '@nestjs/common';
import { FAQ_ENTRIES } from '../products/faq.data.js';
import type { PageDataSource, RetentionPeriods } from '@awhh/machines';
import type { SiteCatalog } from './site-catalog.js';

/**
 * The loaders' data source in the products process: the same cached catalog the API
 * answers from, called directly (no request to itself). A catalog failure without stale
 * data becomes a 503 error response for the page, which the router renders as the error
 * page and the site answers with Retry-After (rules "Errors").
 */
export function siteDataSource(catalog: SiteCatalog, periods: RetentionPeriods): PageDataSource {
  const logger = new Logger('Site');
  const guarded =
    <A extends unknown[], T>(read: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      try {
        return await read(...args);
      } catch (err) {
        logger.warn({ msg: 'page rendered without catalog data', err: String(err) });
        // react-router turns a thrown Response into the route's error with its status.
        throw new Response('Der Katalog ist gerade nicht erreichbar.', { status: 503 });
      }
    };
  return {
    onServer: true,
    products: guarded(() => catalog.products()),
    events: guarded(() => catalog.events()),
    event: guarded((slug: string) => catalog.event(slug)),
    merch: guarded(() => catalog.merch()),
    merchItem: guarded((slug: string) => catalog.merchItem(slug)),
    posts: guarded(() => catalog.posts()),
    post: guarded((slug: string) => catalog.post(slug)),
    faq: async () => [...FAQ_ENTRIES],
    privacy: async () => periods,
  };
}
