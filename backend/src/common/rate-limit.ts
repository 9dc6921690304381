import fastifyRateLimit from '@fastify/rate-limit';
import { RouteConfig, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { apiError } from './api-error.js';

export interface RateLimitRule {
  /** Buckets are per rule and client IP. */
  name: string;
  limit: number;
  windowMs: number;
  /** German, shown to the visitor. */
  message?: string;
}

const DEFAULT_MESSAGE = 'Zu viele Anfragen. Bitte warte einen Moment und versuche es dann erneut.';

/**
 * Counters live in each process (the plugin's LRU store, bounded, so random IPs cannot
 * grow memory). Behind nginx with several API containers each counts on its own, so the
 * effective limit is `limit × containers`; nginx's own limit_req is the outer fence.
 */
export async function registerRateLimit(app: NestFastifyApplication): Promise<void> {
  // Routes opt in with @RateLimit; everything else is not counted.
  await app.register(fastifyRateLimit, { global: false });
}

/**
 * `@RateLimit({ name: 'contact', limit: 5, windowMs: 600_000 })` on a route handler: 429
 * with Retry-After and a German message beyond it. The answer is thrown as an
 * HttpException so the global filter shapes it (the plugin's own object would become a 500).
 */
export function RateLimit(rule: RateLimitRule) {
  return RouteConfig({
    rateLimit: {
      max: rule.limit,
      timeWindow: rule.windowMs,
      keyGenerator: (request: FastifyRequest) => `${rule.name}|${request.ip}`,
      errorResponseBuilder: () => apiError(429, rule.message ?? DEFAULT_MESSAGE),
      // Only the refusal says when to come back (Retry-After); an allowed request carries
      // no X-RateLimit-* headers, which would tell a script its remaining budget and cost
      // every checkout three header writes.
      addHeadersOnExceeding: {
        'x-ratelimit-limit': false,
        'x-ratelimit-remaining': false,
        'x-ratelimit-reset': false,
      },
      addHeaders: {
        'x-ratelimit-limit': false,
        'x-ratelimit-remaining': false,
        'x-ratelimit-reset': false,
        'retry-after': true,
      },
    },
  });
}
