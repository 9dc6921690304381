import { Inject, Injectable, Logger } from '@nestjs/common';
import { CheckoutOptions } from '../checkout/checkout.options.js';
import { maskSecrets } from '../common/log-masking.js';
import { AppConfig } from '../config/config.js';
import { type WaitlistMailJob, WaitlistRepository } from '../store/store.port.js';
import { MailPort } from '../tickets/mail/mail.port.js';
import { waitlistLinks } from './waitlist-links.js';
import { renderConfirmationMail, renderOfferMail } from './waitlist-mail.templates.js';

/**
 * rules "Waiting list": the confirmation (double opt-in) and offer mails. They are jobs in
 * `waitlist_mails` (they name no order, which the outbox's jobs must), leased by the outbox
 * worker between its own jobs with the same lease and back-off, so a mail survives a
 * restart and one process sends it. The mail's id is stable per job and request, so a mail
 * handed over twice after a crash is recognisably the same (the embedded mailbox keeps it once).
 */
@Injectable()
export class WaitlistMailer {
  private readonly logger = new Logger('Waitlist');

  constructor(
    @Inject(WaitlistRepository) private readonly waitlist: WaitlistRepository,
    @Inject(MailPort) private readonly mail: MailPort,
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(CheckoutOptions) private readonly options: CheckoutOptions,
  ) {}

  /** Leases one due mail and sends it; false when none was due. */
  async runOne(owner: string): Promise<boolean> {
    const job = await this.waitlist.leaseMail(owner, Date.now(), this.options.outboxLeaseMs);
    if (!job) return false;
    try {
      await this.send(job);
      await this.waitlist.completeMail(job.id, Date.now());
    } catch (err) {
      const delay = Math.min(
        this.options.outboxBaseBackoffMs * 2 ** Math.max(0, job.attempts - 1),
        this.options.outboxMaxBackoffMs,
      );
      // Kept with the job as well as logged: a mail server's refusal names the recipient.
      const error = maskSecrets(err instanceof Error ? err.message : String(err));
      this.logger.warn({
        msg: `waiting-list ${job.kind} mail failed, retrying`,
        entryId: job.entryId,
        attempts: job.attempts,
        retryInMs: delay,
        error,
      });
      await this.waitlist.retryMail(job.id, owner, Date.now() + delay, error);
    }
    return true;
  }

  private async send(job: WaitlistMailJob): Promise<void> {
    // Unsubscribed (or the event is over) meanwhile: nothing to say any more.
    const entry = await this.waitlist.find(job.entryId);
    if (!entry) return;
    const { publicUrl } = this.config;
    const common = {
      lineName: entry.lineName,
      quantity: entry.quantity,
      unsubscribeUrl: waitlistLinks.unsubscribe(publicUrl, entry.unsubscribeToken),
      publicUrl,
    };
    if (job.kind === 'confirm') {
      if (entry.status !== 'pending') return;
      const rendered = renderConfirmationMail({
        ...common,
        confirmUrl: waitlistLinks.confirm(publicUrl, entry.confirmToken),
      });
      await this.mail.send({
        id: `waitlist-confirm-${entry.id}-${job.requestedAt}`,
        to: entry.email,
        ...rendered,
        attachments: [],
      });
      this.logger.log({ msg: 'waiting-list confirmation sent', entryId: entry.id });
      return;
    }
    const offer = job.offerId === null ? undefined : await this.waitlist.findOfferById(job.offerId);
    // Declined or lapsed before its mail went out: the places belong to someone else now.
    if (!offer || (offer.status !== 'active' && offer.status !== 'claimed')) return;
    const rendered = renderOfferMail({
      ...common,
      quantity: offer.quantity,
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
