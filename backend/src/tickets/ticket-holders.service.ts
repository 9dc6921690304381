import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ticketHolderRequestSchema,
  ticketTransferRequestSchema,
  type TicketTransferResult,
} from '@awhh/machines';
import { apiError } from '../common/api-error.js';
import { parseBody } from '../common/validation.js';
import { JobRepository } from '../jobs/jobs.port.js';
import { Store, type Transaction } from '../store/store.port.js';
import {
  TICKET_NOT_FOUND_MESSAGE,
  TICKET_PASSED_ON_MESSAGE,
  TicketService,
} from './ticket.service.js';
import { transferJob, TRANSFER_JOBS } from './ticket-transfer.jobs.js';
import { type StoredTicket, TicketRepository, type TransferRefusal } from './tickets.port.js';

export const TICKET_REVOKED_MESSAGE =
  'Dieses Ticket ist storniert und kann weder benannt noch weitergegeben werden.';
export const TICKET_CHANGED_MESSAGE =
  'Dieses Ticket wurde gerade geändert. Bitte lade die Gästeliste neu und versuch es noch einmal.';
/** rules "Named tickets": how often one ticket may be passed on within a day. */
export const TRANSFERS_PER_TICKET_PER_DAY = 3;
export const TRANSFERRED_TOO_OFTEN_MESSAGE =
  'Dieses Ticket wurde heute schon mehrmals weitergegeben. Weitergeben lässt es sich erst morgen wieder.';
export const TICKET_CHECKED_IN_MESSAGE =
  'Dieses Ticket wurde schon am Einlass eingecheckt und kann nicht mehr weitergegeben werden.';

/** "2 Stunden", "1 Stunde", "1,5 Stunden". */
function hoursText(hours: number): string {
  return hours === 1 ? '1 Stunde' : `${String(hours).replace('.', ',')} Stunden`;
}

export function transferTooLateMessage(hours: number): string {
  const until = hours > 0 ? `bis ${hoursText(hours)} vor Beginn` : 'bis zum Beginn';
  return `Tickets können nur ${until} weitergegeben werden – für dieses Event ist das nicht mehr möglich. Bei Fragen schreib uns gern.`;
}

/**
 * A module that holds a claim on a ticket's fate (a return offered to the waiting list)
 * says so here: a German reason refuses the transfer, in the transfer's transaction and
 * after the ticket's row is locked, so no claim can slip in between.
 */
export type TransferGuard = (tx: Transaction, ticket: StoredTicket) => Promise<string | null>;

/** An id as the site makes them (`t` and base64url), before the store is asked. */
const TICKET_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * rules "Named tickets": who comes with a ticket. Its holder names it with the ticket's
 * own token (the success page has the order's tokens, a ticket page its one), the organizer
 * by its id; passing it on gives it a new token and short code, mailed to the new holder
 * alone, and tells the buyer.
 */
@Injectable()
export class TicketHolderService {
  private readonly logger = new Logger('Tickets');
  private readonly guards: TransferGuard[] = [];

  constructor(
    @Inject(TicketService) private readonly tickets: TicketService,
    @Inject(TicketRepository) private readonly store: TicketRepository,
    @Inject(Store) private readonly transactions: Store,
  ) {}

  /** rules "Named tickets": who else decides a ticket's fate may refuse its transfer. */
  refuseTransferWhen(guard: TransferGuard): void {
    this.guards.push(guard);
  }

  /** POST /api/tickets/:token/holder. */
  async nameByToken(
    token: string,
    body: unknown,
  ): Promise<{ holder: string; company: string | null }> {
    const ticket = await this.tickets.storedByToken(token);
    const holder = parseBody(ticketHolderRequestSchema, body);
    if (ticket.status !== 'valid') throw apiError(409, TICKET_REVOKED_MESSAGE);
    // Only while the token is the current one: a transfer in between wins.
    if (!(await this.store.setHolder(ticket.id, holder, ticket.generation))) {
      throw apiError(410, TICKET_PASSED_ON_MESSAGE);
    }
    return { holder: holder.name, company: holder.company };
  }

  /** rules "The organizer": the organizer corrects a name (the token stays as it is). */
  async editByOrganizer(
    ticketId: string,
    body: unknown,
  ): Promise<{ ticketId: string; holder: string; company: string | null }> {
    if (!TICKET_ID.test(ticketId)) throw apiError(404, TICKET_NOT_FOUND_MESSAGE);
    const holder = parseBody(ticketHolderRequestSchema, body);
    const ticket = await this.store.find(ticketId);
    if (!ticket) throw apiError(404, TICKET_NOT_FOUND_MESSAGE);
    // A cancelled ticket keeps the name it was cancelled with (the guest list says so too).
    if (ticket.status !== 'valid') throw apiError(409, TICKET_REVOKED_MESSAGE);
    if (!(await this.store.setHolder(ticketId, holder, ticket.generation))) {
      // Passed on or gone meanwhile: the guest list shows it anew.
      throw apiError(409, TICKET_CHANGED_MESSAGE);
    }
    this.logger.log({ msg: 'ticket holder edited by the organizer', ticketId });
    return { ticketId, holder: holder.name, company: holder.company };
  }

  /**
   * POST /api/tickets/:token/transfer ("Ticket weitergeben"). The answer names the new
   * holder but carries no token: the new link reaches them by mail only.
   */
  async transfer(token: string, body: unknown, now = Date.now()): Promise<TicketTransferResult> {
    const ticket = await this.tickets.storedByToken(token);
    const to = parseBody(ticketTransferRequestSchema, body);
    await this.refuseClosed(ticket, now);
    const moved = await this.transactions.write(async (tx) => {
      if (!(await tx.get(TicketRepository).lockCurrent(ticket.id, ticket.generation))) {
        const current = await tx.get(TicketRepository).find(ticket.id);
        throw refusal(current?.generation !== ticket.generation ? 'stale' : 'revoked');
      }
      // A ticket handed round and round (to flood inboxes with its mail, or to sell it on
      // and on) stops after a few transfers a day.
      const day = await tx.get(TicketRepository).transfersSince(ticket.id, now - 86_400_000);
      if (day >= TRANSFERS_PER_TICKET_PER_DAY) throw apiError(429, TRANSFERRED_TOO_OFTEN_MESSAGE);
      for (const guard of this.guards) {
        const reason = await guard(tx, ticket);
        if (reason) throw apiError(409, reason);
      }
      const result = await tx.get(TicketRepository).transfer(ticket.id, ticket.generation, to, now);
      if (typeof result === 'string') throw refusal(result);
      const jobs = tx.get(JobRepository);
      // One mail each per transfer, however often the job runs (keyed by the generation).
      await jobs.enqueue(transferJob(TRANSFER_JOBS.holderMail, result), now);
      await jobs.enqueue(transferJob(TRANSFER_JOBS.buyerNotice, result), now);
      return result;
    });
    this.logger.log({
      msg: 'ticket passed on',
      ticketId: moved.id,
      generation: moved.generation,
    });
    return { holder: to.name, email: to.email };
  }

  private async refuseClosed(ticket: StoredTicket, now: number): Promise<void> {
    if (ticket.status !== 'valid') throw apiError(409, TICKET_REVOKED_MESSAGE);
    if (await this.store.isCheckedIn(ticket.id)) throw apiError(409, TICKET_CHECKED_IN_MESSAGE);
    const window = await this.tickets.transferWindow(ticket, now);
    if (!window.transferable) {
      throw apiError(409, transferTooLateMessage(this.tickets.transferUntilHours));
    }
  }
}

function refusal(reason: TransferRefusal) {
  switch (reason) {
    case 'stale':
      return apiError(410, TICKET_PASSED_ON_MESSAGE);
    case 'revoked':
      return apiError(409, TICKET_REVOKED_MESSAGE);
    case 'checkedIn':
      return apiError(409, TICKET_CHECKED_IN_MESSAGE);
  }
}
