import type { Kysely, Selectable } from 'kysely';
import type { OrganizerNoticesTable, StoreSchema } from '../store/store.schema.js';
import {
  type OrganizerNotice,
  type OrganizerNoticeKind,
  OrganizerNoticeRepository,
} from './organizer-notices.port.js';

export class KyselyOrganizerNoticeRepository extends OrganizerNoticeRepository {
  constructor(private readonly db: Kysely<StoreSchema>) {
    super();
  }

  async add(notice: OrganizerNotice): Promise<boolean> {
    const result = await this.db
      .insertInto('organizer_notices')
      .values({
        id: notice.id,
        kind: notice.kind,
        order_id: notice.orderId,
        shop_order: notice.shopOrder,
        items: JSON.stringify(notice.items),
        created_at: notice.createdAt,
        done_at: notice.doneAt,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async find(id: string): Promise<OrganizerNotice | undefined> {
    const row = await this.db
      .selectFrom('organizer_notices')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toNotice(row) : undefined;
  }

  async open(limit: number): Promise<OrganizerNotice[]> {
    const rows = await this.db
      .selectFrom('organizer_notices')
      .selectAll()
      .where('done_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toNotice);
  }

  async done(id: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('organizer_notices')
      .set({ done_at: now })
      .where('id', '=', id)
      .where('done_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async purgeDone(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('organizer_notices')
      .where('done_at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function toNotice(row: Selectable<OrganizerNoticesTable>): OrganizerNotice {
  return {
    id: row.id,
    kind: row.kind as OrganizerNoticeKind,
    orderId: row.order_id,
    shopOrder: row.shop_order,
    items: JSON.parse(row.items) as string[],
    createdAt: Number(row.created_at),
    doneAt: row.done_at === null ? null : Number(row.done_at),
  };
}
