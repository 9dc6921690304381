import { Injectable } from '@nestjs/common';

/**
 * Timings of the checkout. Defaults are production values; tests inject shorter ones
 * through this provider.
 */
@Injectable()
export class CheckoutOptions {
  /**
   * Payment session and reservation lifetime (rules "Capacity": 30 min). One extra
   * minute because Stripe rejects an `expires_at` less than 30 minutes after it receives
   * the request, and the request takes a moment to get there.
   */
  sessionTtlMs = 31 * 60_000;
  /** How often each process looks for due outbox jobs (hand-offs, refunds). */
  outboxPollMs = 1_000;
  /** First retry delay; doubles per attempt up to `outboxMaxBackoffMs`. */
  outboxBaseBackoffMs = 2_000;
  outboxMaxBackoffMs = 10 * 60_000;
  /** A claimed job is another process's to retry once its lease has run out. */
  outboxLeaseMs = 60_000;
  /** Recent webhook events shown on the webhook test page. */
  recentEventsLimit = 20;
  /**
   * rules "The order's life": an order still waiting for its payment after this long is
   * checked with the provider, webhook or not.
   */
  reconcileAfterMs = 10 * 60_000;
  /** How often each process sweeps for such orders; 0 turns the sweep off. */
  reconcileIntervalMs = 60_000;
  /** Orders asked about per sweep, oldest first. */
  reconcileBatch = 50;
  /** The success page polls; the provider is asked about one open session at most this often. */
  reconcileOnViewMs = 2_000;
  /**
   * rules "Waiting list": how often each process looks for places to offer (lapsed
   * offers, stock raised in the catalog); a release in this process wakes it at once.
   * 0 turns the periodic pass off.
   */
  waitlistPassMs = 20_000;
  /**
   * How often each process checks whether today's erasure of personal data is still due
   * (docs/privacy.md); it also checks at start-up. 0: at start-up only.
   */
  privacyCheckMs = 60 * 60_000;
}
