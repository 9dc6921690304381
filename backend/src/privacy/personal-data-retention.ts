import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DAY_MS, type RetentionPeriods, retentionPeriods, startOfBerlinDay } from '@awhh/machines';
import { AppConfig } from '../config/config.js';
import { JobHandlers } from '../jobs/job-handlers.js';
import { type ErasureCounts, PrivacyRepository, type RetentionCutoffs } from './privacy.port.js';

export const RETENTION_JOB = 'personal-data-retention';

/** Another process may take the job over once this has passed without it finishing. */
const RETENTION_LEASE_MS = 30 * 60_000;

/** Until when each kind of personal data is kept at `now` (docs/privacy.md). */
export function retentionCutoffs(periods: RetentionPeriods, now: number): RetentionCutoffs {
  return {
    unpaidCreatedBefore: now - periods.unpaidCheckoutDays * DAY_MS,
    afterEventBefore: now - periods.personalDataDaysAfterEvent * DAY_MS,
    contactCreatedBefore: now - periods.contactMessageDays * DAY_MS,
    undatedWaitlistCreatedBefore: now - periods.personalDataDaysAfterEvent * DAY_MS,
  };
}

/**
 * The start of the Berlin day after `now`'s: 36 hours after the start of today is around
 * noon of the next day, whether today has 23, 24 or 25 hours.
 */
export function nextBerlinDay(now: number): number {
  return startOfBerlinDay(
    new Date(startOfBerlinDay(new Date(now)).getTime() + 1.5 * DAY_MS),
  ).getTime();
}

/**
 * The daily erasure of personal data past its retention period (docs/privacy.md; DSGVO
 * Art. 5(1)(e)): a recurring job of the job runner, due at the start of every Berlin day
 * and run by one process, so it runs once a day per deployment (and at the first start
 * after a day without any process). Waiting-list entries of past events are deleted by the
 * waiting-list pass, the day after the event.
 */
@Injectable()
export class PersonalDataRetention implements OnModuleInit {
  private readonly logger = new Logger('Privacy');
  private readonly periods: RetentionPeriods;

  constructor(
    @Inject(PrivacyRepository) private readonly privacy: PrivacyRepository,
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(AppConfig) config: AppConfig,
  ) {
    this.periods = retentionPeriods(config.personalDataDaysAfterEvent);
  }

  onModuleInit(): void {
    this.handlers.recurring(RETENTION_JOB, {
      run: async (now) => {
        await this.run(now);
      },
      nextRunAt: nextBerlinDay,
      leaseMs: RETENTION_LEASE_MS,
    });
  }

  /** One erasure at `now`; a failure is retried by the runner, by whichever process gets there first. */
  async run(now = Date.now()): Promise<ErasureCounts> {
    const counts = await this.privacy.eraseExpired(retentionCutoffs(this.periods, now));
    // Counts only: the log names nobody.
    this.logger.log({ msg: 'personal data past its retention period erased', ...counts });
    return counts;
  }
}
