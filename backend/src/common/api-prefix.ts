import type { RouteInfo } from '@nestjs/common/interfaces/index.js';

/** Every API route lives under /api (rules "Names"; nginx proxies by that prefix). */
export const API_PREFIX = 'api';

const nonApiRoutes: (string | RouteInfo)[] = [];

/**
 * Controllers that serve the site itself (HTML, robots.txt, sitemap) sit at the root.
 * Their module calls this at import time; createApp reads the list when it sets the prefix.
 */
export function excludeFromApiPrefix(...routes: (string | RouteInfo)[]): void {
  nonApiRoutes.push(...routes);
}

export function apiPrefixExclusions(): (string | RouteInfo)[] {
  return [...nonApiRoutes];
}
