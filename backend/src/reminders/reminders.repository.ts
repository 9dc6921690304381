import type { StoreDb } from '../store/store.database.js';
import { ReminderRepository, type ReminderTicket } from './reminders.port.js';

export class KyselyReminderRepository extends ReminderRepository {
  constructor(private readonly db: StoreDb) {
    super();
  }

  async validTicketsFrom(fromIso: string): Promise<ReminderTicket[]> {
    return this.select((q) => q.where('t.starts_at', '>=', fromIso));
  }

  async validTickets(ids: readonly string[]): Promise<ReminderTicket[]> {
    if (ids.length === 0) return [];
    return this.select((q) => q.where('t.id', 'in', [...ids]));
  }

  async unsubscribed(emails: readonly string[]): Promise<Set<string>> {
    if (emails.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('reminder_addresses')
      .select('email')
      .where('email', 'in', [...emails])
      .where('unsubscribed_at', 'is not', null)
      .execute();
    return new Set(rows.map((r) => r.email));
  }

  async tokenFor(email: string, token: string, now: number): Promise<string> {
    await this.db
      .insertInto('reminder_addresses')
      .values({ email, token, unsubscribed_at: null, created_at: now })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('reminder_addresses')
      .select('token')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return row.token;
  }

  async unsubscribe(token: string, now: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('reminder_addresses')
      .select(['email', 'unsubscribed_at'])
      .where('token', '=', token)
      .executeTakeFirst();
    if (!row) return false;
    if (row.unsubscribed_at === null) {
      await this.db
        .updateTable('reminder_addresses')
        .set({ unsubscribed_at: now })
        .where('token', '=', token)
        .execute();
    }
    return true;
  }

  private async select(
    where: (
      q: ReturnType<KyselyReminderRepository['base']>,
    ) => ReturnType<KyselyReminderRepository['base']>,
  ): Promise<ReminderTicket[]> {
    const rows = await where(this.base()).orderBy('t.starts_at').orderBy('t.id').execute();
    const found: ReminderTicket[] = [];
    for (const r of rows) {
      // A ticket passed on goes to its holder's address, as the door's list shows it; one
      // whose holder's address was erased ('') goes to nobody, never back to the buyer.
      const holderEmail = r.holder_email ?? r.email ?? r.shop_email ?? '';
      const email = holderEmail.trim().toLowerCase();
      if (!email || !r.starts_at) continue;
      found.push({
        id: r.id,
        orderId: r.order_id,
        eventId: Number(r.event_id),
        eventName: r.event_name,
        startsAt: r.starts_at,
        venue: r.venue,
        tier: r.tier,
        holder: r.holder,
        seat: Number(r.seat),
        generation: Number(r.generation),
        issuedAt: Number(r.issued_at),
        email,
      });
    }
    return found;
  }

  private base() {
    return this.db
      .selectFrom('tickets as t')
      .leftJoin('orders', 'orders.id', 't.order_id')
      .leftJoin('shop_orders', 'shop_orders.id', 't.order_id')
      .select([
        't.id',
        't.order_id',
        't.event_id',
        't.event_name',
        't.starts_at',
        't.venue',
        't.tier',
        't.holder',
        't.seat',
        't.generation',
        't.issued_at',
        't.holder_email',
        'orders.email',
        'shop_orders.email as shop_email',
      ])
      .where('t.status', '=', 'valid')
      .where('t.starts_at', 'is not', null);
  }
}
