import type { StoreDb } from '../store/store.database.js';
import {
  type MailAttachment,
  MailboxRepository,
  type StoredMail,
  type StoredMailSummary,
} from './mail.port.js';

export class KyselyMailboxRepository extends MailboxRepository {
  constructor(private readonly db: StoreDb) {
    super();
  }

  async add(
    mail: Omit<StoredMail, 'attachments' | 'createdAt'> & { attachments: MailAttachment[] },
    now: number,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('mails')
        .values({
          id: mail.id,
          to_address: mail.to,
          from_address: mail.from,
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
          created_at: now,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return;
      if (mail.attachments.length === 0) return;
      await trx
        .insertInto('mail_attachments')
        .values(
          mail.attachments.map((a, position) => ({
            mail_id: mail.id,
            position,
            filename: a.filename,
            content_type: a.contentType,
            size: a.content.length,
            content: a.content.toString('base64'),
          })),
        )
        .execute();
    });
  }

  async list(limit: number): Promise<StoredMailSummary[]> {
    const mails = await this.db
      .selectFrom('mails')
      .select(['id', 'to_address', 'subject', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    const infos = await this.attachmentInfos(mails.map((m) => m.id));
    return mails.map((m) => ({
      id: m.id,
      to: m.to_address,
      subject: m.subject,
      createdAt: m.created_at,
      attachments: infos.get(m.id) ?? [],
    }));
  }

  async find(id: string): Promise<StoredMail | undefined> {
    const mail = await this.db
      .selectFrom('mails')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!mail) return undefined;
    const infos = await this.attachmentInfos([id]);
    return {
      id: mail.id,
      to: mail.to_address,
      from: mail.from_address,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      createdAt: mail.created_at,
      attachments: infos.get(id) ?? [],
    };
  }

  async attachment(id: string, index: number): Promise<MailAttachment | undefined> {
    const row = await this.db
      .selectFrom('mail_attachments')
      .select(['filename', 'content_type', 'content'])
      .where('mail_id', '=', id)
      .where('position', '=', index)
      .executeTakeFirst();
    return row
      ? {
          filename: row.filename,
          contentType: row.content_type,
          content: Buffer.from(row.content, 'base64'),
        }
      : undefined;
  }

  private async attachmentInfos(
    mailIds: readonly string[],
  ): Promise<Map<string, StoredMailSummary['attachments']>> {
    const infos = new Map<string, StoredMailSummary['attachments']>();
    if (mailIds.length === 0) return infos;
    const rows = await this.db
      .selectFrom('mail_attachments')
      .select(['mail_id', 'filename', 'content_type', 'size'])
      .where('mail_id', 'in', mailIds)
      .orderBy('mail_id')
      .orderBy('position')
      .execute();
    for (const row of rows) {
      const list = infos.get(row.mail_id) ?? [];
      list.push({ filename: row.filename, contentType: row.content_type, size: row.size });
      infos.set(row.mail_id, list);
    }
    return infos;
  }
}
