import { sql } from 'kysely';
import type { StoreDb } from '../store/store.database.js';
import {
  type NewOrganizerMail,
  type OrganizerMailRecipient,
  OrganizerMailRepository,
  type StoredOrganizerMail,
} from './organizer-mail.port.js';

/** Recipient rows per insert statement: well under both databases' parameter limits. */
const BATCH = 500;

export class KyselyOrganizerMailRepository extends OrganizerMailRepository {
  constructor(private readonly db: StoreDb) {
    super();
  }

  async findBySendId(sendId: string): Promise<StoredOrganizerMail | undefined> {
    return (await this.select((q) => q.where('m.send_id', '=', sendId)))[0];
  }

  async find(id: string): Promise<StoredOrganizerMail | undefined> {
    return (await this.select((q) => q.where('m.id', '=', id)))[0];
  }

  async forEvent(eventId: number): Promise<StoredOrganizerMail[]> {
    return this.select((q) => q.where('m.event_id', '=', eventId));
  }

  async create(mail: NewOrganizerMail, now: number): Promise<void> {
    await this.db
      .insertInto('organizer_mails')
      .values({
        id: mail.id,
        send_id: mail.sendId,
        event_id: mail.eventId,
        event_name: mail.eventName,
        starts_at: mail.startsAt,
        subject: mail.subject,
        body: mail.body,
        recipients: mail.ticketIds.length,
        created_at: now,
      })
      .execute();
    for (let i = 0; i < mail.ticketIds.length; i += BATCH) {
      await this.db
        .insertInto('organizer_mail_recipients')
        .values(
          mail.ticketIds
            .slice(i, i + BATCH)
            .map((ticketId) => ({ mail_id: mail.id, ticket_id: ticketId, sent_at: null })),
        )
        .execute();
    }
  }

  async recipient(mailId: string, ticketId: string): Promise<OrganizerMailRecipient | undefined> {
    const row = await this.db
      .selectFrom('organizer_mail_recipients as r')
      .leftJoin('tickets', 'tickets.id', 'r.ticket_id')
      .leftJoin('orders', 'orders.id', 'tickets.order_id')
      .leftJoin('shop_orders', 'shop_orders.id', 'tickets.order_id')
      .select([
        'r.sent_at',
        'tickets.holder_email',
        'orders.email',
        'shop_orders.email as shop_email',
      ])
      .where('r.mail_id', '=', mailId)
      .where('r.ticket_id', '=', ticketId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      sentAt: row.sent_at === null ? null : Number(row.sent_at),
      // A ticket passed on goes to its holder's address, as the door's list shows it.
      email: row.holder_email || row.email || row.shop_email || null,
    };
  }

  async markSent(mailId: string, ticketId: string, now: number): Promise<void> {
    await this.db
      .updateTable('organizer_mail_recipients')
      .set({ sent_at: now })
      .where('mail_id', '=', mailId)
      .where('ticket_id', '=', ticketId)
      .where('sent_at', 'is', null)
      .execute();
  }

  private async select(
    where: (
      q: ReturnType<KyselyOrganizerMailRepository['base']>,
    ) => ReturnType<KyselyOrganizerMailRepository['base']>,
  ): Promise<StoredOrganizerMail[]> {
    const rows = await where(this.base())
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      eventId: Number(r.event_id),
      eventName: r.event_name,
      startsAt: r.starts_at,
      subject: r.subject,
      body: r.body,
      createdAt: Number(r.created_at),
      recipients: Number(r.recipients),
      sent: Number(r.sent),
    }));
  }

  private base() {
    return this.db.selectFrom('organizer_mails as m').select([
      'm.id',
      'm.event_id',
      'm.event_name',
      'm.starts_at',
      'm.subject',
      'm.body',
      'm.created_at',
      'm.recipients',
      (eb) =>
        eb
          .selectFrom('organizer_mail_recipients as r')
          .select(sql<number>`count(r.sent_at)`.as('n'))
          .whereRef('r.mail_id', '=', 'm.id')
          .as('sent'),
    ]);
  }
}
