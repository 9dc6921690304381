import { Inject, Injectable } from '@nestjs/common';
import { ticketResendRequestSchema } from '@awhh/machines';
import { parseBody } from '../common/validation.js';
import { ORDER_JOBS, orderJob } from '../orders/order-jobs.js';
import { JobRepository } from '../jobs/jobs.port.js';
import { TicketOrders } from './ticket-orders.js';
import { transferJob, TRANSFER_JOBS } from './ticket-transfer.jobs.js';
import { TicketRepository } from './tickets.port.js';

/**
 * POST /api/tickets/resend (rules "Tickets and the door"): the same answer whether or not
 * the address bought anything, so nobody learns who did; a known address gets its valid
 * tickets through a job.
 */
@Injectable()
export class TicketResendService {
  constructor(
    @Inject(TicketRepository) private readonly tickets: TicketRepository,
    @Inject(JobRepository) private readonly jobs: JobRepository,
    @Inject(TicketOrders) private readonly orders: TicketOrders,
  ) {}

  async resend(body: unknown): Promise<Record<string, never>> {
    const { email } = parseBody(ticketResendRequestSchema, body);
    // rules "Orders made in the shop": tickets of an order made in the shop count too.
    const [newest] = [
      ...(await this.tickets.validForEmail(email)),
      ...(await this.tickets.validForOrders(await this.orders.elsewhereOf(email))),
    ];
    if (newest) {
      // Keyed by the newest order of the address: a second request while one is pending adds nothing.
      await this.jobs.enqueueAgain(orderJob(ORDER_JOBS.ticketResend, newest.orderId), Date.now());
    }
    // rules "Named tickets": tickets passed on to the address go to it, one mail each.
    const passedOn = await this.tickets.passedOnTo(email);
    for (const ticket of passedOn) {
      await this.jobs.enqueueAgain(transferJob(TRANSFER_JOBS.holderMail, ticket), Date.now());
    }
    return {};
  }
}
