import { pathToFileURL } from 'node:url';
import type {
  BlogPost,
  BlogPostSummary,
  EventDetail,
  EventSummary,
  FaqEntry,
  MerchDetail,
  MerchSummary,
  Product,
} from '@awhh/machines';

// The contract with the frontend's server entry (frontend/src/entry-server.tsx, built by
// `vite build --ssr` into frontend/dist-ssr/). DESIGN "Rendering": every page is rendered
// from the same React route modules the browser hydrates; the backend only feeds the
// loaders and wraps the result into the built index.html. Declared here structurally,
// because nothing imports the frontend's sources (STYLE "Direction of imports").

/** What the route loaders read, answered by the catalog services in this process. */
export interface PageDataSource {
  readonly onServer: true;
  products(): Promise<Product[]>;
  events(): Promise<EventSummary[]>;
  event(slug: string): Promise<EventDetail | null>;
  merch(): Promise<MerchSummary[]>;
  merchItem(slug: string): Promise<MerchDetail | null>;
  posts(): Promise<BlogPostSummary[]>;
  post(slug: string): Promise<BlogPost | null>;
  faq(): Promise<FaqEntry[]>;
}

export interface RenderRequest {
  url: string;
  origin: string;
  bot: boolean;
  signal?: AbortSignal;
}

export type RenderResult =
  | { kind: 'redirect'; status: number; location: string }
  | {
      kind: 'page';
      status: number;
      head: string;
      html: string;
      data: string;
      routeIds: string[];
      image: string | null;
    };

export type RenderPage = (request: RenderRequest) => Promise<RenderResult>;

interface RendererModule {
  createRenderer(source: PageDataSource): RenderPage;
}

/** Imports the built server entry once per process and installs the data source in it. */
export async function loadPageRenderer(
  entryPath: string,
  source: PageDataSource,
): Promise<RenderPage> {
  const module = (await import(pathToFileURL(entryPath).href)) as Partial<RendererModule>;
  if (typeof module.createRenderer !== 'function') {
    throw new Error(`${entryPath} exports no createRenderer`);
  }
  return module.createRenderer(source);
}
