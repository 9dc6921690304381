import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicators, type HealthReport } from '../health/health-indicators.js';
import { StoreDatabase } from '../store/store.database.js';
import { dueJobs } from './job.repository.js';

/**
 * A job due this long and still not done means no process runs the queue (a runner hung,
 * every checkout process gone, a job whose handler no running release has): ticket mails and
 * hand-offs wait. A failing job does not count: each retry makes it due again later, so its
 * wait starts anew (docs/operations.md "Betrieb: Metriken", the alert `JobsStuck`).
 */
export const STUCK_JOB_AFTER_MS = 15 * 60_000;

/** Readiness of the jobs queue: 503 from /api/health/ready while a due job waits too long. */
@Injectable()
export class JobsHealth {
  constructor(
    @Inject(StoreDatabase) private readonly store: StoreDatabase,
    @Inject(HealthIndicators) health: HealthIndicators,
  ) {
    health.register('jobs', () => this.check(Date.now()));
  }

  /** The queue at `now`: not ok when a due job of some name has waited over 15 minutes. */
  async check(now: number): Promise<HealthReport> {
    const rows = await dueJobs(this.store.db, now);
    const due = rows.reduce((sum, row) => sum + row.depth, 0);
    const stuck = rows
      .filter((row) => now - row.oldestDueAt > STUCK_JOB_AFTER_MS)
      .sort((a, b) => a.oldestDueAt - b.oldestDueAt);
    if (stuck.length === 0) return { ok: true, due };
    const oldest = stuck[0]!;
    const minutes = Math.floor((now - oldest.oldestDueAt) / 60_000);
    return {
      ok: false,
      due,
      // Job names only: what a job is about stays in the store (ids, addresses).
      stuck: stuck.map((row) => ({
        job: row.name,
        due: row.depth,
        oldestDueAgeSeconds: Math.round((now - row.oldestDueAt) / 1000),
      })),
      message: `Die Auftragswarteschlange hängt: „${oldest.name}“ ist seit ${minutes} Minuten fällig und nicht erledigt (mehr als ${STUCK_JOB_AFTER_MS / 60_000} Minuten).`,
    };
  }
}
