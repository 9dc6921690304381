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
  /** Recent webhook events shown on the webhook test page. */
  recentEventsLimit = 20;
  /**
   * rules "The order's life": an order still waiting for its payment after this long is
   * checked with the provider, webhook or not.
   */
  reconcileAfterMs = 10 * 60_000;
  /**
   * How often the deployment sweeps for such orders: a recurring job, run by one process
   * at a time. 0: this process never sweeps.
   */
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
}
