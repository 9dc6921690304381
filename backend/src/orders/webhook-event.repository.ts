import type { StoreDb } from '../store/store.database.js';
import {
  type EventSource,
  type RecordedEvent,
  SHOP_EVENT_PREFIX,
  WebhookEventRepository,
} from './orders.port.js';

export class KyselyWebhookEventRepository extends WebhookEventRepository {
  constructor(private readonly db: StoreDb) {
    super();
  }

  async record(event: { id: string; type: string }, now: number): Promise<boolean> {
    const recorded = await this.db
      .insertInto('webhook_events')
      .values({ id: event.id, type: event.type, received_at: now, outcome: 'received' })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return recorded !== undefined;
  }

  async setOutcome(id: string, outcome: string): Promise<void> {
    await this.db.updateTable('webhook_events').set({ outcome }).where('id', '=', id).execute();
  }

  async recent(limit: number, source: EventSource): Promise<RecordedEvent[]> {
    // The prefix holds no LIKE wildcards.
    const shop = `${SHOP_EVENT_PREFIX}%`;
    const rows = await this.db
      .selectFrom('webhook_events')
      .select(['type', 'received_at', 'outcome'])
      .where('type', source === 'shop' ? 'like' : 'not like', shop)
      .orderBy('received_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ type: r.type, receivedAt: r.received_at, outcome: r.outcome }));
  }
}
