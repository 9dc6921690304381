import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { apiError } from './api-error.js';

export interface RateLimitRule {
  /** Buckets are per rule and client IP. */
  name: string;
  limit: number;
  windowMs: number;
  /** German, shown to the visitor. */
  message?: string;
}

const RATE_LIMIT_RULE = 'awhh:rate-limit';
const DEFAULT_MESSAGE = 'Zu viele Anfragen. Bitte warte einen Moment und versuche es dann erneut.';
/** Beyond this many buckets, lapsed ones are swept so random IPs cannot grow memory for long. */
const SWEEP_ABOVE = 10_000;

interface Bucket {
  count: number;
  resetAt: number;
}

/**
 * Fixed-window counters per process. Behind nginx with several API containers each
 * container counts on its own, so the effective limit is `limit × containers`; nginx's
 * own limit_req is the outer fence.
 */
@Injectable()
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** Counts one hit; returns the seconds to wait when over the limit, else 0. */
  hit(rule: RateLimitRule, client: string, now = Date.now()): number {
    const key = `${rule.name}|${client}`;
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.resetAt <= now) {
      if (this.buckets.size >= SWEEP_ABOVE) this.sweep(now);
      bucket = { count: 0, resetAt: now + rule.windowMs };
      this.buckets.set(key, bucket);
    }
    bucket.count += 1;
    return bucket.count > rule.limit ? Math.ceil((bucket.resetAt - now) / 1000) : 0;
  }

  reset(): void {
    this.buckets.clear();
  }

  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) if (bucket.resetAt <= now) this.buckets.delete(key);
  }
}

/** One limiter for the whole process, shared by every module that uses the guard. */
export const sharedRateLimiter = new RateLimiter();

@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(@Inject(Reflector) private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const rule = this.reflector.get<RateLimitRule | undefined>(
      RATE_LIMIT_RULE,
      context.getHandler(),
    );
    if (!rule) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<{ ip?: string }>();
    const wait = sharedRateLimiter.hit(rule, request.ip ?? 'unknown');
    if (wait === 0) return true;
    http
      .getResponse<{ header(name: string, value: string): unknown }>()
      .header('retry-after', String(wait));
    throw apiError(429, rule.message ?? DEFAULT_MESSAGE);
  }
}

/** `@RateLimit({ name: 'contact', limit: 5, windowMs: 600_000 })` on a route handler: 429 beyond it. */
export function RateLimit(rule: RateLimitRule) {
  return applyDecorators(SetMetadata(RATE_LIMIT_RULE, rule), UseGuards(RateLimitGuard));
}
