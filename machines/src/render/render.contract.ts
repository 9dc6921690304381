import type { DatedProduct } from '../events/next-event.js';
import type { RetentionPeriods } from '../privacy/retention.js';
import type {
  BlogPost,
  BlogPostSummary,
  EventDetail,
  EventSummary,
  FaqEntry,
  MerchDetail,
  MerchSummary,
  Ticket,
} from '../schemas/wire.schemas.js';

// The contract between the products process and the frontend's server entry (rules
// "Rendering": one render path). Shared here because the backend never imports the
// frontend's sources (imports flow one way, docs/architecture.md): both sides import these types.

declare global {
  /**
   * Browsers and Node both have AbortSignal; machines is built for neither (no DOM or Node
   * types), so it names the one member both share. Where the platform's declaration is
   * present this merges into it.
   */
  interface AbortSignal {
    readonly aborted: boolean;
  }
}

/**
 * What the route loaders read. In the browser it is the public API; in the products
 * process the server renderer installs one that calls the catalog services directly, so a
 * page never sends a request to itself. Unknown slugs answer null (the loaders' 404).
 */
export interface PageDataSource {
  /** True in the server renderer: loaders await their data so the HTML carries the content. */
  readonly onServer: boolean;
  products(signal?: AbortSignal): Promise<DatedProduct[]>;
  events(signal?: AbortSignal): Promise<EventSummary[]>;
  event(slug: string, signal?: AbortSignal): Promise<EventDetail | null>;
  merch(signal?: AbortSignal): Promise<MerchSummary[]>;
  merchItem(slug: string, signal?: AbortSignal): Promise<MerchDetail | null>;
  posts(signal?: AbortSignal): Promise<BlogPostSummary[]>;
  post(slug: string, signal?: AbortSignal): Promise<BlogPost | null>;
  faq(signal?: AbortSignal): Promise<FaqEntry[]>;
  /**
   * How long personal data is kept, as the erasure job applies it (the privacy page states
   * it). Only the server renderer has it: in the browser the privacy page asks
   * `GET /api/privacy` from its own chunk, which keeps the first load of / within its budget.
   */
  privacy?(signal?: AbortSignal): Promise<RetentionPeriods>;
  /**
   * A ticket by its token, for /tickets/{token}'s server HTML (rules "Tickets and the
   * door": the page needs one request). Only the server renderer has it, and only where the
   * products process knows the checkout side (CHECKOUT_URL); without it the browser asks
   * the tickets API after hydration.
   */
  ticket?(token: string, signal?: AbortSignal): Promise<TicketLookup>;
}

/** What a ticket's token names: the ticket, nothing, or a ticket passed on since (410). */
export type TicketLookup =
  { status: 'found'; ticket: Ticket } | { status: 'not-found' } | { status: 'passed-on' };

export interface RenderRequest {
  /** Path and query of the page. */
  url: string;
  /** PUBLIC_URL: origin of canonical and JSON-LD URLs. */
  origin: string;
  /** rules §2: crawlers get no error page (decided per request by the caller). */
  bot: boolean;
  signal?: AbortSignal;
}

export type RenderResult =
  | { kind: 'redirect'; status: number; location: string }
  | {
      kind: 'page';
      status: number;
      /** Title, meta, canonical and JSON-LD tags for <head>. */
      head: string;
      /** The markup inside <div id="root">. */
      html: string;
      /** The JSON data block the browser hydrates from (after the root). */
      data: string;
      /** Ids of the matched routes (= module names in src/app/routes, for preload hints). */
      routeIds: string[];
      /** The first screen's largest image, worth preloading (LCP). */
      image: string | null;
    };

export type RenderPage = (request: RenderRequest) => Promise<RenderResult>;

/** What the server entry (frontend/src/entry-server.tsx) exports. */
export interface PageRendererModule {
  createRenderer(source: PageDataSource): RenderPage;
}
