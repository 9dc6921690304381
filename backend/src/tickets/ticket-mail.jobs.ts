import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { describeOrderJob, ORDER_JOBS, type OrderJobPayload } from '../orders/order-jobs.js';
import { type Job, JobHandlers } from '../jobs/job-handlers.js';
import { TicketMailService } from './mail/ticket-mail.service.js';

/**
 * rules "E-mail": the ticket mail, once per paid order (queued by the paid transition with
 * the tickets), and the tickets of an address again on request (`TicketResendService`), as
 * jobs of the job runner. The job completes right after the mail server accepted the mail;
 * the mail's id is stable per order, so the embedded mailbox keeps a repeat once and a
 * receiver can recognise one.
 */
@Injectable()
export class TicketMailJobs implements OnModuleInit {
  private readonly logger = new Logger('Mail');

  constructor(
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(TicketMailService) private readonly ticketMail: TicketMailService,
  ) {}

  onModuleInit(): void {
    this.handlers.register<OrderJobPayload>(ORDER_JOBS.ticketMail, {
      run: (job) => this.send(job, () => this.ticketMail.sendOrderMail(job.payload.orderId)),
      describe: describeOrderJob,
    });
    this.handlers.register<OrderJobPayload>(ORDER_JOBS.ticketResend, {
      run: (job) => this.send(job, () => this.ticketMail.sendResend(job.payload.orderId)),
      describe: describeOrderJob,
    });
  }

  private async send(job: Job<OrderJobPayload>, send: () => Promise<string>): Promise<void> {
    const outcome = await send();
    if (outcome !== 'sent') {
      this.logger.log({ msg: `no ${job.name} sent: ${outcome}`, orderId: job.payload.orderId });
    }
  }
}
