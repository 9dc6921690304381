import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/config.js';
import { type Job, JobHandlers } from '../jobs/job-handlers.js';
import { type NewJob } from '../jobs/jobs.port.js';
import { WaitlistRepository } from './waitlist.port.js';
import { MailPort } from '../mail/mail.port.js';
import { waitlistLinks } from './waitlist-links.js';
import { renderConfirmationMail, renderOfferMail } from './waitlist-mail.templates.js';

export const WAITLIST_MAIL_JOBS = {
  confirm: 'waitlist-confirm-mail',
  offer: 'waitlist-offer-mail',
} as const;

export interface WaitlistMailPayload {
  entryId: string;
  /** The offer of an offer mail. */
  offerId?: number;
}

/** The waiting list's mails as jobs, about their entry (deleted with it). */
export const waitlistMailJob = {
  /** One per entry; asked for again, it goes out again (`JobRepository.enqueueAgain`). */
  confirm: (entryId: string): NewJob => ({
    name: WAITLIST_MAIL_JOBS.confirm,
    key: entryId,
    subject: entryId,
    payload: { entryId } satisfies WaitlistMailPayload,
  }),
  /** One per offer. */
  offer: (entryId: string, offerId: number): NewJob => ({
    name: WAITLIST_MAIL_JOBS.offer,
    key: String(offerId),
    subject: entryId,
    payload: { entryId, offerId } satisfies WaitlistMailPayload,
  }),
};

/**
 * rules "Waiting list": the confirmation (double opt-in) and offer mails, jobs of the job
 * runner beside the orders' (docs/decisions/0011-one-job-runner.md), so a mail survives a
 * restart and one process sends it. The mail's id is stable per job and request, so a mail
 * handed over twice after a crash is recognisably the same (the embedded mailbox keeps it once).
 */
@Injectable()
export class WaitlistMailer implements OnModuleInit {
  private readonly logger = new Logger('Waitlist');

  constructor(
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(WaitlistRepository) private readonly waitlist: WaitlistRepository,
    @Inject(MailPort) private readonly mail: MailPort,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const describe = (payload: WaitlistMailPayload) => ({
      entryId: payload.entryId,
      ...(payload.offerId !== undefined ? { offerId: payload.offerId } : {}),
    });
    this.handlers.register<WaitlistMailPayload>(WAITLIST_MAIL_JOBS.confirm, {
      run: (job) => this.sendConfirmation(job),
      describe,
    });
    this.handlers.register<WaitlistMailPayload>(WAITLIST_MAIL_JOBS.offer, {
      run: (job) => this.sendOffer(job),
      describe,
    });
  }

  private async sendConfirmation(job: Job<WaitlistMailPayload>): Promise<void> {
    // Unsubscribed (or the event is over) meanwhile: nothing to say any more.
    const entry = await this.waitlist.find(job.payload.entryId);
    if (!entry || entry.status !== 'pending') return;
    const { publicUrl } = this.config;
    const rendered = renderConfirmationMail({
      lineName: entry.lineName,
      quantity: entry.quantity,
      unsubscribeUrl: waitlistLinks.unsubscribe(publicUrl, entry.unsubscribeToken),
      publicUrl,
      confirmUrl: waitlistLinks.confirm(publicUrl, entry.confirmToken),
    });
    await this.mail.send({
      // A repeated confirmation (asked for again) is a new mail, a retried one the same.
      id: `waitlist-confirm-${entry.id}-${job.requestedAt}`,
      to: entry.email,
      ...rendered,
      attachments: [],
    });
    this.logger.log({ msg: 'waiting-list confirmation sent', entryId: entry.id });
  }

  private async sendOffer(job: Job<WaitlistMailPayload>): Promise<void> {
    const entry = await this.waitlist.find(job.payload.entryId);
    if (!entry) return;
    const { offerId } = job.payload;
    const offer = offerId === undefined ? undefined : await this.waitlist.findOfferById(offerId);
    // Declined or lapsed before its mail went out: the places belong to someone else now.
    if (!offer || (offer.status !== 'active' && offer.status !== 'claimed')) return;
    const { publicUrl } = this.config;
    const rendered = renderOfferMail({
      lineName: entry.lineName,
      quantity: offer.quantity,
      unsubscribeUrl: waitlistLinks.unsubscribe(publicUrl, entry.unsubscribeToken),
      publicUrl,
      offerUrl: waitlistLinks.offer(publicUrl, offer.token),
      expiresAt: offer.expiresAt,
    });
    await this.mail.send({
      id: `waitlist-offer-${offer.id}`,
      to: entry.email,
      ...rendered,
      attachments: [],
    });
    this.logger.log({ msg: 'waiting-list offer sent', entryId: entry.id, offerId: offer.id });
  }
}
