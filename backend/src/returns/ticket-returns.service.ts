import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  fromCents,
  type TicketReturnView,
  toSessionStatus,
  transitionTicketReturn,
} from '@awhh/machines';
import { CatalogService } from '../catalog/catalog.service.js';
import { apiError } from '../common/api-error.js';
import { AppConfig } from '../config/config.js';
import { Holds } from '../holds/holds.js';
import { HoldRepository, type Hold } from '../holds/holds.port.js';
import { findStockUnit } from '../holds/stock-unit.js';
import { JobRepository } from '../jobs/jobs.port.js';
import { OrderRepository } from '../orders/orders.port.js';
import { PaymentsPort } from '../orders/payments/payments.port.js';
import type { Transaction } from '../store/store.port.js';
import { Store } from '../store/store.port.js';
import { ticketRefundPrice } from '../tickets/refunded-tickets.js';
import { TicketHolderService } from '../tickets/ticket-holders.service.js';
import { TicketService } from '../tickets/ticket.service.js';
import { type StoredTicket, TicketRepository } from '../tickets/tickets.port.js';
import { WaitlistPass } from '../waitlist/waitlist-pass.js';
import { WaitlistRepository } from '../waitlist/waitlist.port.js';
import { type TicketReturn, TicketReturnRepository } from './ticket-returns.port.js';
import { TicketReturnJobs, ticketReturnJob, TICKET_RETURN_JOBS } from './ticket-return.jobs.js';

export const RETURNS_OFF_MESSAGE = 'Tickets lassen sich hier nicht zurückgeben.';
export const RETURN_REVOKED_MESSAGE =
  'Dieses Ticket gilt nicht mehr und lässt sich nicht zurückgeben.';
export const RETURN_CHECKED_IN_MESSAGE =
  'Mit diesem Ticket wurde bereits eingecheckt; zurückgeben lässt es sich nicht mehr.';
export const RETURN_NOT_REFUNDABLE_MESSAGE =
  'Dieses Ticket wurde nicht über unsere Kasse bezahlt oder hat nichts gekostet; über die Warteliste lässt es sich nicht zurückgeben.';
export const returnTooLateMessage = (hours: number) =>
  `Zurückgeben lässt sich ein Ticket nur bis ${hours.toLocaleString('de-DE')} Stunden vor Beginn.`;
export const RETURN_NOT_SOLD_OUT_MESSAGE =
  'Für dieses Event gibt es noch freie Plätze. Zurückgeben lässt sich ein Ticket nur, wenn der Abend ausverkauft ist und jemand auf der Warteliste steht.';
export const RETURN_NOBODY_WAITS_MESSAGE =
  'Gerade wartet niemand auf einen Platz. Sobald jemand auf der Warteliste steht, kannst du dein Ticket zurückgeben.';
export const RETURN_NOT_OFFERED_MESSAGE = 'Dieses Ticket ist nicht zur Rückgabe angeboten.';
export const RETURN_TAKEN_MESSAGE =
  'Jemand von der Warteliste hat deinen Platz schon gekauft – dein Geld ist unterwegs.';
export const RETURN_OPEN_TRANSFER_MESSAGE =
  'Dieses Ticket ist zur Rückgabe an die Warteliste angeboten. Weitergeben lässt es sich erst, wenn du die Rückgabe zurücknimmst.';
export const RETURN_BEING_BOUGHT_MESSAGE =
  'Gerade kauft jemand von der Warteliste deinen Platz. Zurücknehmen lässt sich die Rückgabe deshalb im Moment nicht.';

/** What offering a ticket back would be: its place, its money and its deadline. */
interface Assessment {
  orderId: string;
  productKey: number;
  refund: number;
  fee: number;
  closesAt: number;
}

/**
 * rules "Giving a ticket back" (docs/decisions/0020-a-returned-ticket-lends-its-place.md):
 * while an evening is sold out and people wait for it, a guest can offer a paid ticket back
 * until TICKET_RETURN_UNTIL_HOURS before the start. Its place is lent to the waiting list at
 * once (an offer whose hold a lent hold balances); the ticket admits until somebody from the
 * list pays for the place. Then the return is taken: the ticket is revoked and its price,
 * less TICKET_RETURN_FEE_EUR, refunded through the provider by a job. Nobody buying before
 * the deadline leaves the ticket valid and charges nothing back. The guest can take the
 * ticket back while nobody is buying the place.
 */
@Injectable()
export class TicketReturns {
  private readonly logger = new Logger('Returns');

  constructor(
    @Inject(Store) private readonly store: Store,
    @Inject(TicketReturnRepository) private readonly returns: TicketReturnRepository,
    @Inject(TicketService) private readonly tickets: TicketService,
    @Inject(TicketRepository) private readonly ticketStore: TicketRepository,
    @Inject(OrderRepository) private readonly orders: OrderRepository,
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(HoldRepository) private readonly holdStore: HoldRepository,
    @Inject(WaitlistRepository) private readonly waitlist: WaitlistRepository,
    @Inject(WaitlistPass) private readonly pass: WaitlistPass,
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(Holds) holds: Holds,
    @Inject(TicketReturnJobs) returnJobs: TicketReturnJobs,
    @Inject(TicketHolderService) holders: TicketHolderService,
  ) {
    returnJobs.useSweeper(this);
    // One owner of a ticket's fate at a time: while its return is open (offered, or taken
    // and not yet refunded) the ticket is not passed on.
    holders.refuseTransferWhen(async (tx, ticket) => {
      const live = await tx.get(TicketReturnRepository).liveForTicket(ticket.id);
      return live?.status === 'offered' || live?.status === 'taken'
        ? RETURN_OPEN_TRANSFER_MESSAGE
        : null;
    });
    // The waiting-list buyer's payment for a lent place takes the returns that lent it.
    holds.onClaimChange(async (tx, { hold, by, change }) => {
      if (change === 'sold') await this.take(tx, hold, by);
    });
  }

  private get options() {
    return this.config.ticketReturns ?? { enabled: true, untilHours: 24, feeCents: 0 };
  }

  /** GET /api/tickets/:token/return: what the ticket page offers. */
  async view(token: string): Promise<TicketReturnView> {
    const ticket = await this.tickets.storedByToken(token);
    const live = await this.returns.liveForTicket(ticket.id);
    if (live) return viewOf(live, ticket);
    const assessed = await this.assess(ticket, Date.now());
    if (typeof assessed === 'string') return { state: 'unavailable' };
    return {
      state: 'available',
      refund: fromCents(assessed.refund),
      fee: fromCents(assessed.fee),
      until: new Date(assessed.closesAt).toISOString(),
      passedOn: passedOn(ticket),
    };
  }

  /** POST /api/tickets/:token/return: the place goes to the waiting list now. */
  async offer(token: string): Promise<TicketReturnView> {
    const ticket = await this.tickets.storedByToken(token);
    const live = await this.returns.liveForTicket(ticket.id);
    if (live) return viewOf(live, ticket);
    const now = Date.now();
    const assessed = await this.assess(ticket, now);
    if (typeof assessed === 'string') {
      throw apiError(assessed === RETURNS_OFF_MESSAGE ? 404 : 409, assessed);
    }
    const made = await this.store.write(async (tx) => {
      await tx.get(HoldRepository).lockCapacity([assessed.productKey]);
      // The ticket as its token knows it, locked: a transfer meanwhile refuses the return.
      if (!(await tx.get(TicketRepository).lockCurrent(ticket.id, ticket.generation))) {
        throw apiError(409, RETURN_REVOKED_MESSAGE);
      }
      const added = await tx.get(TicketReturnRepository).add(
        {
          id: `rt_${randomBytes(9).toString('base64url')}`,
          ticketId: ticket.id,
          generation: ticket.generation,
          orderId: assessed.orderId,
          productKey: assessed.productKey,
          refund: assessed.refund,
          fee: assessed.fee,
          closesAt: assessed.closesAt,
        },
        now,
      );
      if (added) await this.lendOpen(tx, assessed.productKey, now);
      return added;
    });
    if (made) {
      this.logger.log({ msg: 'ticket offered back', returnId: made.id, ticketId: ticket.id });
    }
    const stored = await this.returns.liveForTicket(ticket.id);
    return stored ? viewOf(stored, ticket) : { state: 'unavailable' };
  }

  /** DELETE /api/tickets/:token/return: the guest keeps the ticket after all. */
  async withdraw(token: string): Promise<TicketReturnView> {
    const ticket = await this.tickets.storedByToken(token);
    const live = await this.returns.liveForTicket(ticket.id);
    if (!live) throw apiError(404, RETURN_NOT_OFFERED_MESSAGE);
    if (live.status !== 'offered') throw apiError(409, RETURN_TAKEN_MESSAGE);
    const now = Date.now();
    await this.store.write(async (tx) => {
      await tx.get(HoldRepository).lockCapacity([live.productKey]);
      const current = await tx.get(TicketReturnRepository).find(live.id);
      if (current?.status === 'taken' || current?.status === 'refunded') {
        throw apiError(409, RETURN_TAKEN_MESSAGE);
      }
      if (current?.status !== 'offered') throw apiError(404, RETURN_NOT_OFFERED_MESSAGE);
      const offer = current.offerId
        ? await tx.get(WaitlistRepository).findOfferById(current.offerId)
        : undefined;
      if (offer?.status === 'claimed') throw apiError(409, RETURN_BEING_BOUGHT_MESSAGE);
      await this.close(tx, current, 'return.withdraw', now);
      await this.lendOpen(tx, current.productKey, now);
    });
    this.logger.log({ msg: 'ticket return withdrawn', returnId: live.id, ticketId: ticket.id });
    return this.view(token);
  }

  /**
   * The periodic look (`TicketReturnPass`): returns past their deadline lapse, returns of
   * tickets that stopped admitting (refunded or cancelled meanwhile) lapse, and places
   * whose offer lapsed or was declined are lent to the next in line.
   */
  async sweep(now = Date.now()): Promise<{ lapsed: number; offers: number }> {
    const units = [...new Set((await this.returns.offered()).map((r) => r.productKey))];
    let lapsed = 0;
    let offers = 0;
    for (const productKey of units) {
      const result = await this.store.write(async (tx) => {
        await tx.get(HoldRepository).lockCapacity([productKey]);
        let closed = 0;
        for (const entry of await tx.get(TicketReturnRepository).offered(productKey)) {
          const ticket = await tx.get(TicketRepository).find(entry.ticketId);
          const due = now >= entry.closesAt || ticket?.status !== 'valid';
          if (!due) continue;
          const offer = entry.offerId
            ? await tx.get(WaitlistRepository).findOfferById(entry.offerId)
            : undefined;
          // A checkout begun before the deadline may still pay: its payment takes the place.
          if (offer?.status === 'claimed') continue;
          await this.close(tx, entry, 'return.lapse', now);
          closed += 1;
        }
        const made = await this.lendOpen(tx, productKey, now);
        return { closed, made };
      });
      lapsed += result.closed;
      offers += result.made;
    }
    if (lapsed > 0) this.logger.log({ msg: 'ticket returns lapsed', lapsed });
    return { lapsed, offers };
  }

  /**
   * In the waiting-list buyer's paid transition: the returns lent to the offer whose hold
   * the buyer claimed are taken, the lent places released (the sale holds them now), and
   * each return's refund queued.
   */
  private async take(tx: Transaction, hold: Hold, by: string): Promise<void> {
    const lent = await tx.get(TicketReturnRepository).offeredForHold(hold.id);
    if (lent.length === 0) return;
    const now = Date.now();
    for (const entry of lent) {
      if (!transitionTicketReturn(entry.status, { type: 'return.take' })) continue;
      // The returned ticket stops admitting in the sale's own transaction, so one place
      // never has two valid tickets; the refund follows as a job. A ticket that stopped
      // admitting meanwhile (refunded, cancelled) has nothing left to give: its return lapses.
      const returns = tx.get(TicketReturnRepository);
      if (!(await tx.get(TicketRepository).lockCurrent(entry.ticketId, entry.generation))) {
        await returns.move(entry.id, 'offered', 'lapsed', now);
        this.logger.log({
          msg: 'returned place bought after its ticket ended',
          returnId: entry.id,
        });
        continue;
      }
      if (!(await returns.move(entry.id, 'offered', 'taken', now, { takenBy: by }))) continue;
      await tx.get(TicketRepository).revokeReturned(entry.ticketId, entry.generation, now);
      await tx.get(JobRepository).enqueue(ticketReturnJob(TICKET_RETURN_JOBS.refund, entry), now);
      this.logger.log({ msg: 'returned place bought', returnId: entry.id, orderId: by });
    }
    await tx.get(HoldRepository).releaseLent(hold.owner);
  }

  /**
   * Ends an offered return (withdrawn or lapsed). An offer its place was lent to and nobody
   * is buying ends too: its entry waits in line again, its holds are released.
   */
  private async close(
    tx: Transaction,
    entry: TicketReturn,
    event: 'return.withdraw' | 'return.lapse',
    now: number,
  ): Promise<void> {
    const next = transitionTicketReturn(entry.status, { type: event });
    if (!next) return;
    if (!(await tx.get(TicketReturnRepository).move(entry.id, entry.status, next, now))) return;
    const offer = entry.offerId
      ? await tx.get(WaitlistRepository).findOfferById(entry.offerId)
      : undefined;
    if (offer?.status === 'active' && (await tx.get(WaitlistRepository).withdrawOffer(offer.id))) {
      await tx.get(HoldRepository).releaseHold(offer.holdId);
      await tx.get(HoldRepository).releaseLent(offer.entryId);
    }
  }

  /**
   * The unit's offered returns whose place is lent to nobody now (never lent, or its offer
   * declined, lapsed or withdrawn) go to the oldest entries they fit. Never more places
   * than were returned: each offer takes as many returns as it has places.
   */
  private async lendOpen(tx: Transaction, productKey: number, now: number): Promise<number> {
    const open: TicketReturn[] = [];
    for (const entry of await tx.get(TicketReturnRepository).offered(productKey)) {
      if (entry.offerId === null) {
        open.push(entry);
        continue;
      }
      const offer = await tx.get(WaitlistRepository).findOfferById(entry.offerId);
      const live =
        offer !== undefined &&
        (offer.status === 'claimed' || (offer.status === 'active' && offer.expiresAt > now));
      if (!live) open.push(entry);
    }
    if (open.length === 0) return 0;
    const offers = await this.pass.offerReturned(tx, productKey, open.length, now);
    for (const offer of offers) {
      const lent = open.splice(0, offer.quantity);
      await tx.get(TicketReturnRepository).lend(
        lent.map((r) => r.id),
        offer.id,
        now,
      );
    }
    return offers.length;
  }

  /** What offering this ticket back would be, or the German reason it cannot be. */
  private async assess(ticket: StoredTicket, now: number): Promise<Assessment | string> {
    const { enabled, untilHours, feeCents } = this.options;
    if (!enabled) return RETURNS_OFF_MESSAGE;
    if (ticket.status !== 'valid') return RETURN_REVOKED_MESSAGE;
    if (ticket.guestList) return RETURN_NOT_REFUNDABLE_MESSAGE;
    const start = ticket.startsAt ? Date.parse(ticket.startsAt) : Number.NaN;
    // An evening without a date has no deadline to measure, and nobody waits for it long.
    if (Number.isNaN(start)) return RETURN_NOT_REFUNDABLE_MESSAGE;
    const closesAt = start - untilHours * 3_600_000;
    if (now >= closesAt) return returnTooLateMessage(untilHours);
    if (await this.ticketStore.isCheckedIn(ticket.id)) return RETURN_CHECKED_IN_MESSAGE;
    const order = await this.orders.find({ id: ticket.orderId });
    if (
      !order ||
      toSessionStatus(order.status) !== 'paid' ||
      order.status === 'disputed' ||
      order.context.total === 0 ||
      !order.context.paymentReference ||
      order.provider !== this.payments.name
    ) {
      return RETURN_NOT_REFUNDABLE_MESSAGE;
    }
    const lines = await this.orders.lines(order.id);
    const price = ticketRefundPrice({
      lines,
      orderDiscount: order.context.discount,
      tickets: await this.ticketStore.refundable(order.id),
      ticketId: ticket.id,
    });
    const left = order.context.total - (order.context.refundedAmount ?? 0);
    const refund = Math.min(price ?? 0, left) - feeCents;
    if (refund <= 0) return RETURN_NOT_REFUNDABLE_MESSAGE;
    const line = lines[ticket.linePosition];
    const unit = line
      ? findStockUnit(await this.catalog.products(), line.productId, line.variationId)
      : undefined;
    if (!unit || unit.stock === null) return RETURN_NOT_SOLD_OUT_MESSAGE;
    const held =
      (await this.holdStore.heldByKey([unit.productKey], now, unit.readAt)).get(unit.productKey) ??
      0;
    if (unit.stock - held > 0) return RETURN_NOT_SOLD_OUT_MESSAGE;
    if ((await this.waitlist.queue(unit.productKey)).length === 0) {
      return RETURN_NOBODY_WAITS_MESSAGE;
    }
    return { orderId: order.id, productKey: unit.productKey, refund, fee: feeCents, closesAt };
  }
}

/**
 * rules "Giving a ticket back": a ticket passed on is given back by its holder, but the
 * money goes to whoever paid for it; the page says so before and after.
 */
function passedOn(ticket: { holderEmail: string | null }): boolean {
  return ticket.holderEmail !== null;
}

function viewOf(entry: TicketReturn, ticket: { holderEmail: string | null }): TicketReturnView {
  if (entry.status === 'offered') {
    return {
      state: 'offered',
      refund: fromCents(entry.refund),
      fee: fromCents(entry.fee),
      until: new Date(entry.closesAt).toISOString(),
      passedOn: passedOn(ticket),
    };
  }
  return {
    state: 'taken',
    refund: fromCents(entry.refund),
    refunded: entry.status === 'refunded',
    passedOn: passedOn(ticket),
  };
}
