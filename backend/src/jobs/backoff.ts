/** How a failed attempt's next one is spaced: doubling from `baseMs` up to `maxMs`. */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  /**
   * Up to this share of the delay is taken off at random (default a quarter), so processes
   * that failed together do not all come back at the same moment; the cap stays a cap.
   */
  jitter?: number;
}

/**
 * The delay before retry number `retry` (0 for the first retry): `baseMs · 2^retry`, at most
 * `maxMs`, less the jitter. The one exponential backoff of the backend: the job runner's
 * retries and the WooCommerce adapter's HTTP retries both use it.
 */
export function backoffDelay(
  retry: number,
  { baseMs, maxMs, jitter = 0.25 }: BackoffPolicy,
  random: () => number = Math.random,
): number {
  const delay = Math.min(baseMs * 2 ** Math.max(0, retry), maxMs);
  return Math.round(delay * (1 - jitter * random()));
}
