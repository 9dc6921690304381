import type { FastifyInstance } from 'fastify';

/** A rendered page: what the site module answers for a path. */
export interface RenderedPage {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The site module leaves its page renderer on the Fastify instance, so errors that
 * Fastify raises before any route runs (a malformed path such as `/events/%ff`) can still
 * answer a page request with the site's 404 page instead of API JSON (rules "Errors").
 */
const PAGE_RENDERER = 'awhhRenderNotFoundPage';

/** Renders the 404 page for the request's raw URL (the router finds no page there). */
type Renderer = (url: string, userAgent?: string) => Promise<RenderedPage>;

export function providePageFallback(fastify: FastifyInstance, render: Renderer): void {
  if (!fastify.hasDecorator(PAGE_RENDERER)) fastify.decorate(PAGE_RENDERER, render);
}

export function pageFallback(fastify: FastifyInstance | undefined): Renderer | null {
  const render = fastify?.hasDecorator(PAGE_RENDERER)
    ? (fastify as unknown as Record<string, unknown>)[PAGE_RENDERER]
    : null;
  return typeof render === 'function' ? (render as Renderer) : null;
}

/** Paths that belong to the API (JSON errors) rather than to the site (HTML pages). */
export function isApiPath(url: string | undefined): boolean {
  const path = (url ?? '/').split('?')[0]!;
  return path === '/api' || path.startsWith('/api/');
}
