import type { StoreDatabase, StoreDb } from '../store/store.database.js';
import { type ErasureCounts, PrivacyRepository, type RetentionCutoffs } from './privacy.port.js';

/** Checkouts that were never paid (the order machine's states before a payment). */
const UNPAID_STATUSES = ['open', 'expired', 'canceled'];

/** Orders looked at per write transaction: a pass never holds SQLite's write lock for long. */
const ORDER_BATCH = 200;

export function noErasures(): ErasureCounts {
  return {
    orders: 0,
    tickets: 0,
    scans: 0,
    mails: 0,
    contactMessages: 0,
    waitlistEntries: 0,
    reminderAddresses: 0,
    organizerSessions: 0,
  };
}

function addCounts(into: ErasureCounts, more: Partial<ErasureCounts>): void {
  for (const [kind, n] of Object.entries(more) as [keyof ErasureCounts, number][]) {
    into[kind] += n;
  }
}

const changed = (result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }) =>
  Number(result.numUpdatedRows ?? result.numDeletedRows ?? 0n);

/**
 * docs/privacy.md over SQLite or PostgreSQL. Orders and tickets are anonymised, not
 * deleted: WooCommerce keeps the order for the books, and the door's and the organizer's
 * counts (tickets per event, check-ins) stay right. Everything else that names a person is
 * deleted.
 */
export class KyselyPrivacyRepository extends PrivacyRepository {
  constructor(private readonly database: StoreDatabase) {
    super();
  }

  async eraseExpired(cutoffs: RetentionCutoffs): Promise<ErasureCounts> {
    const counts = noErasures();
    addCounts(
      counts,
      await this.database.write(async (db) => {
        const unpaid = await db
          .updateTable('orders')
          .set({ email: null, buyer_name: null, client_key: null })
          .where('status', 'in', UNPAID_STATUSES)
          .where('created_at', '<', cutoffs.unpaidCreatedBefore)
          .where((eb) =>
            eb.or([
              eb('email', 'is not', null),
              eb('buyer_name', 'is not', null),
              eb('client_key', 'is not', null),
            ]),
          )
          .executeTakeFirst();
        // rules "Coupons": the buyer's key a coupon use was held with, once that use has
        // stopped counting as long as an unpaid checkout's address is kept (a use that still
        // counts, a paid order's not yet in the shop, keeps it).
        await db
          .updateTable('coupon_holds')
          .set({ holder: null })
          .where('expires_at', '<', cutoffs.unpaidCreatedBefore)
          .where('holder', 'is not', null)
          .execute();
        return { orders: changed(unpaid) };
      }),
    );
    // Paid orders by their last event, a batch per transaction (keyset on the id).
    let after = '';
    for (;;) {
      const batch = await this.database.write((db) => this.eraseAfterEvents(db, cutoffs, after));
      if (!batch) break;
      after = batch.last;
      addCounts(counts, batch.counts);
    }
    // Orders made in the shop (rules "Orders made in the shop") alike.
    after = '';
    for (;;) {
      const batch = await this.database.write((db) =>
        this.eraseShopOrdersAfterEvents(db, cutoffs, after),
      );
      if (!batch) break;
      after = batch.last;
      addCounts(counts, batch.counts);
    }
    addCounts(
      counts,
      await this.database.write(async (db) => {
        const before = cutoffs.afterEventBefore;
        const checkins = await db
          .updateTable('checkins')
          .set({ device: '' })
          .where('received_at', '<', before)
          .where('device', '<>', '')
          .executeTakeFirst();
        const scans = await db
          .updateTable('checkin_scans')
          .set({ device: '' })
          .where('received_at', '<', before)
          .where('device', '<>', '')
          .executeTakeFirst();
        const mails = await deleteMails(db, (q) => q.where('created_at', '<', before));
        const contact = await db
          .deleteFrom('contact_messages')
          .where('created_at', '<', cutoffs.contactCreatedBefore)
          .executeTakeFirst();
        const undated = await db
          .selectFrom('waitlist_entries')
          .select('id')
          .where('starts_at', 'is', null)
          .where('created_at', '<', cutoffs.undatedWaitlistCreatedBefore)
          .execute();
        return {
          scans: changed(checkins) + changed(scans),
          mails,
          contactMessages: changed(contact),
          waitlistEntries: await deleteWaitlistEntries(
            db,
            undated.map((e) => e.id),
          ),
        };
      }),
    );
    // Last: an address whose orders were anonymised above leaves the reminders' list today.
    let address = '';
    for (;;) {
      const batch = await this.database.write((db) => eraseUnnamedReminderAddresses(db, address));
      if (!batch) break;
      address = batch.last;
      counts.reminderAddresses += batch.deleted;
    }
    return counts;
  }

  async eraseAddress(email: string): Promise<ErasureCounts> {
    const address = email.trim().toLowerCase();
    return this.database.write(async (db) => {
      const orders = await db
        .selectFrom('orders')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', address))
        .execute();
      const anonymised = await anonymiseOrders(
        db,
        orders.map((o) => o.id),
      );
      // rules "Orders made in the shop": the shop's orders billed to the address.
      const shopOrders = await db
        .selectFrom('shop_orders')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', address))
        .execute();
      const shopAnonymised = await anonymiseShopOrders(
        db,
        shopOrders.map((o) => o.id),
      );
      // rules "Named tickets": tickets passed on to the address keep no trace of its holder;
      // an empty address, not none, so they do not become the buyer's again.
      const passedOn = await db
        .updateTable('tickets')
        .set({ holder: null, holder_company: null, holder_email: '' })
        .where((eb) => eb(eb.fn('lower', ['holder_email']), '=', address))
        .executeTakeFirst();
      const entries = await db
        .selectFrom('waitlist_entries')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', address))
        .execute();
      const contact = await db
        .deleteFrom('contact_messages')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', address))
        .executeTakeFirst();
      // rules "Reminders": the address's unsubscribe token (stored lower-case).
      const reminderAddresses = await db
        .deleteFrom('reminder_addresses')
        .where('email', '=', address)
        .executeTakeFirst();
      // rules "The organizer": a WordPress account's sessions carry its name and address;
      // erasing them signs that account out everywhere.
      const organizerSessions = await db
        .deleteFrom('organizer_sessions')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', address))
        .executeTakeFirst();
      return {
        ...noErasures(),
        orders: anonymised.orders + shopAnonymised.orders,
        tickets: anonymised.tickets + shopAnonymised.tickets + changed(passedOn),
        mails: await deleteMails(db, (q) =>
          q.where((eb) => eb(eb.fn('lower', ['to_address']), '=', address)),
        ),
        contactMessages: changed(contact),
        waitlistEntries: await deleteWaitlistEntries(
          db,
          entries.map((e) => e.id),
        ),
        reminderAddresses: changed(reminderAddresses),
        organizerSessions: changed(organizerSessions),
      };
    });
  }

  private async eraseShopOrdersAfterEvents(
    db: StoreDb,
    cutoffs: RetentionCutoffs,
    after: string,
  ): Promise<{ last: string; counts: Partial<ErasureCounts> } | undefined> {
    const batch = await shopOrdersDue(db, cutoffs.afterEventBefore, after);
    if (!batch) return undefined;
    return { last: batch.last, counts: await anonymiseShopOrders(db, batch.due) };
  }

  /**
   * The next batch of paid orders that still name someone: those whose last event (or,
   * without a dated event, the payment) lies before the cutoff are anonymised. Undefined
   * when no order is left to look at.
   */
  private async eraseAfterEvents(
    db: StoreDb,
    cutoffs: RetentionCutoffs,
    after: string,
  ): Promise<{ last: string; counts: Partial<ErasureCounts> } | undefined> {
    const before = cutoffs.afterEventBefore;
    const candidates = await db
      .selectFrom('orders')
      .select(['id', 'paid_at', 'created_at'])
      .where('status', 'not in', UNPAID_STATUSES)
      // An order made after the cutoff is for an event after it too.
      .where('created_at', '<', before)
      .where('id', '>', after)
      .where((eb) =>
        eb.or([
          eb('email', 'is not', null),
          eb('buyer_name', 'is not', null),
          eb.exists(
            eb
              .selectFrom('tickets')
              .select('tickets.id')
              .whereRef('tickets.order_id', '=', 'orders.id')
              .where('tickets.holder', 'is not', null),
          ),
        ]),
      )
      .orderBy('id')
      .limit(ORDER_BATCH)
      .execute();
    if (candidates.length === 0) return undefined;
    const due = await dueAfterLastEvent(
      db,
      candidates.map((o) => ({ id: o.id, undated: Number(o.paid_at ?? o.created_at) })),
      before,
    );
    return {
      last: candidates[candidates.length - 1]!.id,
      counts: await anonymiseOrders(db, due),
    };
  }
}

/**
 * rules "Orders made in the shop": the shop's orders with tickets, like paid orders: their
 * billing address and name and their tickets' holders go once their last event lies
 * before the cutoff (without a dated event: once the order was first seen before it).
 */
async function shopOrdersDue(
  db: StoreDb,
  before: number,
  after: string,
): Promise<{ last: string; due: string[] } | undefined> {
  const candidates = await db
    .selectFrom('shop_orders')
    .select(['id', 'created_at'])
    .where('created_at', '<', before)
    .where('id', '>', after)
    .where((eb) =>
      eb.or([
        eb('email', 'is not', null),
        eb('holder', 'is not', null),
        eb.exists(
          eb
            .selectFrom('tickets')
            .select('tickets.id')
            .whereRef('tickets.order_id', '=', 'shop_orders.id')
            .where('tickets.holder', 'is not', null),
        ),
      ]),
    )
    .orderBy('id')
    .limit(ORDER_BATCH)
    .execute();
  if (candidates.length === 0) return undefined;
  const due = await dueAfterLastEvent(
    db,
    candidates.map((o) => ({ id: o.id, undated: Number(o.created_at) })),
    before,
  );
  return { last: candidates[candidates.length - 1]!.id, due };
}

/**
 * Of these orders (the site's or the shop's), those whose last event started before
 * `before`; an order without a dated event counts from its `undated` time instead.
 */
async function dueAfterLastEvent(
  db: StoreDb,
  orders: readonly { id: string; undated: number }[],
  before: number,
): Promise<string[]> {
  const dated = await db
    .selectFrom('tickets')
    .select(['order_id', 'starts_at'])
    .where(
      'order_id',
      'in',
      orders.map((o) => o.id),
    )
    .where('starts_at', 'is not', null)
    .execute();
  // Tickets keep the event's start as the catalog gave it (ISO 8601 with its offset).
  const lastEvent = new Map<string, number>();
  for (const t of dated) {
    const startsAt = Date.parse(t.starts_at ?? '');
    if (Number.isNaN(startsAt)) continue;
    lastEvent.set(t.order_id, Math.max(lastEvent.get(t.order_id) ?? startsAt, startsAt));
  }
  return orders.filter((o) => (lastEvent.get(o.id) ?? o.undated) < before).map((o) => o.id);
}

/** A shop order's billing address and name, its tickets' holders and its jobs' errors. */
async function anonymiseShopOrders(
  db: StoreDb,
  ids: readonly string[],
): Promise<Pick<ErasureCounts, 'orders' | 'tickets'>> {
  if (ids.length === 0) return { orders: 0, tickets: 0 };
  const orders = await db
    .updateTable('shop_orders')
    .set({ email: null, holder: null })
    .where('id', 'in', [...ids])
    .where((eb) => eb.or([eb('email', 'is not', null), eb('holder', 'is not', null)]))
    .executeTakeFirst();
  const tickets = await db
    .updateTable('tickets')
    .set({ holder: null, holder_company: null, holder_email: null })
    .where('order_id', 'in', [...ids])
    .where('holder', 'is not', null)
    .executeTakeFirst();
  await eraseGivers(db, ids);
  await db
    .updateTable('jobs')
    .set({ last_error: null })
    .where('subject', 'in', [...ids])
    .where('last_error', 'is not', null)
    .execute();
  return { orders: changed(orders), tickets: changed(tickets) };
}

/** rules "Named tickets": the names of who passed the orders' tickets on. */
async function eraseGivers(db: StoreDb, orderIds: readonly string[]): Promise<void> {
  await db
    .updateTable('ticket_transfers')
    .set({ given_by: null })
    .where('ticket_id', 'in', (eb) =>
      eb
        .selectFrom('tickets')
        .select('tickets.id')
        .where('order_id', 'in', [...orderIds]),
    )
    .where('given_by', 'is not', null)
    .execute();
}

/**
 * The orders' buyer (address, name, the keyed hash of the client's address) and their
 * tickets' holders; a job's last error may quote the address too (a refusing mail server
 * does).
 */
async function anonymiseOrders(
  db: StoreDb,
  ids: readonly string[],
): Promise<Pick<ErasureCounts, 'orders' | 'tickets'>> {
  if (ids.length === 0) return { orders: 0, tickets: 0 };
  // The order rows first, as the order's transitions lock them before its tickets: on
  // PostgreSQL the other way round could deadlock with a refund of one of these orders.
  const orders = await db
    .updateTable('orders')
    .set({ email: null, buyer_name: null, client_key: null })
    .where('id', 'in', [...ids])
    .executeTakeFirst();
  const tickets = await db
    .updateTable('tickets')
    .set({ holder: null, holder_company: null, holder_email: null })
    .where('order_id', 'in', [...ids])
    .where('holder', 'is not', null)
    .executeTakeFirst();
  await eraseGivers(db, ids);
  await db
    .updateTable('jobs')
    .set({ last_error: null })
    .where('subject', 'in', [...ids])
    .where('last_error', 'is not', null)
    .execute();
  await db
    .updateTable('coupon_holds')
    .set({ holder: null })
    .where('owner', 'in', [...ids])
    .where('holder', 'is not', null)
    .execute();
  return { orders: changed(orders), tickets: changed(tickets) };
}

/**
 * rules "Reminders", docs/privacy.md: the next batch of the reminders' list after `after`
 * (by address); of those, the addresses nothing else in the store names any more are
 * deleted with their token and their unsubscribe. A reminder goes only to an address an
 * order, an order made in the shop or a ticket passed on names, so an unsubscribe is kept
 * exactly as long as it can stop one: while any of those (or a waiting-list entry, whose
 * offer may become a ticket) still names the address, and no longer. Each of them keeps
 * the address for its own period; the longest, a paid order's, is
 * PERSONAL_DATA_DAYS_AFTER_EVENT days after its last event. Undefined when no address is
 * left to look at.
 */
async function eraseUnnamedReminderAddresses(
  db: StoreDb,
  after: string,
): Promise<{ last: string; deleted: number } | undefined> {
  const batch = (
    await db
      .selectFrom('reminder_addresses')
      .select('email')
      .where('email', '>', after)
      .orderBy('email')
      .limit(ORDER_BATCH)
      .execute()
  ).map((r) => r.email);
  if (batch.length === 0) return undefined;
  // The reminders compare addresses trimmed and lower-case (reminders.repository.ts).
  const named = new Set<string>();
  const naming = [
    ['orders', 'email'],
    ['shop_orders', 'email'],
    ['tickets', 'holder_email'],
    ['waitlist_entries', 'email'],
  ] as const;
  for (const [table, column] of naming) {
    const rows = await db
      .selectFrom(table)
      .select((eb) => eb.fn<string>('lower', [eb.fn('trim', [column])]).as('address'))
      .where((eb) => eb(eb.fn('lower', [eb.fn('trim', [column])]), 'in', batch))
      .execute();
    for (const row of rows) named.add(row.address);
  }
  const unnamed = batch.filter((email) => !named.has(email));
  const deleted =
    unnamed.length === 0
      ? 0
      : changed(
          await db
            .deleteFrom('reminder_addresses')
            .where('email', 'in', unnamed)
            .executeTakeFirst(),
        );
  return { last: batch[batch.length - 1]!, deleted };
}

type MailQuery = ReturnType<typeof selectMailIds>;

function selectMailIds(db: StoreDb) {
  return db.selectFrom('mails').select('id');
}

/** Deletes the mails `where` selects, with their attachments; returns how many. */
async function deleteMails(db: StoreDb, where: (query: MailQuery) => MailQuery): Promise<number> {
  const ids = (await where(selectMailIds(db)).execute()).map((m) => m.id);
  // Bound parameters per statement stay far below either database's limit.
  for (let i = 0; i < ids.length; i += ORDER_BATCH) {
    const chunk = ids.slice(i, i + ORDER_BATCH);
    await db.deleteFrom('mail_attachments').where('mail_id', 'in', chunk).execute();
    await db.deleteFrom('mails').where('id', 'in', chunk).execute();
  }
  return ids.length;
}

/** Deletes waiting-list entries with their offers, their holds and mails; returns how many. */
async function deleteWaitlistEntries(db: StoreDb, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  // Their mails: jobs about the entry.
  await db
    .deleteFrom('jobs')
    .where('subject', 'in', [...ids])
    .execute();
  await db
    .deleteFrom('waitlist_offers')
    .where('entry_id', 'in', [...ids])
    .execute();
  // An offer's places are a hold owned by its entry.
  await db
    .deleteFrom('holds')
    .where('owner', 'in', [...ids])
    .execute();
  const deleted = await db
    .deleteFrom('waitlist_entries')
    .where('id', 'in', [...ids])
    .executeTakeFirst();
  return changed(deleted);
}
