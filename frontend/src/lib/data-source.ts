import type {
  BlogPost,
  BlogPostSummary,
  DatedProduct,
  EventDetail,
  EventSummary,
  FaqEntry,
  MerchDetail,
  MerchSummary,
  PageDataSource,
} from '@awhh/machines';
import { api } from '@/config/paths';
import { apiGet, isNotFound } from './api-client';

/**
 * What the route loaders read (rules "Rendering": one render path): the public API in the
 * browser; in the products process the server renderer installs the catalog services.
 */
export type DataSource = PageDataSource;

function orNull<T>(request: Promise<T>): Promise<T | null> {
  return request.catch((error: unknown) => {
    if (isNotFound(error)) return null;
    throw error;
  });
}

// Responses are trusted as typed: the server validates them against the shared schemas,
// and keeping zod out of the browser keeps the first load small.
const browserDataSource: DataSource = {
  onServer: false,
  products: (signal) => apiGet<DatedProduct[]>(api.products, signal),
  events: (signal) => apiGet<EventSummary[]>(api.events, signal),
  event: (slug, signal) => orNull(apiGet<EventDetail>(api.event(slug), signal)),
  merch: (signal) => apiGet<MerchSummary[]>(api.merch, signal),
  merchItem: (slug, signal) => orNull(apiGet<MerchDetail>(api.merchItem(slug), signal)),
  posts: (signal) => apiGet<BlogPostSummary[]>(api.blog, signal),
  post: (slug, signal) => orNull(apiGet<BlogPost>(api.blogPost(slug), signal)),
  faq: (signal) => apiGet<FaqEntry[]>(api.faq, signal),
};

let installed: DataSource = browserDataSource;

/** Called once per process by the server renderer (frontend/src/entry-server.tsx). */
export function installDataSource(source: DataSource): void {
  installed = source;
}

export function dataSource(): DataSource {
  return installed;
}

type Settled<T> = { [K in keyof T]: Awaited<T[K]> };

/**
 * A loader's sections: in the browser the page renders at once with skeletons while they
 * load (loading states everywhere); on the server every section is awaited, so the first
 * paint and crawlers get the content (rules "Rendering").
 */
export async function sections<T extends Record<string, unknown>>(
  values: T,
): Promise<T | Settled<T>> {
  if (!installed.onServer) return values;
  const keys = Object.keys(values) as (keyof T)[];
  const settled = await Promise.all(keys.map((key) => values[key]));
  return Object.fromEntries(keys.map((key, i) => [key, settled[i]])) as Settled<T>;
}
