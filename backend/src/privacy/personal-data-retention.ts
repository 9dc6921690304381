import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { DAY_MS, type RetentionPeriods, retentionPeriods, startOfBerlinDay } from '@awhh/machines';
import { CheckoutOptions } from '../checkout/checkout.options.js';
import { newId } from '../checkout/ids.js';
import { SerialRunner } from '../common/serial-runner.js';
import { AppConfig } from '../config/config.js';
import {
  type ErasureCounts,
  PrivacyRepository,
  type RetentionCutoffs,
  ScheduledJobRepository,
} from '../store/store.port.js';

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
 * The daily erasure of personal data past its retention period (docs/privacy.md; DSGVO
 * Art. 5(1)(e)). Every checkout process checks at start-up and then every
 * `privacyCheckMs` whether today's run (Berlin day) is still due; the one that leases the
 * job runs it, so it runs once a day per deployment. Waiting-list entries of past events
 * are deleted by the waiting-list pass, the day after the event.
 */
@Injectable()
export class PersonalDataRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Privacy');
  private readonly owner = newId('retention');
  private readonly periods: RetentionPeriods;
  private readonly runner = new SerialRunner(
    () => this.runIfDue(),
    (err) => this.logger.error({ msg: 'personal-data erasure failed', error: String(err) }),
  );

  constructor(
    @Inject(PrivacyRepository) private readonly privacy: PrivacyRepository,
    @Inject(ScheduledJobRepository) private readonly jobs: ScheduledJobRepository,
    @Inject(CheckoutOptions) private readonly options: CheckoutOptions,
    @Inject(AppConfig) config: AppConfig,
  ) {
    this.periods = retentionPeriods(config.personalDataDaysAfterEvent);
  }

  onApplicationBootstrap(): void {
    this.runner.start(this.options.privacyCheckMs);
  }

  async onModuleDestroy(): Promise<void> {
    await this.runner.stop();
  }

  /** Waits for a running check (tests). */
  async idle(): Promise<void> {
    await this.runner.idle();
  }

  /** Today's run, unless a process ran it already or runs it now; undefined then. */
  async runIfDue(now = Date.now()): Promise<ErasureCounts | undefined> {
    const today = startOfBerlinDay(new Date(now)).getTime();
    if (!(await this.jobs.lease(RETENTION_JOB, this.owner, today, now, RETENTION_LEASE_MS))) {
      return undefined;
    }
    let counts: ErasureCounts;
    try {
      counts = await this.privacy.eraseExpired(retentionCutoffs(this.periods, now));
    } catch (err) {
      // Tried again at the next check, by whichever process gets there first.
      await this.jobs.release(RETENTION_JOB, this.owner).catch(() => undefined);
      throw err;
    }
    await this.jobs.complete(RETENTION_JOB, this.owner, now);
    // Counts only: the log names nobody.
    this.logger.log({ msg: 'personal data past its retention period erased', ...counts });
    return counts;
  }
}
