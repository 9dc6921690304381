import { type Selectable, sql } from 'kysely';
import type { StoreDb, StoreKind } from '../store/store.database.js';
import type { ShopOrdersTable } from '../store/store.schema.js';
import {
  type ShopOrder,
  ShopOrderRepository,
  ShopSweepRepository,
  type SweepState,
} from './shop.port.js';

/** rules "Orders made in the shop": the shop's orders over SQLite or PostgreSQL. */
export class KyselyShopOrderRepository extends ShopOrderRepository {
  constructor(
    private readonly db: StoreDb,
    private readonly kind: StoreKind,
  ) {
    super();
  }

  /**
   * PostgreSQL runs transactions side by side, and the first report of an order has no
   * row to lock yet: a transaction-scoped lock on the order's id makes two reports of one
   * order (a delivery and the sweep) queue. SQLite's write transaction already does.
   */
  async lock(id: string): Promise<ShopOrder | undefined> {
    if (this.kind === 'postgres') {
      await sql`select pg_advisory_xact_lock(hashtext(${`shop-order:${id}`}))`.execute(this.db);
    }
    return this.find(id);
  }

  async find(id: string): Promise<ShopOrder | undefined> {
    const row = await this.db
      .selectFrom('shop_orders')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toShopOrder(row) : undefined;
  }

  async save(order: ShopOrder, now: number): Promise<void> {
    const values = {
      number: order.number,
      status: order.status,
      modified_at: order.modifiedAt,
      email: order.email,
      holder: order.holder,
      total: order.total,
      updated_at: now,
    };
    await this.db
      .insertInto('shop_orders')
      .values({ id: order.id, ...values, created_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .execute();
  }

  async idsOfEmail(email: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('shop_orders')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }
}

function toShopOrder(row: Selectable<ShopOrdersTable>): ShopOrder {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    modifiedAt: Number(row.modified_at),
    email: row.email,
    holder: row.holder,
    total: Number(row.total),
  };
}

export class KyselyShopSweepRepository extends ShopSweepRepository {
  constructor(private readonly db: StoreDb) {
    super();
  }

  async state(name: string): Promise<SweepState> {
    const row = await this.db
      .selectFrom('shop_order_sweeps')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst();
    return {
      highWater: row?.high_water == null ? null : Number(row.high_water),
      lastRunAt: row?.last_run_at == null ? null : Number(row.last_run_at),
      lastRead: Number(row?.last_read ?? 0),
      lastApplied: Number(row?.last_applied ?? 0),
      lastError: row?.last_error ?? null,
    };
  }

  async recordRun(
    name: string,
    run: Omit<SweepState, 'highWater'>,
    highWater: number | null,
  ): Promise<void> {
    const values = {
      last_run_at: run.lastRunAt,
      last_read: run.lastRead,
      last_applied: run.lastApplied,
      last_error: run.lastError === null ? null : run.lastError.slice(0, 500),
    };
    await this.db
      .insertInto('shop_order_sweeps')
      .values({ name, high_water: highWater, ...values })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet((eb) => ({
          ...values,
          // Forward only: max() of the stored mark and this run's (null keeps the stored one).
          high_water: eb
            .case()
            .when(eb.ref('shop_order_sweeps.high_water'), 'is', null)
            .then(eb.ref('excluded.high_water'))
            .when(eb.ref('excluded.high_water'), 'is', null)
            .then(eb.ref('shop_order_sweeps.high_water'))
            .when(eb.ref('excluded.high_water'), '>', eb.ref('shop_order_sweeps.high_water'))
            .then(eb.ref('excluded.high_water'))
            .else(eb.ref('shop_order_sweeps.high_water'))
            .end(),
        })),
      )
      .execute();
  }
}
