import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { escapeHtml as esc } from '@awhh/machines';
import { AppConfig } from '../config/config.js';
import { type Job, JobHandlers } from '../jobs/job-handlers.js';
import type { NewJob } from '../jobs/jobs.port.js';
import {
  MAIL_COLORS,
  mailParagraph as p,
  renderMailLayout,
  renderMailText,
} from '../mail/mail-layout.js';
import { MailPort } from '../mail/mail.port.js';
import { absoluteUrl } from '../site/html-head.js';
import { TicketMailService } from './mail/ticket-mail.service.js';
import { ticketWords } from './mail/ticket-words.js';
import { TicketOrders } from './ticket-orders.js';
import { TicketService } from './ticket.service.js';
import { type StoredTicket, TicketRepository } from './tickets.port.js';

/** rules "Named tickets": the mails of a ticket passed on, as jobs of the job runner. */
export const TRANSFER_JOBS = {
  /** The ticket, with its new token, to its new holder. */
  holderMail: 'ticket-transfer-mail',
  /** The buyer is told to whom it went. */
  buyerNotice: 'ticket-transfer-notice',
} as const;

export interface TransferJobPayload {
  ticketId: string;
  /** The generation the transfer made: a later transfer's mail is another job. */
  generation: number;
}

/** One job per transfer (ticket and generation); ids only, the addresses stay in the store. */
export function transferJob(
  name: (typeof TRANSFER_JOBS)[keyof typeof TRANSFER_JOBS],
  ticket: Pick<StoredTicket, 'id' | 'generation' | 'orderId'>,
): NewJob {
  return {
    name,
    key: `${ticket.id}:${ticket.generation}`,
    subject: ticket.orderId,
    payload: { ticketId: ticket.id, generation: ticket.generation },
  };
}

/**
 * Sends a transfer's two mails. The new holder's mail is the ticket mail with the one
 * ticket (its PDF, calendar file and new link); it goes only while the ticket is still of
 * that generation, so a ticket passed on again never mails a dead link. A resend of a
 * ticket passed on asks for this job again.
 */
@Injectable()
export class TicketTransferJobs implements OnModuleInit {
  private readonly logger = new Logger('Mail');

  constructor(
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(TicketRepository) private readonly store: TicketRepository,
    @Inject(TicketService) private readonly tickets: TicketService,
    @Inject(TicketOrders) private readonly orders: TicketOrders,
    @Inject(TicketMailService) private readonly ticketMail: TicketMailService,
    @Inject(MailPort) private readonly mail: MailPort,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const describe = (payload: TransferJobPayload) => ({ ...payload });
    this.handlers.register<TransferJobPayload>(TRANSFER_JOBS.holderMail, {
      run: (job) => this.holderMail(job),
      describe,
    });
    this.handlers.register<TransferJobPayload>(TRANSFER_JOBS.buyerNotice, {
      run: (job) => this.buyerNotice(job),
      describe,
    });
  }

  private async holderMail(job: Job<TransferJobPayload>): Promise<void> {
    const { ticketId, generation } = job.payload;
    const ticket = await this.store.find(ticketId);
    if (
      !ticket ||
      ticket.generation !== generation ||
      ticket.status !== 'valid' ||
      !ticket.holderEmail
    ) {
      this.logger.log({ msg: 'no transfer mail sent: the ticket moved on', ticketId });
      return;
    }
    const order = await this.orders.find(ticket.orderId);
    const orderNumber = order?.orderNumber ?? null;
    const [withToken] = await this.tickets.withTokens([ticket], () => orderNumber);
    // Named by who passed it on (a ticket nobody had named yet is the buyer's).
    const givenBy = (await this.store.givenBy(ticketId, generation)) ?? order?.buyerName ?? null;
    // Stable per request (a retry is kept once by the embedded mailbox); a resend is a new one.
    await this.ticketMail.send(
      `transfer-${ticketId}-${generation}-${job.requestedAt}`,
      ticket.holderEmail,
      [withToken!],
      { kind: 'transfer', buyerName: ticket.holder, orderNumber, summary: null, givenBy },
    );
    this.logger.log({ msg: 'transfer mail sent', ticketId, generation });
  }

  private async buyerNotice(job: Job<TransferJobPayload>): Promise<void> {
    const { ticketId, generation } = job.payload;
    const ticket = await this.store.find(ticketId);
    const order = ticket ? await this.orders.find(ticket.orderId) : undefined;
    if (!ticket || !order?.email) {
      this.logger.log({ msg: 'no transfer notice sent: no buyer address', ticketId });
      return;
    }
    const { when, which } = ticketWords(ticket);
    const hello = order.buyerName ? `Hallo ${order.buyerName},` : 'Hallo,';
    const holder = ticket.holder ?? 'eine andere Person';
    const lines = [
      hello,
      `ein Ticket deiner Bestellung${order.orderNumber ? ` ${order.orderNumber}` : ''} für „${ticket.eventName}“${when}${which ? ` (${which})` : ''} wurde an ${holder} weitergegeben. ${holder} bekommt es per E-Mail, mit neuem QR-Code und Ticket-Code.`,
      'Der bisherige Link, sein QR-Code und sein Ticket-Code gelten nicht mehr. Deine anderen Tickets bleiben, wie sie sind.',
      'Warst du das nicht? Dann schreib uns bitte gleich.',
    ];
    const subject = `Ticket weitergegeben: „${ticket.eventName}“`;
    const contact = absoluteUrl(this.config.publicUrl, '/contact');
    await this.mail.send({
      id: `transfer-notice-${ticketId}-${generation}`,
      to: order.email,
      subject,
      html: renderMailLayout({
        title: subject,
        bodyHtml: [
          p(esc(lines[0]!)),
          p(esc(lines[1]!)),
          p(esc(lines[2]!)),
          p(
            `${esc('Warst du das nicht? Dann')} <a href="${esc(contact)}" style="color:${MAIL_COLORS.gold};font-weight:bold;">schreib uns</a> bitte gleich.`,
          ),
        ].join('\n'),
        publicUrl: this.config.publicUrl,
      }),
      text: renderMailText(
        [`${lines[0]}\n${lines[1]}`, lines[2]!, `${lines[3]} ${contact}`],
        this.config.publicUrl,
      ),
      attachments: [],
    });
    this.logger.log({ msg: 'transfer notice sent', ticketId, generation });
  }
}
