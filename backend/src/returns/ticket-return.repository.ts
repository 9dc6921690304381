import type { Kysely, Selectable } from 'kysely';
import { ticketReturnStatusSchema } from '@awhh/machines';
import type { StoreSchema, TicketReturnsTable } from '../store/store.schema.js';
import {
  type NewTicketReturn,
  type TicketReturn,
  TicketReturnRepository,
} from './ticket-returns.port.js';

const LIVE = ['offered', 'taken', 'refunded'] as const;

export class KyselyTicketReturnRepository extends TicketReturnRepository {
  constructor(private readonly db: Kysely<StoreSchema>) {
    super();
  }

  async add(entry: NewTicketReturn, now: number): Promise<TicketReturn | undefined> {
    // Called under the unit's capacity lock, so two requests for one ticket run one after
    // the other; the partial unique index on live returns backs that up.
    if (await this.liveForTicket(entry.ticketId)) return undefined;
    const row = await this.db
      .insertInto('ticket_returns')
      .values({
        id: entry.id,
        ticket_id: entry.ticketId,
        generation: entry.generation,
        order_id: entry.orderId,
        product_key: entry.productKey,
        status: 'offered',
        refund: entry.refund,
        fee: entry.fee,
        offer_id: null,
        taken_by: null,
        refund_reference: null,
        closes_at: entry.closesAt,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toReturn(row);
  }

  async find(id: string): Promise<TicketReturn | undefined> {
    const row = await this.db
      .selectFrom('ticket_returns')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toReturn(row) : undefined;
  }

  async liveForTicket(ticketId: string): Promise<TicketReturn | undefined> {
    const row = await this.db
      .selectFrom('ticket_returns')
      .selectAll()
      .where('ticket_id', '=', ticketId)
      .where('status', 'in', [...LIVE])
      .executeTakeFirst();
    return row ? toReturn(row) : undefined;
  }

  async offered(productKey?: number): Promise<TicketReturn[]> {
    let query = this.db.selectFrom('ticket_returns').selectAll().where('status', '=', 'offered');
    if (productKey !== undefined) query = query.where('product_key', '=', productKey);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    return rows.map(toReturn);
  }

  async offeredForHold(holdId: number): Promise<TicketReturn[]> {
    const rows = await this.db
      .selectFrom('ticket_returns')
      .selectAll()
      .where('status', '=', 'offered')
      .where('offer_id', 'in', (eb) =>
        eb.selectFrom('waitlist_offers').select('waitlist_offers.id').where('hold_id', '=', holdId),
      )
      .orderBy('created_at')
      .execute();
    return rows.map(toReturn);
  }

  async lend(ids: readonly string[], offerId: number | null, now: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('ticket_returns')
      .set({ offer_id: offerId, updated_at: now })
      .where('id', 'in', [...ids])
      .where('status', '=', 'offered')
      .execute();
  }

  async move(
    id: string,
    from: TicketReturn['status'],
    to: TicketReturn['status'],
    now: number,
    record: { takenBy?: string; refundReference?: string | null } = {},
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('ticket_returns')
      .set({
        status: to,
        updated_at: now,
        ...(record.takenBy !== undefined ? { taken_by: record.takenBy } : {}),
        ...(record.refundReference !== undefined
          ? { refund_reference: record.refundReference }
          : {}),
      })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

function toReturn(row: Selectable<TicketReturnsTable>): TicketReturn {
  return {
    id: row.id,
    ticketId: row.ticket_id,
    generation: Number(row.generation),
    orderId: row.order_id,
    productKey: row.product_key,
    status: ticketReturnStatusSchema.parse(row.status),
    refund: row.refund,
    fee: row.fee,
    offerId: row.offer_id,
    takenBy: row.taken_by,
    refundReference: row.refund_reference,
    closesAt: Number(row.closes_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
