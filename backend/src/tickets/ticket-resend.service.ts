import { Inject, Injectable } from '@nestjs/common';
import { ticketResendRequestSchema } from '@awhh/machines';
import { parseBody } from '../common/validation.js';
import { OutboxSignal } from '../checkout/outbox.signal.js';
import { OutboxRepository, TicketRepository } from '../store/store.port.js';

/**
 * POST /api/tickets/resend (rules "Tickets and the door"): the same answer whether or not
 * the address bought anything, so nobody learns who did; a known address gets its valid
 * tickets through the outbox.
 */
@Injectable()
export class TicketResendService {
  constructor(
    @Inject(TicketRepository) private readonly tickets: TicketRepository,
    @Inject(OutboxRepository) private readonly outbox: OutboxRepository,
    @Inject(OutboxSignal) private readonly signal: OutboxSignal,
  ) {}

  async resend(body: unknown): Promise<Record<string, never>> {
    const { email } = parseBody(ticketResendRequestSchema, body);
    const [newest] = await this.tickets.validForEmail(email);
    if (newest) {
      // Keyed by the newest order of the address: a second request while one is pending adds nothing.
      await this.outbox.enqueueAgain('resend', newest.orderId, Date.now());
      this.signal.wake();
    }
    return {};
  }
}
