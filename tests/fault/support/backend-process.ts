export { startBackend, type BackendProcess } from '../../support/backend.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a truthy value or the time is up. */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await sleep(150);
  }
  throw new Error(
    `Timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`,
  );
}

let clientCounter = 0;
/**
 * A distinct client address for each call. The per-IP rate limits (429) would otherwise
 * stop a test's own traffic long before it reaches the code under test.
 */
export function clientHeaders(): Record<string, string> {
  clientCounter += 1;
  return {
    'x-forwarded-for': `10.${(clientCounter >> 16) & 255}.${(clientCounter >> 8) & 255}.${clientCounter & 255}`,
  };
}

export interface CheckoutLine {
  productId: number;
  /** rules "Everything the shop sells": which variation of a variable product. */
  variationId?: number;
  name: string;
  amount: number;
  quantity: number;
}

/** POST /api/checkout/session with the rules §7 body. */
export async function createCheckout(
  siteUrl: string,
  lines: CheckoutLine[],
  extra: Record<string, unknown> = {},
): Promise<Response> {
  return fetch(`${siteUrl}/api/checkout/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...clientHeaders() },
    body: JSON.stringify({
      line_items: lines.map((l) => ({ ...l, currency: 'eur', images: [] })),
      success_url: `${siteUrl}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${siteUrl}/cart`,
      payment_method: 'card',
      email: 'kauf@example.org',
      ...extra,
    }),
  });
}

/** A job row as the fault specs read it from the store. */
export interface StoredJobRow {
  done_at: number | null;
  attempts: number;
  lease_until: number | null;
  next_attempt_at: number;
}

/**
 * A job that failed at least once and waits, unleased, for a retry more than `marginMs`
 * away: killing the process now kills it between two attempts, not during one.
 */
export function waitsForRetry(job: StoredJobRow, now: number, marginMs = 700): boolean {
  return (
    job.done_at === null &&
    job.attempts >= 1 &&
    job.lease_until === null &&
    job.next_attempt_at > now + marginMs
  );
}
