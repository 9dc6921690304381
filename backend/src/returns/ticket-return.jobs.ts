import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import {
  escapeHtml as esc,
  formatLongDate,
  formatEuro,
  formatTime,
  fromCents,
  toSessionStatus,
  transitionTicketReturn,
} from '@awhh/machines';
import { AppConfig } from '../config/config.js';
import { PLACES_RELEASED } from '../holds/holds.js';
import { type Job, JobHandlers } from '../jobs/job-handlers.js';
import { JobRepository, type NewJob } from '../jobs/jobs.port.js';
import { mailParagraph as p, renderMailLayout, renderMailText } from '../mail/mail-layout.js';
import { MailPort } from '../mail/mail.port.js';
import { OrderService } from '../orders/order.service.js';
import { OrderRepository } from '../orders/orders.port.js';
import { PaymentsPort } from '../orders/payments/payments.port.js';
import { Store } from '../store/store.port.js';
import { TicketOrders } from '../tickets/ticket-orders.js';
import { coversTicket } from '../tickets/ticket-refund.js';
import { TicketRepository } from '../tickets/tickets.port.js';
import { type TicketReturn, TicketReturnRepository } from './ticket-returns.port.js';

/** rules "Giving a ticket back": the work after a returned place was bought, as jobs. */
export const TICKET_RETURN_JOBS = {
  /** The returned ticket's price, less the fee, back through the provider. */
  refund: 'ticket-return-refund',
  /** The guest is told that the place found a buyer and the money goes back. */
  mail: 'ticket-return-mail',
} as const;

/** The periodic look at deadlines and at places whose offer ended (`TicketReturns.sweep`). */
export const TICKET_RETURN_SWEEP_JOB = 'ticket-return-sweep';
const SWEEP_EVERY_MS = 60_000;

export interface TicketReturnJobPayload {
  returnId: string;
}

/** One job per return and kind; ids only. */
export function ticketReturnJob(
  name: (typeof TICKET_RETURN_JOBS)[keyof typeof TICKET_RETURN_JOBS],
  entry: Pick<TicketReturn, 'id' | 'orderId'>,
): NewJob {
  return { name, key: entry.id, subject: entry.orderId, payload: { returnId: entry.id } };
}

/** The sweep as a recurring job, so one process at a time runs it; kept off the request path. */
export interface ReturnSweeper {
  sweep(now?: number): Promise<unknown>;
}

@Injectable()
export class TicketReturnJobs implements OnModuleInit {
  private readonly logger = new Logger('Returns');
  private sweeper: ReturnSweeper | null = null;

  constructor(
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(Store) private readonly store: Store,
    @Inject(TicketReturnRepository) private readonly returns: TicketReturnRepository,
    @Inject(TicketRepository) private readonly tickets: TicketRepository,
    @Inject(OrderRepository) private readonly orders: OrderRepository,
    @Inject(OrderService) private readonly orderService: OrderService,
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
    @Inject(TicketOrders) private readonly ticketOrders: TicketOrders,
    @Inject(MailPort) private readonly mail: MailPort,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  /** The module hands the sweep over once both exist (they depend on each other's jobs). */
  useSweeper(sweeper: ReturnSweeper): void {
    this.sweeper = sweeper;
  }

  onModuleInit(): void {
    const describe = (payload: TicketReturnJobPayload) => ({ ...payload });
    this.handlers.register<TicketReturnJobPayload>(TICKET_RETURN_JOBS.refund, {
      run: (job) => this.refund(job),
      describe,
    });
    this.handlers.register<TicketReturnJobPayload>(TICKET_RETURN_JOBS.mail, {
      run: (job) => this.notify(job),
      describe,
    });
    this.handlers.recurring(TICKET_RETURN_SWEEP_JOB, {
      run: async (now) => {
        await this.sweeper?.sweep(now);
      },
      nextRunAt: (now) => now + SWEEP_EVERY_MS,
    });
  }

  /** An offer declined or lapsed: its lent places go to the next in line now. */
  @OnEvent(PLACES_RELEASED)
  onPlacesReleased(): void {
    this.sweeper?.sweep().catch((err: unknown) => {
      this.logger.error({ msg: 'ticket return sweep failed', error: String(err) });
    });
  }

  /**
   * The refund, keyed by the return so a repeated job refunds nothing twice. It is recorded
   * as the provider's report of it would be, through the returned order's machine: the
   * returned ticket counts as the refunded one (rules "Refunds"), WooCommerce gets the
   * refund with the place back in stock. What the order had refunded meanwhile (the
   * organizer refunded it in full) is not refunded again.
   */
  private async refund(job: Job<TicketReturnJobPayload>): Promise<void> {
    const entry = await this.returns.find(job.payload.returnId);
    if (!entry || entry.status !== 'taken') return;
    const ticket = await this.tickets.find(entry.ticketId);
    const order = await this.orders.find({ id: entry.orderId });
    const reference = order?.context.paymentReference;
    // The sale that took the return revoked its ticket already (rules "Giving a ticket
    // back"); a return taken before that rule still finds its ticket valid.
    const payable =
      ticket !== undefined &&
      order !== undefined &&
      reference &&
      toSessionStatus(order.status) === 'paid' &&
      order.status !== 'disputed';
    let refundReference: string | null = null;
    if (payable) {
      const amount = Math.min(
        entry.refund,
        order.context.total - (order.context.refundedAmount ?? 0),
      );
      if (amount > 0) {
        const refund = await this.payments.refund(reference, amount, `ticket-return-${entry.id}`);
        refundReference = refund.id;
        await this.orderService.refundedBySite(
          order.id,
          { refundReference: refund.id, amount },
          coversTicket(ticket),
        );
      }
    } else {
      this.logger.warn({
        msg: 'returned ticket not refunded: it no longer admits or its order is not paid',
        returnId: entry.id,
      });
    }
    const now = Date.now();
    await this.store.write(async (tx) => {
      if (!transitionTicketReturn(entry.status, { type: 'return.refunded' })) return;
      if (
        (await tx
          .get(TicketReturnRepository)
          .move(entry.id, 'taken', 'refunded', now, { refundReference })) &&
        refundReference
      ) {
        await tx.get(JobRepository).enqueue(ticketReturnJob(TICKET_RETURN_JOBS.mail, entry), now);
      }
    });
    this.logger.log({ msg: 'returned ticket refunded', returnId: entry.id });
  }

  private async notify(job: Job<TicketReturnJobPayload>): Promise<void> {
    const entry = await this.returns.find(job.payload.returnId);
    const ticket = entry ? await this.tickets.find(entry.ticketId) : undefined;
    const order = entry ? await this.ticketOrders.find(entry.orderId) : undefined;
    if (!entry || !ticket || !order?.email) {
      this.logger.log({
        msg: 'no return mail sent: no buyer address',
        returnId: job.payload.returnId,
      });
      return;
    }
    const date = formatLongDate(ticket.startsAt);
    const when = date
      ? ` am ${date}${ticket.startsAt ? `, ${formatTime(ticket.startsAt)}` : ''}`
      : '';
    const money = formatEuro(fromCents(entry.refund));
    const fee = entry.fee > 0 ? ` (abzüglich ${formatEuro(fromCents(entry.fee))} Gebühr)` : '';
    const hello = order.buyerName ? `Hallo ${order.buyerName},` : 'Hallo,';
    const event = `„${ticket.eventName}“${when}${ticket.tier ? ` (${ticket.tier})` : ''}`;
    // rules "Giving a ticket back": a ticket passed on was given back by its holder; the
    // money goes to the buyer all the same, and both are told so.
    const passedOn = ticket.holderEmail !== null;
    const lines = [
      hello,
      passedOn
        ? `das Ticket für ${event}, das du an ${ticket.holder ?? 'jemanden'} weitergegeben hattest, wurde von dort zurückgegeben und hat einen neuen Gast von der Warteliste gefunden.`
        : `dein zurückgegebenes Ticket für ${event} hat einen neuen Gast von der Warteliste gefunden.`,
      `Wir haben dir ${money}${fee} erstattet; je nach Bank siehst du das Geld in einigen Tagen auf deinem Konto.${order.orderNumber ? ` Bestellnummer: ${order.orderNumber}.` : ''}`,
      'Das Ticket, sein QR-Code und sein Ticket-Code gelten nicht mehr für den Einlass. Deine anderen Tickets bleiben, wie sie sind.',
      'Schade, dass du diesmal nicht dabei bist – bis zum nächsten Afterwork!',
    ];
    const subject = `Ticket zurückgegeben: „${ticket.eventName}“`;
    await this.mail.send({
      id: `ticket-return-${entry.id}`,
      to: order.email,
      subject,
      html: renderMailLayout({
        title: subject,
        bodyHtml: lines.map((line) => p(esc(line))).join('\n'),
        publicUrl: this.config.publicUrl,
      }),
      text: renderMailText([`${lines[0]}\n${lines[1]}`, ...lines.slice(2)], this.config.publicUrl),
      attachments: [],
    });
    if (passedOn && ticket.holderEmail) {
      const holderLines = [
        ticket.holder ? `Hallo ${ticket.holder},` : 'Hallo,',
        `das Ticket für ${event}, das du zurückgegeben hast, hat einen neuen Gast von der Warteliste gefunden.`,
        `Die Erstattung von ${money} geht an die Person, die das Ticket gekauft und dir weitergegeben hat${order.buyerName ? ` (${order.buyerName})` : ''}, nicht an dich.`,
        'Das Ticket, sein QR-Code und sein Ticket-Code gelten nicht mehr für den Einlass.',
      ];
      await this.mail.send({
        id: `ticket-return-${entry.id}-holder`,
        to: ticket.holderEmail,
        subject,
        html: renderMailLayout({
          title: subject,
          bodyHtml: holderLines.map((line) => p(esc(line))).join('\n'),
          publicUrl: this.config.publicUrl,
        }),
        text: renderMailText(
          [`${holderLines[0]}\n${holderLines[1]}`, ...holderLines.slice(2)],
          this.config.publicUrl,
        ),
        attachments: [],
      });
    }
    this.logger.log({ msg: 'return mail sent', returnId: entry.id });
  }
}
