import { Logger } from '@nestjs/common';
import { currentRequestId } from '../common/request-context.js';
import { FAQ_ENTRIES } from '../products/faq.data.js';
import {
  ticketSchema,
  type PageDataSource,
  type RetentionPeriods,
  type TicketLookup,
} from '@awhh/machines';
import type { SiteCatalog } from './site-catalog.js';

/**
 * The loaders' data source in the products process: the same cached catalog the API
 * answers from, called directly (no request to itself). A catalog failure without stale
 * data becomes a 503 error response for the page, which the router renders as the error
 * page and the site answers with Retry-After (rules "Errors").
 */
/** A cellar with one bar of signal waits for the page, not for a slow checkout side. */
const TICKET_TIMEOUT_MS = 3000;

/**
 * rules "Tickets and the door": /tickets/{token} carries its ticket in the server HTML. The
 * tickets live on the checkout side, which the products process asks like the browser
 * would (GET /api/tickets/:token). Any failure throws; the loader then leaves the ticket
 * to the browser.
 */
export function ticketReader(checkoutUrl: string) {
  return async (token: string, signal?: AbortSignal): Promise<TicketLookup> => {
    const timeout = AbortSignal.timeout(TICKET_TIMEOUT_MS);
    // The page request's id goes along: the checkout side's log lines of this read carry it.
    const requestId = currentRequestId();
    const response = await fetch(`${checkoutUrl}/api/tickets/${encodeURIComponent(token)}`, {
      headers: {
        accept: 'application/json',
        ...(requestId ? { 'x-request-id': requestId } : {}),
      },
      signal: signal ? AbortSignal.any([signal as AbortSignal, timeout]) : timeout,
    });
    if (response.status === 404) return { status: 'not-found' };
    // rules "Named tickets": passed on since; this link is void.
    if (response.status === 410) return { status: 'passed-on' };
    if (!response.ok) throw new Error(`tickets API answered ${response.status}`);
    return { status: 'found', ticket: ticketSchema.parse(await response.json()) };
  };
}

export function siteDataSource(
  catalog: SiteCatalog,
  periods: RetentionPeriods,
  checkoutUrl: string | null = null,
): PageDataSource {
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
    ...(checkoutUrl ? { ticket: ticketReader(checkoutUrl) } : {}),
  };
}
