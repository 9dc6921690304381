import { Injectable } from '@nestjs/common';

/**
 * Timings of the organizer's live dashboard (rules "The organizer": a change shows within
 * 5 seconds). Defaults are production values; tests inject shorter ones through this provider.
 */
@Injectable()
export class OrganizerOptions {
  /**
   * How often a watched event's figures are read from the store. A sale, check-in or
   * waiting-list change may come from any process (several checkout containers, the door's
   * sync), so the store is the one place to look; one read serves every open dashboard of
   * the event in this process.
   */
  livePollMs = 1_500;
  /** A comment line this often keeps proxies (nginx reads for 30 s) from closing a quiet stream. */
  heartbeatMs = 15_000;
  /** Open live streams per process: an organizer has a few tabs, not hundreds. */
  maxLiveStreams = 50;
}
