import type { TicketStatus } from '@awhh/machines';
import { type Selectable, sql } from 'kysely';
import type { StoreDb } from '../store/store.database.js';
import { newTicketCode } from './ticket-issue.js';
import {
  type NewTicket,
  type StoredTicket,
  type TicketHolder,
  TicketRepository,
  type TicketSale,
  type TicketTransfer,
  type TransferRefusal,
} from './tickets.port.js';
import type { TicketsTable } from '../store/store.schema.js';
import type { RefundableTicket } from './refunded-tickets.js';

/** Draws of a batch's codes before a collision is an error (one in 2^40 per ticket and draw). */
const CODE_ATTEMPTS = 5;
/** Rows per insert statement. */
const INSERT_BATCH = 500;

export class KyselyTicketRepository extends TicketRepository {
  /** `newCode` is the source of short codes (a test forces a collision with it). */
  constructor(
    private readonly db: StoreDb,
    private readonly newCode: () => string = newTicketCode,
  ) {
    super();
  }

  /**
   * rules "Tickets and the door": every seat gets a random short code, unique within its
   * event by the store's index (`tickets_event_code_uq`). A code drawn twice fails the
   * insert; the batch draws anew. In a transaction the insert runs under a savepoint, as
   * PostgreSQL refuses every further statement of a transaction after a failed one.
   */
  async issue(tickets: readonly NewTicket[], now: number): Promise<void> {
    if (tickets.length === 0) return;
    for (let attempt = 1; ; attempt += 1) {
      const inTransaction = this.db.isTransaction;
      if (inTransaction) await sql`savepoint ticket_codes`.execute(this.db);
      try {
        await this.insertTickets(tickets, now);
        if (inTransaction) await sql`release savepoint ticket_codes`.execute(this.db);
        return;
      } catch (error) {
        if (inTransaction) await sql`rollback to savepoint ticket_codes`.execute(this.db);
        if (attempt >= CODE_ATTEMPTS || !isCodeCollision(error)) throw error;
      }
    }
  }

  /** In batches: SQLite takes at most 32,766 bound values per statement. */
  private async insertTickets(tickets: readonly NewTicket[], now: number): Promise<void> {
    for (let from = 0; from < tickets.length; from += INSERT_BATCH) {
      await this.insertBatch(tickets.slice(from, from + INSERT_BATCH), now);
    }
  }

  private async insertBatch(tickets: readonly NewTicket[], now: number): Promise<void> {
    await this.db
      .insertInto('tickets')
      .values(
        tickets.map((t) => ({
          id: t.id,
          order_id: t.orderId,
          line_position: t.linePosition,
          seat: t.seat,
          seats: t.seats,
          event_id: t.eventId,
          variation_id: t.variationId,
          event_name: t.eventName,
          event_slug: t.eventSlug,
          starts_at: t.startsAt,
          venue: t.venue,
          tier: t.tier,
          holder: t.holder,
          guest_list: t.guestList ? 1 : 0,
          status: 'valid',
          issued_at: now,
          revoked_at: null,
          code: this.newCode(),
        })),
      )
      .onConflict((oc) => oc.columns(['order_id', 'line_position', 'seat']).doNothing())
      .execute();
  }

  async find(id: string): Promise<StoredTicket | undefined> {
    const row = await this.db
      .selectFrom('tickets')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toTicket(row) : undefined;
  }

  async forOrder(orderId: string): Promise<StoredTicket[]> {
    const rows = await this.db
      .selectFrom('tickets')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('line_position')
      .orderBy('seat')
      .execute();
    return rows.map(toTicket);
  }

  async validForEmail(email: string): Promise<StoredTicket[]> {
    const rows = await this.db
      .selectFrom('tickets')
      .innerJoin('orders', 'orders.id', 'tickets.order_id')
      .selectAll('tickets')
      .where((eb) => eb(eb.fn('lower', ['orders.email']), '=', email.trim().toLowerCase()))
      .where('tickets.status', '=', 'valid')
      .where('tickets.holder_email', 'is', null)
      .orderBy('orders.created_at', 'desc')
      .orderBy('tickets.order_id')
      .orderBy('tickets.line_position')
      .orderBy('tickets.seat')
      .execute();
    return rows.map(toTicket);
  }

  async validForOrders(orderIds: readonly string[]): Promise<StoredTicket[]> {
    if (orderIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('tickets')
      .selectAll()
      .where('order_id', 'in', [...orderIds])
      .where('status', '=', 'valid')
      .where('holder_email', 'is', null)
      .orderBy('order_id')
      .orderBy('line_position')
      .orderBy('seat')
      .execute();
    const rank = new Map(orderIds.map((id, i) => [id, i]));
    return rows
      .map(toTicket)
      .sort((a, b) => (rank.get(a.orderId) ?? 0) - (rank.get(b.orderId) ?? 0));
  }

  async passedOnTo(email: string): Promise<StoredTicket[]> {
    const rows = await this.db
      .selectFrom('tickets')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['holder_email']), '=', email.trim().toLowerCase()))
      .where('status', '=', 'valid')
      .orderBy('issued_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(toTicket);
  }

  async setHolder(id: string, holder: TicketHolder, generation?: number): Promise<boolean> {
    let update = this.db
      .updateTable('tickets')
      .set({ holder: holder.name, holder_company: holder.company })
      .where('id', '=', id);
    if (generation !== undefined) update = update.where('generation', '=', generation);
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async isCheckedIn(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('checkins')
      .select('ticket_id')
      .where('ticket_id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * One conditional update (generation, valid, not checked in), so of two transfers with
   * the same token only one changes the ticket. A new code its event has already fails the
   * update; it is drawn again, under a savepoint in a transaction (see `issue`).
   */
  async transfer(
    id: string,
    generation: number,
    to: TicketTransfer,
    now: number,
  ): Promise<StoredTicket | TransferRefusal> {
    const before = await this.find(id);
    if (!before || before.generation !== generation) return 'stale';
    if (before.status !== 'valid') return 'revoked';
    for (let attempt = 1; ; attempt += 1) {
      const inTransaction = this.db.isTransaction;
      if (inTransaction) await sql`savepoint ticket_transfer`.execute(this.db);
      try {
        const result = await this.db
          .updateTable('tickets')
          .set({
            generation: generation + 1,
            code: this.newCode(),
            holder: to.name,
            holder_company: to.company,
            holder_email: to.email,
          })
          .where('id', '=', id)
          .where('generation', '=', generation)
          .where('status', '=', 'valid')
          .where((eb) =>
            eb.not(
              eb.exists(eb.selectFrom('checkins').select('ticket_id').where('ticket_id', '=', id)),
            ),
          )
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) {
          if (inTransaction) await sql`release savepoint ticket_transfer`.execute(this.db);
          return (await this.isCheckedIn(id)) ? 'checkedIn' : 'stale';
        }
        await this.db
          .insertInto('ticket_transfers')
          .values({
            ticket_id: id,
            generation: generation + 1,
            previous_code: before.code,
            given_by: before.holder,
            transferred_at: now,
          })
          .execute();
        if (inTransaction) await sql`release savepoint ticket_transfer`.execute(this.db);
        return (await this.find(id))!;
      } catch (error) {
        if (inTransaction) await sql`rollback to savepoint ticket_transfer`.execute(this.db);
        if (attempt >= CODE_ATTEMPTS || !isCodeCollision(error)) throw error;
      }
    }
  }

  async lockCurrent(id: string, generation: number): Promise<boolean> {
    // An update that changes nothing takes PostgreSQL's row lock; SQLite's writes are serial.
    const result = await this.db
      .updateTable('tickets')
      .set((eb) => ({ generation: eb.ref('generation') }))
      .where('id', '=', id)
      .where('generation', '=', generation)
      .where('status', '=', 'valid')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async transfersSince(id: string, since: number): Promise<number> {
    const row = await this.db
      .selectFrom('ticket_transfers')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('ticket_id', '=', id)
      .where('transferred_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async givenBy(id: string, generation: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('ticket_transfers')
      .select('given_by')
      .where('ticket_id', '=', id)
      .where('generation', '=', generation)
      .executeTakeFirst();
    return row?.given_by ?? null;
  }

  async revokeReturned(id: string, generation: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('tickets')
      .set({ status: 'revoked', revoked_at: now, refunded_at: now })
      .where('id', '=', id)
      .where('generation', '=', generation)
      .where('status', '=', 'valid')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async revokeForOrder(orderId: string, now: number): Promise<number> {
    const result = await this.db
      .updateTable('tickets')
      .set({ status: 'revoked', revoked_at: now })
      .where('order_id', '=', orderId)
      .where('status', '=', 'valid')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async restoreForOrder(orderId: string): Promise<number> {
    const result = await this.db
      .updateTable('tickets')
      .set({ status: 'valid', revoked_at: null })
      .where('order_id', '=', orderId)
      .where('status', '=', 'revoked')
      .where('refunded_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async eventSales(eventIds: readonly number[] | null): Promise<TicketSale[]> {
    if (eventIds !== null && eventIds.length === 0) return [];
    // Left joins: a ticket of an order made in the shop has no order of the site (decision
    // 15); it counts as sold, from the shop's stock, without money of the site.
    let query = this.db
      .selectFrom('tickets')
      .leftJoin('order_lines', (join) =>
        join
          .onRef('order_lines.order_id', '=', 'tickets.order_id')
          .onRef('order_lines.position', '=', 'tickets.line_position'),
      )
      .leftJoin('orders', 'orders.id', 'tickets.order_id')
      .select((eb) => [
        'tickets.event_id',
        'tickets.variation_id',
        'tickets.order_id',
        'orders.id as site_order',
        'order_lines.unit_amount',
        'orders.subtotal',
        'orders.total',
        'orders.refunded_amount',
        'orders.catalog_order_id',
        eb.fn.max('tickets.event_name').as('event_name'),
        eb.fn.max('tickets.starts_at').as('starts_at'),
        eb.fn.max('tickets.venue').as('venue'),
        eb.fn.max('tickets.tier').as('tier'),
        eb.fn.min('tickets.issued_at').as('issued_at'),
        eb.fn.countAll<number>().as('seats'),
        eb.fn
          .sum<number>(eb.case().when('tickets.status', '=', 'valid').then(1).else(0).end())
          .as('valid_seats'),
      ]);
    if (eventIds !== null) {
      query = query.where('tickets.order_id', 'in', (eb) =>
        eb
          .selectFrom('tickets as of_event')
          .select('of_event.order_id')
          .where('of_event.event_id', 'in', [...eventIds]),
      );
    }
    const rows = await query
      .groupBy([
        'tickets.event_id',
        'tickets.variation_id',
        'tickets.order_id',
        'tickets.line_position',
        'orders.id',
        'order_lines.unit_amount',
        'orders.subtotal',
        'orders.total',
        'orders.refunded_amount',
        'orders.catalog_order_id',
      ])
      .execute();
    return rows.map((r) => ({
      eventId: Number(r.event_id),
      variationId: r.variation_id === null ? null : Number(r.variation_id),
      eventName: r.event_name,
      startsAt: r.starts_at,
      venue: r.venue,
      tier: r.tier,
      orderId: r.order_id,
      seats: Number(r.seats),
      validSeats: Number(r.valid_seats),
      issuedAt: Number(r.issued_at),
      unitAmount: Number(r.unit_amount ?? 0),
      orderSubtotal: Number(r.subtotal ?? 0),
      orderTotal: Number(r.total ?? 0),
      orderRefunded: Number(r.refunded_amount ?? 0),
      inShop: r.site_order === null || r.catalog_order_id !== null,
    }));
  }

  async refundable(orderId: string): Promise<RefundableTicket[]> {
    // The door's check-ins only say which of the order's tickets were scanned.
    const rows = await this.db
      .selectFrom('tickets')
      .select((eb) => [
        'tickets.id',
        'tickets.line_position',
        'tickets.seat',
        'tickets.refunded_at',
        eb
          .exists(
            eb
              .selectFrom('checkins')
              .select('checkins.ticket_id')
              .whereRef('checkins.ticket_id', '=', 'tickets.id'),
          )
          .as('checked_in'),
      ])
      .where('tickets.order_id', '=', orderId)
      .orderBy('tickets.line_position')
      .orderBy('tickets.seat')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      linePosition: r.line_position,
      seat: r.seat,
      // SQLite answers 0/1, PostgreSQL a boolean.
      checkedIn: Boolean(r.checked_in),
      refunded: r.refunded_at !== null,
    }));
  }

  async markRefunded(ticketIds: readonly string[], now: number): Promise<void> {
    if (ticketIds.length === 0) return;
    await this.db
      .updateTable('tickets')
      .set((eb) => ({
        status: 'revoked',
        revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)),
        refunded_at: now,
      }))
      .where('id', 'in', [...ticketIds])
      .where('refunded_at', 'is', null)
      .execute();
  }
}

function toTicket(row: Selectable<TicketsTable>): StoredTicket {
  return {
    id: row.id,
    orderId: row.order_id,
    linePosition: row.line_position,
    seat: row.seat,
    seats: row.seats,
    eventId: row.event_id,
    variationId: row.variation_id,
    eventName: row.event_name,
    eventSlug: row.event_slug,
    startsAt: row.starts_at,
    venue: row.venue,
    tier: row.tier,
    holder: row.holder,
    guestList: Number(row.guest_list) === 1,
    status: row.status as TicketStatus,
    issuedAt: row.issued_at,
    revokedAt: row.revoked_at,
    code: row.code,
    company: row.holder_company,
    holderEmail: row.holder_email,
    generation: Number(row.generation),
  };
}

/** The unique index of an event's codes refused the insert (PostgreSQL's name, SQLite's columns). */
function isCodeCollision(error: unknown): boolean {
  // Read by shape, not `instanceof Error`: a native driver's error may come from another
  // realm (jest's test environment is one).
  const message =
    typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : '';
  return message.includes('tickets_event_code_uq') || message.includes('tickets.code');
}
