import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { escapeHtml as esc, formatEuro, fromCents } from '@awhh/machines';
import { AppConfig } from '../config/config.js';
import { type Job, JobHandlers } from '../jobs/job-handlers.js';
import { JobRepository, type NewJob } from '../jobs/jobs.port.js';
import { mailParagraph as p, renderMailLayout, renderMailText } from '../mail/mail-layout.js';
import { MailPort } from '../mail/mail.port.js';
import type { Transaction } from '../store/store.port.js';
import { ticketWords } from './mail/ticket-words.js';
import { TicketOrders } from './ticket-orders.js';
import { type StoredTicket, TicketRepository } from './tickets.port.js';

/**
 * rules "When a ticket stops admitting": why tickets stopped admitting, or admit again.
 * `refunded`: the order was refunded in full (at the provider, or the organizer cancelled
 * it); `partlyRefunded`: a refund covered these tickets (the organizer cancelled one, or a
 * partial refund at the provider); `disputed`: the bank is deciding a chargeback;
 * `restored`: the dispute was won; `shopRefunded`: the organizer refunded these tickets'
 * line in the shop; `shopCancelled`: the organizer cancelled, refunded or trashed the order
 * in the shop (docs/ledger.md "A place freed in the shop"); the money of both is settled
 * there.
 */
export type TicketNoticeKind =
  'refunded' | 'partlyRefunded' | 'disputed' | 'restored' | 'shopRefunded' | 'shopCancelled';

export const TICKET_NOTICE_JOB = 'ticket-notice';

export interface TicketNoticePayload {
  orderId: string;
  kind: TicketNoticeKind;
  ticketIds: string[];
  /** What the order has had refunded by then, cents (refunds only). */
  refunded: number | null;
  /** `buyer`: the order's address; else the id of a ticket passed on, for its holder. */
  to: 'buyer' | string;
}

/**
 * Queued in the transition that revoked or restored the tickets: one job per recipient
 * (the buyer, and each holder a ticket was passed on to), keyed by the change, so each mail
 * goes once however often the transition's job or webhook is repeated and across restarts.
 * Ids only: the addresses are read when the job runs.
 */
export async function queueTicketNotices(
  tx: Transaction,
  change: { orderId: string; kind: TicketNoticeKind; key: string; refunded: number | null },
  tickets: readonly StoredTicket[],
  now: number,
): Promise<void> {
  if (tickets.length === 0) return;
  const jobs = tx.get(JobRepository);
  const base = `${change.orderId}:${change.kind}:${change.key}`;
  const payload = (to: string, ids: string[]): NewJob => ({
    name: TICKET_NOTICE_JOB,
    key: `${base}:${to}`,
    subject: change.orderId,
    payload: {
      orderId: change.orderId,
      kind: change.kind,
      ticketIds: ids,
      refunded: change.refunded,
      to,
    } satisfies TicketNoticePayload,
  });
  await jobs.enqueue(
    payload(
      'buyer',
      tickets.map((t) => t.id),
    ),
    now,
  );
  for (const ticket of tickets) {
    if (ticket.holderEmail) await jobs.enqueue(payload(ticket.id, [ticket.id]), now);
  }
}

const SUBJECTS: Record<TicketNoticeKind, (event: string) => string> = {
  refunded: (event) => `Storniert: deine Tickets für „${event}“`,
  partlyRefunded: (event) => `Ticket storniert: „${event}“`,
  disputed: (event) => `Rückbuchung: deine Tickets für „${event}“ gelten vorerst nicht`,
  restored: (event) => `Deine Tickets für „${event}“ gelten wieder`,
  shopRefunded: (event) => `Ticket storniert: „${event}“`,
  shopCancelled: (event) => `Storniert: deine Tickets für „${event}“`,
};

/** rules "When a ticket stops admitting": the German mails, in the site's one mail layout. */
@Injectable()
export class TicketNoticeJobs implements OnModuleInit {
  private readonly logger = new Logger('Mail');

  constructor(
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(TicketRepository) private readonly tickets: TicketRepository,
    @Inject(TicketOrders) private readonly orders: TicketOrders,
    @Inject(MailPort) private readonly mail: MailPort,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.handlers.register<TicketNoticePayload>(TICKET_NOTICE_JOB, {
      run: (job) => this.send(job),
      describe: ({ orderId, kind, to }) => ({ orderId, kind, to: to === 'buyer' ? to : 'holder' }),
    });
  }

  private async send(job: Job<TicketNoticePayload>): Promise<void> {
    const { orderId, kind, ticketIds, refunded, to } = job.payload;
    const order = await this.orders.find(orderId);
    const tickets = (await Promise.all(ticketIds.map((id) => this.tickets.find(id)))).filter(
      (t): t is StoredTicket => t !== undefined,
    );
    const first = tickets[0];
    const forHolder = to !== 'buyer';
    const address = forHolder ? first?.holderEmail : order?.email;
    if (!first || !address) {
      this.logger.log({ msg: 'no ticket notice sent: no address', orderId, kind });
      return;
    }
    const name = forHolder ? first.holder : order?.buyerName;
    const { when } = ticketWords(first);
    const count = tickets.length === 1 ? 'Ein Ticket' : `${tickets.length} Tickets`;
    const yours = forHolder
      ? `Das Ticket, das dir weitergegeben wurde, für „${first.eventName}“${when}`
      : `${count} deiner Bestellung${order?.orderNumber ? ` ${order.orderNumber}` : ''} für „${first.eventName}“${when}`;
    const labels = tickets
      .map(
        (t) => `${t.tier ?? 'Ticket'} ${t.seat} von ${t.seats}${t.holder ? ` (${t.holder})` : ''}`,
      )
      .join(', ');
    const money =
      !forHolder && refunded !== null && refunded > 0
        ? `Erstattet wurden insgesamt ${formatEuro(fromCents(refunded))}; je nach Bank siehst du das Geld in einigen Tagen auf deinem Konto.`
        : null;
    const body: Record<TicketNoticeKind, string[]> = {
      refunded: [
        `${yours} ${tickets.length === 1 ? 'wurde' : 'wurden'} storniert: die Zahlung wurde erstattet. ${tickets.length === 1 ? 'Es gilt' : 'Sie gelten'} nicht mehr für den Einlass, auch nicht ${tickets.length === 1 ? 'sein' : 'ihr'} QR-Code oder Ticket-Code.`,
        ...(money ? [money] : []),
      ],
      partlyRefunded: [
        `${yours} ${tickets.length === 1 ? 'wurde' : 'wurden'} storniert und erstattet (${labels}). ${tickets.length === 1 ? 'Es gilt' : 'Sie gelten'} nicht mehr für den Einlass.${forHolder ? '' : ' Deine anderen Tickets bleiben gültig.'}`,
        ...(money ? [money] : []),
      ],
      disputed: [
        `Die Zahlung für ${forHolder ? 'das Ticket, das dir weitergegeben wurde,' : `deine Bestellung${order?.orderNumber ? ` ${order.orderNumber}` : ''}`} für „${first.eventName}“${when} wird gerade bei der Bank angefochten (Rückbuchung).`,
        `Bis das geklärt ist, ${tickets.length === 1 ? 'gilt das Ticket' : 'gelten die Tickets'} nicht für den Einlass. Wir melden uns, sobald die Bank entschieden hat.`,
      ],
      shopRefunded: [
        `${yours} ${tickets.length === 1 ? 'wurde' : 'wurden'} vom Veranstalter im Shop erstattet und storniert (${labels}). ${tickets.length === 1 ? 'Es gilt' : 'Sie gelten'} nicht mehr für den Einlass.${forHolder ? '' : ' Deine anderen Tickets bleiben gültig.'}`,
        'Die Erstattung des Betrags läuft über den Veranstalter.',
      ],
      shopCancelled: [
        `${yours} ${tickets.length === 1 ? 'wurde' : 'wurden'} storniert: der Veranstalter hat die Bestellung im Shop storniert oder erstattet. ${tickets.length === 1 ? 'Es gilt' : 'Sie gelten'} nicht mehr für den Einlass, auch nicht ${tickets.length === 1 ? 'sein' : 'ihr'} QR-Code oder Ticket-Code.`,
        'Die Erstattung des Betrags läuft über den Veranstalter.',
      ],
      restored: [
        `Die Rückbuchung der Zahlung ist geklärt: ${forHolder ? 'das Ticket, das dir weitergegeben wurde,' : tickets.length === 1 ? 'dein Ticket' : 'deine Tickets'} für „${first.eventName}“${when} ${tickets.length === 1 ? 'gilt' : 'gelten'} wieder, mit ${tickets.length === 1 ? 'seinem' : 'ihren'} bisherigen QR-Code und Ticket-Code.`,
      ],
    };
    const hello = name ? `Hallo ${name},` : 'Hallo,';
    const lines = [...body[kind], 'Bei Fragen antworte einfach auf diese E-Mail.'];
    const subject = SUBJECTS[kind](first.eventName);
    const change = createHash('sha256')
      .update(JSON.stringify([orderId, kind, ticketIds, refunded, to, address.toLowerCase()]))
      .digest('base64url');
    await this.mail.send({
      // Stable per change and recipient: a repeat after a crash is one mail to the receiver.
      id: `ticket-notice-${change.slice(0, 24)}`,
      to: address,
      subject,
      html: renderMailLayout({
        title: subject,
        bodyHtml: [hello, ...lines].map((line) => p(esc(line))).join('\n'),
        publicUrl: this.config.publicUrl,
      }),
      text: renderMailText([`${hello}\n${lines[0]}`, ...lines.slice(1)], this.config.publicUrl),
      attachments: [],
    });
    this.logger.log({ msg: 'ticket notice sent', orderId, kind });
  }
}
