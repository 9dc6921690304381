import { EventEmitter2 } from '@nestjs/event-emitter';
import type { CatalogProduct, CatalogVariation } from '../../src/catalog/catalog.port.js';
import type { CapacityLine } from '../../src/holds/capacity.js';
import { type ClaimChange, Holds, PLACES_RELEASED } from '../../src/holds/holds.js';
import { findStockUnit } from '../../src/holds/stock-unit.js';
import { InMemoryStore } from '../support/in-memory-store.js';
import { HoldRepository } from '../../src/holds/holds.port.js';

// The holds module over the in-memory store (rules "Capacity", docs/decisions/0010-holds.md).

const HOUR = 3_600_000;

function variation(id: number, extra: Partial<CatalogVariation> = {}): CatalogVariation {
  return {
    id,
    attributes: [{ name: 'Ticket', option: `Tier ${id}` }],
    price: 30,
    regular_price: 30,
    sale_price: null,
    on_sale: false,
    stock_quantity: 4,
    stock_status: 'instock',
    sharesParentStock: false,
    purchasable: true,
    image: null,
    ...extra,
  };
}

const products = [
  { id: 1, name: 'Einfach', stock_quantity: 7, stock_status: 'instock' },
  { id: 2, name: 'Ohne Bestand', stock_quantity: null, stock_status: 'instock' },
  { id: 3, name: 'Ausverkauft', stock_quantity: 9, stock_status: 'outofstock' },
  {
    id: 4,
    name: 'Mit Stufen',
    type: 'variable',
    stock_quantity: 20,
    stock_status: 'instock',
    variants: [variation(41), variation(42, { sharesParentStock: true, stock_quantity: 20 })],
  },
] as unknown as CatalogProduct[];

describe('findStockUnit (rules "Everything the shop sells")', () => {
  it('a product draws from its own stock; unmanaged is unlimited, out of stock is 0', () => {
    expect(findStockUnit(products, 1, null)).toMatchObject({ productKey: 1, stock: 7 });
    expect(findStockUnit(products, 2, null)).toMatchObject({ productKey: 2, stock: null });
    expect(findStockUnit(products, 3, null)).toMatchObject({ productKey: 3, stock: 0 });
  });

  it('a variation draws from its own stock, or from the parent’s when it shares it', () => {
    const own = findStockUnit(products, 4, 41);
    expect(own).toMatchObject({ productKey: 41, stock: 4 });
    expect(own?.variation?.id).toBe(41);
    expect(findStockUnit(products, 4, 42)).toMatchObject({ productKey: 4, stock: 20 });
    expect(findStockUnit(products, 4, null)).toMatchObject({ productKey: 4, variation: null });
  });

  it('a product or variation the catalog does not list has no stock unit', () => {
    expect(findStockUnit(products, 99, null)).toBeUndefined();
    expect(findStockUnit(products, 4, 49)).toBeUndefined();
  });
});

describe('Holds', () => {
  const line = (quantity: number, stock: number | null = 2): CapacityLine => ({
    productKey: 1,
    stock,
    quantity,
    readAt: 0,
  });

  function setUp() {
    const store = new InMemoryStore();
    const holds = new Holds(new EventEmitter2());
    const changes: ClaimChange['change'][] = [];
    holds.onClaimChange(async (_tx, change) => {
      changes.push(change.change);
    });
    const take = (owner: string, quantity: number, claimToken?: string) =>
      store.write((tx) =>
        holds.take(tx, {
          owner,
          lines: [line(quantity)],
          until: Date.now() + HOUR,
          claimToken,
          now: Date.now(),
        }),
      );
    /** A hold of `quantity` places for `owner`, claimable with `token` (an offer's). */
    const claimable = (
      owner: string,
      quantity: number,
      token: string,
      expiresAt = Date.now() + HOUR,
    ) => store.holds.add([{ owner, productKey: 1, quantity, expiresAt, claimToken: token }]);
    return { store, holds, changes, take, claimable, data: store.data };
  }

  it('takes the places under the capacity lock, or tells what is left and writes nothing', async () => {
    const f = setUp();
    expect(await f.take('ord_a', 2)).toEqual({ shortages: [] });
    expect(await f.take('ord_b', 1)).toEqual({ shortages: [{ line: line(1), available: 0 }] });
    expect(f.data.holds.map((h) => [h.owner, h.quantity])).toEqual([['ord_a', 2]]);
    expect(f.data.capacityLocks).toEqual([[1], [1]]);
  });

  it('a claim token frees its hold for the claimer alone, and the holder hears of the claim', async () => {
    const f = setUp();
    await f.claimable('wl_a', 2, 'token-a');
    expect((await f.take('ord_other', 1)).shortages).toHaveLength(1);
    expect((await f.take('ord_a', 1, 'token-wrong')).shortages).toHaveLength(1);
    expect(await f.take('ord_a', 1, 'token-a')).toEqual({ shortages: [] });
    expect(f.data.holds.find((h) => h.owner === 'wl_a')).toMatchObject({
      released: true,
      claimedBy: 'ord_a',
    });
    expect(f.changes).toEqual(['claimed']);
    // The place the claimer did not take is free for anyone; the token opens nothing twice.
    expect(await f.take('ord_other', 1)).toEqual({ shortages: [] });
    expect((await f.take('ord_b', 1, 'token-a')).shortages).toHaveLength(1);
  });

  it('a lapsed claimable hold changes nothing', async () => {
    const f = setUp();
    await f.claimable('wl_a', 2, 'token-a', Date.now() - 1);
    expect(await f.take('ord_a', 2, 'token-a')).toEqual({ shortages: [] });
    expect(f.data.holds.find((h) => h.owner === 'wl_a')?.claimedBy).toBeNull();
    expect(f.changes).toEqual([]);
  });

  it('released unsold, the claimed hold counts again for its owner; released after a sale, it does not', async () => {
    const f = setUp();
    await f.claimable('wl_a', 1, 'token-a');
    await f.take('ord_a', 1, 'token-a');
    await f.store.write((tx) => f.holds.release(tx, 'ord_a', Date.now(), { giveBackClaims: true }));
    expect(f.data.holds.find((h) => h.owner === 'wl_a')).toMatchObject({
      released: false,
      claimedBy: null,
    });
    expect(f.changes).toEqual(['claimed', 'givenBack']);

    await f.take('ord_b', 1, 'token-a');
    await f.store.write((tx) =>
      f.holds.release(tx, 'ord_b', Date.now(), { giveBackClaims: false }),
    );
    expect(f.data.holds.find((h) => h.owner === 'wl_a')).toMatchObject({
      released: true,
      claimedBy: 'ord_b',
    });
    expect(f.changes).toEqual(['claimed', 'givenBack', 'claimed']);
  });

  it('a settled sale counts beside stock read before the shop confirmed it, never beside stock read after (docs/ledger.md "A sale counts once")', async () => {
    const f = setUp();
    await f.take('ord_a', 1);
    await f.take('ord_b', 1);
    await f.store.write((tx) => tx.get(HoldRepository).keep('ord_a', Date.now() + HOUR, true));
    const settledAt = Date.now();
    await f.store.write((tx) => f.holds.settle(tx, 'ord_a', settledAt));
    // Stock read before the shop's answer does not carry ord_a's sale: its hold counts.
    expect(await f.store.holds.heldByKey([1], Date.now(), settledAt - 1)).toEqual(
      new Map([[1, 2]]),
    );
    // Stock read at or after it does: only ord_b's open checkout counts.
    expect(await f.store.holds.heldByKey([1], Date.now(), settledAt)).toEqual(new Map([[1, 1]]));
    // Settling again keeps the first answer's moment.
    await f.store.write((tx) => f.holds.settle(tx, 'ord_a', settledAt + 5_000));
    expect(f.data.holds.find((h) => h.owner === 'ord_a')?.settledAt).toBe(settledAt);
  });

  it('a lapsed owner fits again only into what others left', async () => {
    const f = setUp();
    await f.take('ord_a', 1);
    await f.take('ord_b', 1);
    await f.store.write((tx) => tx.get(HoldRepository).keep('ord_a', Date.now() + HOUR, true));
    const stock = new Map([[1, 2]]);
    for (const h of f.data.holds.filter((h) => h.owner === 'ord_b')) h.expiresAt = Date.now() - 1;
    expect(await f.store.write((tx) => f.holds.fitAgain(tx, 'ord_b', stock, 0, Date.now()))).toBe(
      true,
    );
    await f.take('ord_c', 1);
    expect(await f.store.write((tx) => f.holds.fitAgain(tx, 'ord_b', stock, 0, Date.now()))).toBe(
      false,
    );
  });

  it("tells its listeners when the shop's stock has places again", () => {
    const events = new EventEmitter2();
    const holds = new Holds(events);
    let told = 0;
    events.on(PLACES_RELEASED, () => (told += 1));
    holds.shopStockReturned();
    expect(told).toBe(1);
  });
});
