import type { TicketStatus } from '@awhh/machines';
import type { StoreDatabase, StoreDb } from '../store/store.database.js';
import {
  type CheckIn,
  type CheckinEvent,
  CheckinRepository,
  type DoorTicket,
  type OtherEventCode,
  type ScanRecord,
  type TicketAtDoor,
} from './door.port.js';

/** rules "Tickets and the door": the door's check-ins over SQLite or PostgreSQL. */
export class KyselyCheckinRepository extends CheckinRepository {
  /** `database` opens the transactions; `db` is the connection or transaction queries run on. */
  constructor(
    private readonly database: StoreDatabase,
    private readonly db: StoreDb = database.db,
  ) {
    super();
  }

  transaction<T>(work: (checkins: CheckinRepository) => Promise<T>): Promise<T> {
    return this.database.write((trx) => work(new KyselyCheckinRepository(this.database, trx)));
  }

  async events(): Promise<CheckinEvent[]> {
    const rows = await this.db
      .selectFrom('tickets')
      .leftJoin('checkins', 'checkins.ticket_id', 'tickets.id')
      .select((eb) => [
        'tickets.event_id',
        eb.fn.max('tickets.event_name').as('event_name'),
        eb.fn.max('tickets.starts_at').as('starts_at'),
        eb.fn.max('tickets.venue').as('venue'),
        eb.fn
          .sum<number>(eb.case().when('tickets.status', '=', 'valid').then(1).else(0).end())
          .as('valid'),
        eb.fn.countAll<number>().as('issued'),
        eb.fn.count<number>('checkins.ticket_id').as('checked_in'),
      ])
      .groupBy('tickets.event_id')
      .execute();
    return rows.map((r) => {
      const valid = Number(r.valid);
      return {
        eventId: r.event_id,
        eventName: r.event_name,
        startsAt: r.starts_at,
        venue: r.venue,
        valid,
        revoked: Number(r.issued) - valid,
        checkedIn: Number(r.checked_in),
      };
    });
  }

  async eventTickets(eventId: number): Promise<DoorTicket[]> {
    const rows = await this.db
      .selectFrom('tickets')
      .leftJoin('checkins', 'checkins.ticket_id', 'tickets.id')
      .leftJoin('orders', 'orders.id', 'tickets.order_id')
      // rules "Orders made in the shop": their tickets name the shop's order.
      .leftJoin('shop_orders', 'shop_orders.id', 'tickets.order_id')
      .select([
        'tickets.id',
        'tickets.order_id',
        'tickets.seat',
        'tickets.seats',
        'tickets.tier',
        'tickets.holder',
        'tickets.holder_company',
        'tickets.holder_email',
        'tickets.generation',
        'tickets.guest_list',
        'tickets.status',
        'tickets.starts_at',
        'checkins.scanned_at',
        'checkins.device',
        'tickets.code',
        'orders.catalog_order_id',
        'orders.email',
        'orders.buyer_name',
        'shop_orders.holder as shop_holder',
        'shop_orders.number as shop_number',
        'shop_orders.email as shop_email',
      ])
      .where('tickets.event_id', '=', eventId)
      .orderBy('tickets.order_id')
      .orderBy('tickets.line_position')
      .orderBy('tickets.seat')
      .execute();
    // rules "Named tickets": the codes tickets had before they were passed on.
    const transfers = await this.db
      .selectFrom('ticket_transfers')
      .innerJoin('tickets', 'tickets.id', 'ticket_transfers.ticket_id')
      .select(['ticket_transfers.ticket_id', 'ticket_transfers.previous_code'])
      .where('tickets.event_id', '=', eventId)
      .where('ticket_transfers.previous_code', 'is not', null)
      .orderBy('ticket_transfers.ticket_id')
      .orderBy('ticket_transfers.generation')
      .execute();
    const earlierCodes = new Map<string, string[]>();
    for (const t of transfers) {
      earlierCodes.set(t.ticket_id, [...(earlierCodes.get(t.ticket_id) ?? []), t.previous_code!]);
    }
    return rows.map((r) => ({
      id: r.id,
      orderId: r.order_id,
      seat: r.seat,
      seats: r.seats,
      tier: r.tier,
      holder: r.holder,
      company: r.holder_company,
      generation: Number(r.generation),
      passedOnCodes: earlierCodes.get(r.id) ?? [],
      guestList: Number(r.guest_list) === 1,
      status: r.status as TicketStatus,
      startsAt: r.starts_at,
      checkedInAt: r.scanned_at ?? null,
      checkedInDevice: r.device ?? null,
      code: r.code,
      orderNumber: r.catalog_order_id ?? r.shop_number ?? null,
      // A ticket passed on is found by its holder's address, not the buyer's.
      email: r.holder_email || r.email || r.shop_email || null,
      buyer: r.buyer_name ?? r.shop_holder ?? null,
    }));
  }

  async ticketsByCode(
    codes: readonly { eventId: number; code: string }[],
  ): Promise<Map<string, { id: string; eventId: number; seat: number }>> {
    const found = new Map<string, { id: string; eventId: number; seat: number }>();
    const byEvent = new Map<number, Set<string>>();
    for (const { eventId, code } of codes) {
      byEvent.set(eventId, (byEvent.get(eventId) ?? new Set()).add(code));
    }
    for (const [eventId, wanted] of byEvent) {
      const rows = await this.db
        .selectFrom('tickets')
        .select(['id', 'event_id', 'seat', 'code'])
        .where('event_id', '=', eventId)
        .where('code', 'in', [...wanted])
        .execute();
      for (const r of rows) {
        found.set(`${r.event_id}:${r.code}`, { id: r.id, eventId: r.event_id, seat: r.seat });
      }
    }
    return found;
  }

  async otherEventCodes(eventId: number, since: string): Promise<OtherEventCode[]> {
    const rows = await this.db
      .selectFrom('tickets')
      .select(['event_id', 'code', 'starts_at'])
      .where('event_id', '!=', eventId)
      .where('code', 'is not', null)
      .where((eb) => eb.or([eb('starts_at', 'is', null), eb('starts_at', '>=', since)]))
      .execute();
    return rows.map((r) => ({ eventId: r.event_id, code: r.code!, startsAt: r.starts_at }));
  }

  async knownScans(scanIds: readonly string[]): Promise<Map<string, string | null>> {
    if (scanIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('checkin_scans')
      .select(['scan_id', 'ticket_id'])
      .where('scan_id', 'in', [...scanIds])
      .execute();
    return new Map(rows.map((r) => [r.scan_id, r.ticket_id]));
  }

  async ticketsAtDoor(ticketIds: readonly string[]): Promise<Map<string, TicketAtDoor>> {
    if (ticketIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('tickets')
      .select(['id', 'event_id', 'seat', 'status', 'issued_at', 'starts_at', 'generation'])
      .where('id', 'in', [...ticketIds])
      .execute();
    return new Map(
      rows.map((r) => [
        r.id,
        {
          id: r.id,
          eventId: r.event_id,
          seat: r.seat,
          status: r.status as TicketStatus,
          issuedAt: Number(r.issued_at),
          startsAt: r.starts_at,
          generation: Number(r.generation),
        },
      ]),
    );
  }

  async keepEarliest(checkIns: readonly CheckIn[], now: number): Promise<void> {
    if (checkIns.length === 0) return;
    // Rows in ticket order: concurrent batches lock their rows in the same order on
    // PostgreSQL and cannot deadlock each other.
    const rows = [...checkIns]
      .sort((a, b) => (a.ticketId < b.ticketId ? -1 : a.ticketId > b.ticketId ? 1 : 0))
      .map((c) => ({
        ticket_id: c.ticketId,
        scan_id: c.scanId,
        scanned_at: c.scannedAt,
        device: c.device,
        received_at: now,
      }));
    // Insert-or-replace-if-earlier in one statement: the comparison runs against the row as
    // committed (PostgreSQL re-checks it after waiting for a concurrent writer's lock), so
    // whichever order the syncs arrive in, the earliest scan is kept.
    await this.db
      .insertInto('checkins')
      .values(rows)
      .onConflict((oc) =>
        oc
          .column('ticket_id')
          .doUpdateSet((eb) => ({
            scan_id: eb.ref('excluded.scan_id'),
            scanned_at: eb.ref('excluded.scanned_at'),
            device: eb.ref('excluded.device'),
            received_at: eb.ref('excluded.received_at'),
          }))
          .where((eb) =>
            eb.or([
              eb('checkins.scanned_at', '>', eb.ref('excluded.scanned_at')),
              eb.and([
                eb('checkins.scanned_at', '=', eb.ref('excluded.scanned_at')),
                eb('checkins.scan_id', '>', eb.ref('excluded.scan_id')),
              ]),
            ]),
          ),
      )
      .execute();
  }

  async firstCheckIns(ticketIds: readonly string[]): Promise<Map<string, CheckIn>> {
    if (ticketIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('checkins')
      .select(['ticket_id', 'scan_id', 'scanned_at', 'device'])
      .where('ticket_id', 'in', [...ticketIds])
      .execute();
    return new Map(
      rows.map((r) => [
        r.ticket_id,
        { ticketId: r.ticket_id, scanId: r.scan_id, scannedAt: r.scanned_at, device: r.device },
      ]),
    );
  }

  async recordScans(scans: readonly ScanRecord[], now: number): Promise<void> {
    if (scans.length === 0) return;
    await this.db
      .insertInto('checkin_scans')
      .values(
        scans.map((s) => ({
          scan_id: s.scanId,
          ticket_id: s.ticketId,
          scanned_at: s.scannedAt,
          device: s.device,
          status: s.status,
          received_at: now,
        })),
      )
      .onConflict((oc) => oc.column('scan_id').doNothing())
      .execute();
  }

  async removeCheckIn(ticketId: string): Promise<CheckIn | null> {
    const row = await this.db
      .deleteFrom('checkins')
      .where('ticket_id', '=', ticketId)
      .returning(['ticket_id', 'scan_id', 'scanned_at', 'device'])
      .executeTakeFirst();
    return row
      ? {
          ticketId: row.ticket_id,
          scanId: row.scan_id,
          scannedAt: Number(row.scanned_at),
          device: row.device,
        }
      : null;
  }
}
