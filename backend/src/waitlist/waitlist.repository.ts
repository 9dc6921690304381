import type { EventEmitter2 } from '@nestjs/event-emitter';
import type { Selectable } from 'kysely';
import { PLACES_RELEASED } from '../holds/holds.js';
import type { StoreDb, StoreKind } from '../store/store.database.js';
import { type CommitHooks, COMMITTED } from '../store/store.port.js';
import type {
  HoldsTable,
  WaitlistEntriesTable,
  WaitlistOffersTable,
} from '../store/store.schema.js';
import {
  type NewWaitlistEntry,
  type WaitedUnit,
  type WaitlistCount,
  type WaitlistEntry,
  type WaitlistEntryStatus,
  type WaitlistOffer,
  type WaitlistOfferStatus,
  WAITLIST_CONFIRMED,
  WaitlistRepository,
} from './waitlist.port.js';

/** rules "Waiting list" on Kysely; `db` is the store or one transaction. */
export class KyselyWaitlistRepository extends WaitlistRepository {
  constructor(
    private readonly db: StoreDb,
    private readonly kind: StoreKind,
    private readonly hooks: CommitHooks = COMMITTED,
    private readonly events: EventEmitter2 | null = null,
  ) {
    super();
  }

  /**
   * Deletes entries with their offers, their offers' holds (owned by the entry) and their
   * mails. On PostgreSQL the entries are locked first, so a pass offering to one of them
   * meanwhile waits and then finds it gone (instead of adding an offer that would keep the
   * entry's row).
   */
  private async removeEntries(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    if (this.kind === 'postgres') {
      await this.db
        .selectFrom('waitlist_entries')
        .select('id')
        .where('id', 'in', [...ids])
        .forUpdate()
        .execute();
    }
    // Their mails: jobs about the entry.
    await this.db
      .deleteFrom('jobs')
      .where('subject', 'in', [...ids])
      .execute();
    await this.db
      .deleteFrom('waitlist_offers')
      .where('entry_id', 'in', [...ids])
      .execute();
    const freed = await this.db
      .deleteFrom('holds')
      .where('owner', 'in', [...ids])
      .executeTakeFirst();
    // An offer's places are free once this commits: the waiting list's pass hears of it.
    const events = this.events;
    if (events && Number(freed.numDeletedRows) > 0) {
      this.hooks.afterCommit(() => events.emit(PLACES_RELEASED), PLACES_RELEASED);
    }
    await this.db
      .deleteFrom('waitlist_entries')
      .where('id', 'in', [...ids])
      .execute();
  }

  async add(
    entry: NewWaitlistEntry,
    now: number,
  ): Promise<{ entry: WaitlistEntry; added: boolean }> {
    const inserted = await this.db
      .insertInto('waitlist_entries')
      .values({
        id: entry.id,
        product_id: entry.productId,
        variation_id: entry.variationId,
        product_key: entry.productKey,
        quantity: entry.quantity,
        email: entry.email,
        status: 'pending',
        line_name: entry.lineName,
        event_slug: entry.eventSlug,
        starts_at: entry.startsAt,
        confirm_token: entry.confirmToken,
        unsubscribe_token: entry.unsubscribeToken,
        created_at: now,
        confirmed_at: null,
        public_free: null,
      })
      .onConflict((oc) => oc.columns(['email', 'product_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    const stored = await this.db
      .selectFrom('waitlist_entries')
      .selectAll()
      .where('email', '=', entry.email)
      .where('product_key', '=', entry.productKey)
      .executeTakeFirstOrThrow();
    return { entry: toEntry(stored), added: inserted !== undefined };
  }

  findByConfirmToken(token: string): Promise<WaitlistEntry | undefined> {
    return this.entryWhere('confirm_token', token);
  }

  findByUnsubscribeToken(token: string): Promise<WaitlistEntry | undefined> {
    return this.entryWhere('unsubscribe_token', token);
  }

  find(id: string): Promise<WaitlistEntry | undefined> {
    return this.entryWhere('id', id);
  }

  private async entryWhere(
    column: 'id' | 'confirm_token' | 'unsubscribe_token',
    value: string,
  ): Promise<WaitlistEntry | undefined> {
    const row = await this.db
      .selectFrom('waitlist_entries')
      .selectAll()
      .where(column, '=', value)
      .executeTakeFirst();
    return row ? toEntry(row) : undefined;
  }

  async confirm(id: string, now: number, publicFree: number | null): Promise<boolean> {
    const result = await this.db
      .updateTable('waitlist_entries')
      .set({ status: 'confirmed', confirmed_at: now, public_free: publicFree })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    const confirmed = Number(result.numUpdatedRows) > 0;
    const events = this.events;
    if (confirmed && events) {
      this.hooks.afterCommit(() => events.emit(WAITLIST_CONFIRMED), WAITLIST_CONFIRMED);
    }
    return confirmed;
  }

  async ahead(entry: WaitlistEntry): Promise<number> {
    if (entry.confirmedAt === null) return 0;
    const row = await this.db
      .selectFrom('waitlist_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'confirmed')
      .where('product_key', '=', entry.productKey)
      .where((eb) =>
        eb.or([
          eb('confirmed_at', '<', entry.confirmedAt),
          eb.and([eb('confirmed_at', '=', entry.confirmedAt), eb('id', '<', entry.id)]),
        ]),
      )
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async remove(id: string): Promise<void> {
    await this.removeEntries([id]);
  }

  async waitedUnits(): Promise<WaitedUnit[]> {
    const rows = await this.db
      .selectFrom('waitlist_entries')
      .select(['product_key', 'product_id', 'variation_id'])
      .where('status', '=', 'confirmed')
      .groupBy(['product_key', 'product_id', 'variation_id'])
      .orderBy('product_key')
      .execute();
    return rows.map((r) => ({
      productKey: r.product_key,
      productId: r.product_id,
      variationId: r.variation_id,
    }));
  }

  async queue(productKey: number): Promise<WaitlistEntry[]> {
    const rows = await this.db
      .selectFrom('waitlist_entries')
      .selectAll()
      .where('status', '=', 'confirmed')
      .where('product_key', '=', productKey)
      .orderBy('confirmed_at')
      .orderBy('id')
      .execute();
    return rows.map(toEntry);
  }

  async capPublicFree(productKey: number, free: number): Promise<void> {
    await this.db
      .updateTable('waitlist_entries')
      .set({ public_free: free })
      .where('status', '=', 'confirmed')
      .where('product_key', '=', productKey)
      .where((eb) => eb.or([eb('public_free', 'is', null), eb('public_free', '>', free)]))
      .execute();
  }

  async markOffered(entryId: string): Promise<boolean> {
    // The guard on the entry's status decides between two passes that both saw it waiting.
    const taken = await this.db
      .updateTable('waitlist_entries')
      .set({ status: 'offered' })
      .where('id', '=', entryId)
      .where('status', '=', 'confirmed')
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) > 0;
  }

  async createOffer(
    offer: Pick<WaitlistOffer, 'entryId' | 'token' | 'holdId'>,
    now: number,
  ): Promise<WaitlistOffer> {
    const { id } = await this.db
      .insertInto('waitlist_offers')
      .values({
        entry_id: offer.entryId,
        token: offer.token,
        hold_id: offer.holdId,
        status: 'active',
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return (await this.findOfferById(id))!;
  }

  findOffer(token: string): Promise<WaitlistOffer | undefined> {
    return this.offerWhere('waitlist_offers.token', token);
  }

  findOfferById(id: number): Promise<WaitlistOffer | undefined> {
    return this.offerWhere('waitlist_offers.id', id);
  }

  /** The offer with its places, read from its hold. */
  private async offerWhere(
    column: 'waitlist_offers.token' | 'waitlist_offers.id',
    value: string | number,
  ): Promise<WaitlistOffer | undefined> {
    const row = await this.db
      .selectFrom('waitlist_offers')
      .innerJoin('holds', 'holds.id', 'waitlist_offers.hold_id')
      .select([
        'waitlist_offers.id',
        'waitlist_offers.entry_id',
        'waitlist_offers.token',
        'waitlist_offers.hold_id',
        'waitlist_offers.status',
        'waitlist_offers.created_at',
        'holds.product_key',
        'holds.quantity',
        'holds.expires_at',
      ])
      .where(column, '=', value)
      .executeTakeFirst();
    return row ? toOffer(row) : undefined;
  }

  async markOfferClaimed(holdId: number): Promise<void> {
    await this.db
      .updateTable('waitlist_offers')
      .set({ status: 'claimed' })
      .where('hold_id', '=', holdId)
      .where('status', '=', 'active')
      .execute();
  }

  async markOfferActive(holdId: number): Promise<void> {
    await this.db
      .updateTable('waitlist_offers')
      .set({ status: 'active' })
      .where('hold_id', '=', holdId)
      .where('status', '=', 'claimed')
      .execute();
  }

  async declineOffer(offerId: number): Promise<boolean> {
    const result = await this.db
      .updateTable('waitlist_offers')
      .set({ status: 'declined' })
      .where('id', '=', offerId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async withdrawOffer(offerId: number): Promise<boolean> {
    const withdrawn = await this.db
      .updateTable('waitlist_offers')
      .set({ status: 'expired' })
      .where('id', '=', offerId)
      .where('status', '=', 'active')
      .returning(['entry_id'])
      .executeTakeFirst();
    if (!withdrawn) return false;
    await this.db
      .updateTable('waitlist_entries')
      .set({ status: 'confirmed' })
      .where('id', '=', withdrawn.entry_id)
      .where('status', '=', 'offered')
      .execute();
    return true;
  }

  async expireOffers(now: number): Promise<number> {
    const result = await this.db
      .updateTable('waitlist_offers')
      .set({ status: 'expired' })
      .where('status', '=', 'active')
      .where('hold_id', 'in', (eb) =>
        eb.selectFrom('holds').select('holds.id').where('holds.expires_at', '<=', now),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async counts(now: number): Promise<WaitlistCount[]> {
    const waiting = await this.db
      .selectFrom('waitlist_entries')
      .select((eb) => [
        'product_id',
        'variation_id',
        eb.fn.max('line_name').as('line_name'),
        eb.fn.countAll<number>().as('n'),
      ])
      .where('status', '=', 'confirmed')
      .groupBy(['product_id', 'variation_id'])
      .execute();
    const offered = await this.db
      .selectFrom('waitlist_offers')
      .innerJoin('waitlist_entries', 'waitlist_entries.id', 'waitlist_offers.entry_id')
      .innerJoin('holds', 'holds.id', 'waitlist_offers.hold_id')
      .select((eb) => [
        'waitlist_entries.product_id',
        'waitlist_entries.variation_id',
        eb.fn.max('waitlist_entries.line_name').as('line_name'),
        eb.fn.countAll<number>().as('n'),
      ])
      .where('waitlist_offers.status', '=', 'active')
      .where('holds.expires_at', '>', now)
      .groupBy(['waitlist_entries.product_id', 'waitlist_entries.variation_id'])
      .execute();
    const counts = new Map<string, WaitlistCount>();
    const row = (productId: number, variationId: number | null, lineName: string) => {
      const key = `${productId}:${variationId ?? ''}`;
      let found = counts.get(key);
      if (!found) {
        found = { productId, variationId, lineName, waiting: 0, offered: 0 };
        counts.set(key, found);
      }
      return found;
    };
    for (const r of waiting)
      row(r.product_id, r.variation_id, String(r.line_name)).waiting += Number(r.n);
    for (const r of offered)
      row(r.product_id, r.variation_id, String(r.line_name)).offered += Number(r.n);
    return [...counts.values()].sort(
      (a, b) => a.productId - b.productId || (a.variationId ?? 0) - (b.variationId ?? 0),
    );
  }

  async removeStartedBefore(cutoff: number): Promise<number> {
    const ended = this.db
      .selectFrom('waitlist_entries')
      .select('id')
      .where('starts_at', 'is not', null)
      .where('starts_at', '<', cutoff);
    const ids = (await ended.execute()).map((r) => r.id);
    await this.removeEntries(ids);
    return ids.length;
  }
}

function toEntry(row: Selectable<WaitlistEntriesTable>): WaitlistEntry {
  return {
    id: row.id,
    productId: row.product_id,
    variationId: row.variation_id,
    productKey: row.product_key,
    quantity: row.quantity,
    email: row.email,
    status: row.status as WaitlistEntryStatus,
    lineName: row.line_name,
    eventSlug: row.event_slug,
    startsAt: row.starts_at,
    confirmToken: row.confirm_token,
    unsubscribeToken: row.unsubscribe_token,
    createdAt: row.created_at,
    confirmedAt: row.confirmed_at,
    publicFree: row.public_free,
  };
}

function toOffer(
  row: Selectable<WaitlistOffersTable> &
    Pick<Selectable<HoldsTable>, 'product_key' | 'quantity' | 'expires_at'>,
): WaitlistOffer {
  return {
    id: row.id,
    entryId: row.entry_id,
    token: row.token,
    holdId: row.hold_id,
    productKey: row.product_key,
    quantity: row.quantity,
    expiresAt: row.expires_at,
    status: row.status as WaitlistOfferStatus,
    createdAt: row.created_at,
  };
}
