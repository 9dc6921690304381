import { Injectable } from '@nestjs/common';
import type { BackoffPolicy } from './backoff.js';

/**
 * Timings of the job runner. Defaults are production values; tests inject shorter ones
 * through this provider.
 */
@Injectable()
export class JobOptions {
  /** How often each process looks for due jobs (besides the wake-up after a commit). */
  pollMs = 1_000;
  /** First retry delay; doubles per attempt up to `maxBackoffMs` (backoff.ts). */
  baseBackoffMs = 2_000;
  maxBackoffMs = 10 * 60_000;
  /** A job one process took is another process's to run once its lease has run out. */
  leaseMs = 60_000;

  get backoff(): BackoffPolicy {
    return { baseMs: this.baseBackoffMs, maxMs: this.maxBackoffMs };
  }
}
