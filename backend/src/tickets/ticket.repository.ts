import type { TicketStatus } from '@awhh/machines';
import type { Selectable } from 'kysely';
import type { StoreDb } from '../store/store.database.js';
import { type NewTicket, type StoredTicket, TicketRepository } from './tickets.port.js';
import type { TicketsTable } from '../store/store.schema.js';

export class KyselyTicketRepository extends TicketRepository {
  constructor(private readonly db: StoreDb) {
    super();
  }

  async issue(tickets: readonly NewTicket[], now: number): Promise<void> {
    if (tickets.length === 0) return;
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
          status: 'valid',
          issued_at: now,
          revoked_at: null,
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
      .orderBy('orders.created_at', 'desc')
      .orderBy('tickets.order_id')
      .orderBy('tickets.line_position')
      .orderBy('tickets.seat')
      .execute();
    return rows.map(toTicket);
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
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
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
    status: row.status as TicketStatus,
    issuedAt: row.issued_at,
    revokedAt: row.revoked_at,
  };
}
