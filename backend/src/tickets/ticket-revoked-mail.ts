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
import { ticketWords } from './mail/ticket-words.js';
import { TicketOrders } from './ticket-orders.js';
import { TicketRepository } from './tickets.port.js';

export const TICKET_REVOKED_MAIL_JOB = 'ticket-revoked-mail';

/** Why a ticket stopped admitting its holder, as far as its mail tells it. */
export type RevokedBecause =
  /** The organizer refunded its line in the shop. */
  | 'shopRefund'
  /** The organizer cancelled, refunded or trashed its order in the shop. */
  | 'shopCancelled';

export interface TicketRevokedPayload {
  ticketId: string;
  because: RevokedBecause;
}

/** One mail per ticket and cause, however often the shop reports it (the job's key). */
export function ticketRevokedMailJob(
  ticketId: string,
  orderId: string,
  because: RevokedBecause,
): NewJob {
  return {
    name: TICKET_REVOKED_MAIL_JOB,
    key: `${ticketId}:${because}`,
    subject: orderId,
    payload: { ticketId, because } satisfies TicketRevokedPayload,
  };
}

const REASONS: Record<RevokedBecause, string> = {
  shopRefund:
    'Der Veranstalter hat dieses Ticket im Shop erstattet. Die Erstattung des Betrags läuft über den Veranstalter.',
  shopCancelled:
    'Der Veranstalter hat die Bestellung im Shop storniert oder erstattet. Die Erstattung des Betrags läuft über den Veranstalter.',
};

/**
 * docs/product-rules.md "Who is told when a ticket is cancelled": the holder of a ticket
 * cancelled in the shop learns it by mail (the one mail layout), and the buyer too when
 * somebody else holds it; sent by the job runner, once per ticket and cause.
 */
@Injectable()
export class TicketRevokedMails implements OnModuleInit {
  private readonly logger = new Logger('Mail');

  constructor(
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(TicketRepository) private readonly store: TicketRepository,
    @Inject(TicketOrders) private readonly orders: TicketOrders,
    @Inject(MailPort) private readonly mail: MailPort,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.handlers.register<TicketRevokedPayload>(TICKET_REVOKED_MAIL_JOB, {
      run: (job) => this.send(job),
      describe: (payload) => ({ ...payload }),
    });
  }

  private async send(job: Job<TicketRevokedPayload>): Promise<void> {
    const { ticketId, because } = job.payload;
    const ticket = await this.store.find(ticketId);
    if (!ticket || ticket.status !== 'revoked') {
      this.logger.log({ msg: 'no cancellation mail: the ticket admits (again)', ticketId });
      return;
    }
    const order = await this.orders.find(ticket.orderId);
    const addresses = [
      ...new Set([ticket.holderEmail, order?.email].filter((a) => !!a)),
    ] as string[];
    if (addresses.length === 0) {
      this.logger.log({ msg: 'no cancellation mail: no address', ticketId });
      return;
    }
    const { when, which } = ticketWords(ticket);
    const subject = `Ticket storniert: „${ticket.eventName}“`;
    const contact = absoluteUrl(this.config.publicUrl, '/contact');
    const holder = ticket.holder ? ` (${ticket.holder})` : '';
    const lines = [
      'Hallo,',
      `das Ticket${holder} für „${ticket.eventName}“${when}${which ? ` (${which})` : ''}${order?.orderNumber ? ` aus der Bestellung ${order.orderNumber}` : ''} ist storniert und gilt beim Einlass nicht mehr.`,
      REASONS[because],
      'Fragen dazu? Dann schreib uns bitte.',
    ];
    for (const to of addresses) {
      await this.mail.send({
        id: `ticket-revoked-${ticketId}-${because}-${to}`,
        to,
        subject,
        html: renderMailLayout({
          title: subject,
          bodyHtml: [
            p(esc(lines[0]!)),
            p(esc(lines[1]!)),
            p(esc(lines[2]!)),
            p(
              `${esc('Fragen dazu? Dann')} <a href="${esc(contact)}" style="color:${MAIL_COLORS.gold};font-weight:bold;">schreib uns</a> bitte.`,
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
    }
    this.logger.log({ msg: 'cancellation mail sent', ticketId, because, mails: addresses.length });
  }
}
