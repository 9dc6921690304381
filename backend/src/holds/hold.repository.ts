import type { EventEmitter2 } from '@nestjs/event-emitter';
import type { Selectable } from 'kysely';
import type { Places } from './capacity.js';
import { PLACES_RELEASED } from './holds.js';
import {
  couponKey,
  type HeldCouponUses,
  type HeldExcept,
  type Hold,
  HoldRepository,
  type NewCouponUse,
  type NewHold,
} from './holds.port.js';
import type { StoreDb, StoreKind } from '../store/store.database.js';
import { type CommitHooks, COMMITTED } from '../store/store.port.js';
import type { HoldsTable } from '../store/store.schema.js';

/** rules "Capacity": the holds on Kysely; `db` is the store or one transaction. */
export class KyselyHoldRepository extends HoldRepository {
  constructor(
    private readonly db: StoreDb,
    private readonly kind: StoreKind,
    private readonly hooks: CommitHooks = COMMITTED,
    private readonly events: EventEmitter2 | null = null,
  ) {
    super();
  }

  /**
   * Places may have come free: once the transaction has committed, `places.released` is
   * published (the waiting list's pass and the returns listen), once per transaction.
   */
  private releasedAfterCommit(): void {
    const events = this.events;
    if (events) this.hooks.afterCommit(() => events.emit(PLACES_RELEASED), PLACES_RELEASED);
  }

  /**
   * On SQLite the write transaction already holds the database's write lock. On
   * PostgreSQL each stock unit has a lock row, taken in key order so two checkouts
   * cannot deadlock.
   */
  async lockCapacity(productKeys: readonly number[]): Promise<void> {
    if (this.kind !== 'postgres' || productKeys.length === 0) return;
    const keys = [...new Set(productKeys)].sort((a, b) => a - b);
    await this.db
      .insertInto('capacity_locks')
      .values(keys.map((product_key) => ({ product_key })))
      .onConflict((oc) => oc.column('product_key').doNothing())
      .execute();
    await this.db
      .selectFrom('capacity_locks')
      .select('product_key')
      .where('product_key', 'in', keys)
      .orderBy('product_key')
      .forUpdate()
      .execute();
  }

  /** One statement: a checkout's capacity check is on its hot path (holds_capacity_idx covers it). */
  async heldByKey(
    productKeys: readonly number[],
    now: number,
    readAt: number,
    except: HeldExcept = {},
  ): Promise<Map<number, number>> {
    if (productKeys.length === 0) return new Map();
    let query = this.db
      .selectFrom('holds')
      .select((eb) => ['product_key', eb.fn.sum<number>('quantity').as('held')])
      .where('product_key', 'in', [...productKeys])
      .where('released', '=', 0)
      .where('expires_at', '>', now)
      .where((eb) => eb.or([eb('settled_at', 'is', null), eb('settled_at', '>', readAt)]));
    if (except.owner !== undefined) query = query.where('owner', '<>', except.owner);
    if (except.holdId !== undefined) query = query.where('id', '<>', except.holdId);
    const rows = await query.groupBy('product_key').execute();
    return new Map(rows.map((r) => [Number(r.product_key), Number(r.held)]));
  }

  async add(holds: readonly NewHold[]): Promise<Hold[]> {
    if (holds.length === 0) return [];
    const rows = await this.db
      .insertInto('holds')
      .values(
        holds.map((h) => ({
          owner: h.owner,
          product_key: h.productKey,
          quantity: h.quantity,
          expires_at: h.expiresAt,
          released: 0,
          sold: 0,
          claim_token: h.claimToken ?? null,
          claimed_by: null,
          settled_at: null,
        })),
      )
      .returningAll()
      .execute();
    return rows.map(toHold);
  }

  async find(id: number): Promise<Hold | undefined> {
    const row = await this.db
      .selectFrom('holds')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toHold(row) : undefined;
  }

  async findByClaimToken(token: string): Promise<Hold | undefined> {
    const row = await this.db
      .selectFrom('holds')
      .selectAll()
      .where('claim_token', '=', token)
      .executeTakeFirst();
    return row ? toHold(row) : undefined;
  }

  async placesOf(owner: string): Promise<Places[]> {
    const rows = await this.db
      .selectFrom('holds')
      .select(['product_key', 'quantity'])
      .where('owner', '=', owner)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ productKey: r.product_key, quantity: r.quantity }));
  }

  async isHeld(owner: string, now: number): Promise<boolean> {
    const lapsed = await this.db
      .selectFrom('holds')
      .select('id')
      .where('owner', '=', owner)
      .where((eb) => eb.or([eb('released', '<>', 0), eb('expires_at', '<=', now)]))
      .executeTakeFirst();
    return lapsed === undefined;
  }

  async keep(owner: string, until: number, sold = false): Promise<void> {
    await this.db
      .updateTable('holds')
      .set({ released: 0, expires_at: until, ...(sold ? { sold: 1 } : {}) })
      .where('owner', '=', owner)
      .execute();
    await this.db
      .updateTable('coupon_holds')
      .set({ released: 0, expires_at: until })
      .where('owner', '=', owner)
      .execute();
  }

  async settle(owner: string, at: number, until: number): Promise<void> {
    // The first answer counts: a repeated hand-off finds the sale settled already.
    await this.db
      .updateTable('holds')
      .set({ settled_at: at, expires_at: until })
      .where('owner', '=', owner)
      .where('settled_at', 'is', null)
      .execute();
    await this.db
      .updateTable('coupon_holds')
      .set({ settled_at: at, expires_at: until })
      .where('owner', '=', owner)
      .where('settled_at', 'is', null)
      .execute();
  }

  async release(owner: string): Promise<void> {
    await this.db.updateTable('holds').set({ released: 1 }).where('owner', '=', owner).execute();
    await this.db
      .updateTable('coupon_holds')
      .set({ released: 1 })
      .where('owner', '=', owner)
      .execute();
    this.releasedAfterCommit();
  }

  async releaseHold(holdId: number): Promise<void> {
    await this.db.updateTable('holds').set({ released: 1 }).where('id', '=', holdId).execute();
    this.releasedAfterCommit();
  }

  async claim(holdId: number, by: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('holds')
      .set({ released: 1, claimed_by: by })
      .where('id', '=', holdId)
      .where('released', '=', 0)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    const claimed = Number(result.numUpdatedRows) > 0;
    // The claimer may take fewer places than the hold kept: the rest is free.
    if (claimed) this.releasedAfterCommit();
    return claimed;
  }

  /** As `lockCapacity`: SQLite's write transaction already serialises; PostgreSQL locks a row per code. */
  async lockCouponUses(code: string): Promise<void> {
    if (this.kind !== 'postgres') return;
    const key = couponKey(code);
    await this.db
      .insertInto('coupon_locks')
      .values({ code: key })
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
    await this.db
      .selectFrom('coupon_locks')
      .select('code')
      .where('code', '=', key)
      .forUpdate()
      .execute();
  }

  async couponUsesHeld(
    code: string,
    holder: string | null,
    now: number,
    readAt: number,
  ): Promise<HeldCouponUses> {
    // One row per holder: open checkouts of one coupon are few, and the index covers it.
    const rows = await this.db
      .selectFrom('coupon_holds')
      .select((eb) => ['holder', eb.fn.countAll<number>().as('uses')])
      .where('code', '=', couponKey(code))
      .where('released', '=', 0)
      .where('expires_at', '>', now)
      .where((eb) => eb.or([eb('settled_at', 'is', null), eb('settled_at', '>', readAt)]))
      .groupBy('holder')
      .execute();
    let all = 0;
    let byHolder = 0;
    for (const row of rows) {
      all += Number(row.uses);
      if (holder !== null && row.holder === holder) byHolder += Number(row.uses);
    }
    return { all, byHolder };
  }

  async addCouponUse(use: NewCouponUse): Promise<void> {
    await this.db
      .insertInto('coupon_holds')
      .values({
        owner: use.owner,
        code: couponKey(use.code),
        holder: use.holder,
        expires_at: use.expiresAt,
        released: 0,
        settled_at: null,
      })
      .execute();
  }

  async giveBack(by: string, now: number): Promise<Hold[]> {
    const rows = await this.db
      .updateTable('holds')
      .set({ released: 0, claimed_by: null })
      .where('claimed_by', '=', by)
      .where('expires_at', '>', now)
      .returningAll()
      .execute();
    return rows.map(toHold);
  }

  async claimedBy(by: string): Promise<Hold[]> {
    const rows = await this.db
      .selectFrom('holds')
      .selectAll()
      .where('claimed_by', '=', by)
      .orderBy('id')
      .execute();
    return rows.map(toHold);
  }

  async releaseLent(owner: string): Promise<number> {
    const result = await this.db
      .updateTable('holds')
      .set({ released: 1 })
      .where('owner', '=', owner)
      .where('quantity', '<', 0)
      .where('released', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async lentTo(owner: string, productKey: number, now: number): Promise<number> {
    const row = await this.db
      .selectFrom('holds')
      .select((eb) => eb.fn.sum<number>('quantity').as('lent'))
      .where('owner', '=', owner)
      .where('product_key', '=', productKey)
      .where('quantity', '<', 0)
      .where('released', '=', 0)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return -Number(row?.lent ?? 0);
  }
}

function toHold(row: Selectable<HoldsTable>): Hold {
  return {
    id: row.id,
    owner: row.owner,
    productKey: row.product_key,
    quantity: row.quantity,
    expiresAt: row.expires_at,
    released: row.released !== 0,
    sold: row.sold !== 0,
    claimToken: row.claim_token,
    claimedBy: row.claimed_by,
    settledAt: row.settled_at === null ? null : Number(row.settled_at),
  };
}
