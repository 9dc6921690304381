import { Inject, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { Transaction } from '../store/store.port.js';
import { type CapacityLine, fitsAgain, shortagesOf, wantedByKey } from './capacity.js';
import { type HeldCouponUses, type Hold, HoldRepository, type NewCouponUse } from './holds.port.js';
import { STALE_IF_ERROR_MS } from '../catalog/catalog-cache.js';

/** A settled hold outlives the oldest catalog answer any process may still serve by this much. */
const SETTLED_MARGIN_MS = 60 * 60 * 1000;

/**
 * When the shop was asked for the stock of these lines: the earliest of them, so a sale
 * confirmed in between counts (at worst once too often until the next read, never once too
 * few).
 */
export function readAtOf(lines: readonly { readAt: number }[]): number {
  return lines.length === 0 ? 0 : Math.min(...lines.map((l) => l.readAt));
}

/**
 * The event published after the commit of a transaction that released holds (or claimed
 * one whose places may be more than the claimer took): places may have come free. The
 * waiting list's pass listens (`@OnEvent(PLACES_RELEASED)`).
 */
export const PLACES_RELEASED = 'places.released';

/** A hold claimed by another owner, or given back to its own. */
export interface ClaimChange {
  hold: Hold;
  /** The owner that claimed the hold (or gives it back). */
  by: string;
  /**
   * `claimed`: another owner took it over for a sale; `givenBack`: that owner gave up
   * unsold and it counts for its own owner again; `sold`: that owner's sale took the
   * places for good.
   */
  change: 'claimed' | 'givenBack' | 'sold';
}

/** Runs in the transaction that changed the claim, so the holder's own records change with it. */
export type ClaimListener = (tx: Transaction, change: ClaimChange) => Promise<void>;

export interface TakeRequest<L extends CapacityLine> {
  owner: string;
  lines: readonly L[];
  /** Epoch ms until which the new holds count. */
  until: number;
  /**
   * A token the owner presents to claim a hold somebody keeps for it (rules "Waiting list":
   * an offer's link). Opaque here; an unknown, used or lapsed token changes nothing.
   */
  claimToken?: string | null;
  now: number;
}

/**
 * rules "Capacity": places are held, and every hold expires (docs/decisions/0003,
 * docs/decisions/0010-holds.md). Taking places for an owner under the capacity lock,
 * claiming a hold with its token, giving places back; and the two notices its users
 * listen to: a claim that changed (in the transaction, through the listeners its owner
 * registers) and places that came free (the `places.released` event after the commit,
 * published by the holds' repository, or by `shopStockReturned`). rules "Coupons": a checkout's coupon use is
 * held the same way, under its own lock (docs/decisions/0013-coupon-uses-are-held.md).
 */
@Injectable()
export class Holds {
  private readonly claimListeners: ClaimListener[] = [];

  constructor(@Inject(EventEmitter2) private readonly events: EventEmitter2) {}

  onClaimChange(listener: ClaimListener): void {
    this.claimListeners.push(listener);
  }

  /**
   * The shop's stock has places again (a refund or restock there, no transaction of the
   * store): whoever waits for places hears of it now. Places freed in the store are
   * published by `HoldRepository` after their transaction's commit.
   */
  shopStockReturned(): void {
    this.events.emit(PLACES_RELEASED);
  }

  /**
   * Under the capacity lock of the lines' limited stock units: holds the places the lines
   * want for `owner` until `until`, or answers which lines do not fit (nothing written). A
   * hold claimable with `claimToken` counts as free for this owner alone, and is claimed.
   */
  async take<L extends CapacityLine>(
    tx: Transaction,
    request: TakeRequest<L>,
  ): Promise<{ shortages: { line: L; available: number }[] }> {
    const { owner, lines, now } = request;
    const limited = lines.filter((l) => l.stock !== null).map((l) => l.productKey);
    await tx.get(HoldRepository).lockCapacity(limited);
    // Read under the same lock as the sums, so nobody else claims it meanwhile.
    const found = request.claimToken
      ? await tx.get(HoldRepository).findByClaimToken(request.claimToken)
      : undefined;
    const claimable =
      found && !found.released && found.expiresAt > now && limited.includes(found.productKey)
        ? found
        : undefined;
    const held = await tx
      .get(HoldRepository)
      .heldByKey(limited, now, readAtOf(lines), { holdId: claimable?.id });
    if (claimable) {
      // rules "Giving a ticket back": a place a returned ticket lent to the offer exists
      // whatever the sums say meanwhile: its claimer always gets it.
      const lent = await tx.get(HoldRepository).lentTo(claimable.owner, claimable.productKey, now);
      const stock = lines.find((l) => l.productKey === claimable.productKey)?.stock;
      if (lent > 0 && typeof stock === 'number') {
        held.set(claimable.productKey, Math.min(held.get(claimable.productKey) ?? 0, stock - lent));
      }
    }
    const shortages = shortagesOf(lines, held);
    if (shortages.length > 0) return { shortages };
    await tx
      .get(HoldRepository)
      .add(wantedByKey(lines).map((places) => ({ ...places, owner, expiresAt: request.until })));
    // From here the owner's own hold keeps the places; should it be given up unsold, the
    // claimed hold counts again (see `release`).
    if (claimable && (await tx.get(HoldRepository).claim(claimable.id, owner, now))) {
      await this.tell(tx, { hold: claimable, by: owner, change: 'claimed' });
    }
    return { shortages: [] };
  }

  /**
   * The owner's holds are released. With `giveBackClaims` (the owner gave up before its
   * sale: a checkout canceled or lapsed unpaid), the holds it claimed count again for
   * their owners until they run out.
   */
  async release(
    tx: Transaction,
    owner: string,
    now: number,
    options: { giveBackClaims: boolean },
  ): Promise<void> {
    await tx.get(HoldRepository).release(owner);
    if (!options.giveBackClaims) return;
    for (const hold of await tx.get(HoldRepository).giveBack(owner, now)) {
      await this.tell(tx, { hold, by: owner, change: 'givenBack' });
    }
  }

  /**
   * The owner's places count until `until`; with `sold`, its sale took them for good, and
   * whoever keeps a hold it claimed hears so (`sold` in `onClaimChange`), in this
   * transaction.
   */
  async keep(
    tx: Transaction,
    owner: string,
    until: number,
    options: { sold: boolean },
  ): Promise<void> {
    await tx.get(HoldRepository).keep(owner, until, options.sold);
    if (!options.sold) return;
    for (const hold of await tx.get(HoldRepository).claimedBy(owner)) {
      await this.tell(tx, { hold, by: owner, change: 'sold' });
    }
  }

  /**
   * rules "Giving a ticket back": a place somebody gave back is lent to `owner` (a
   * waiting-list entry) beside the hold of its offer: a hold of minus `quantity` places,
   * counting until the same time. The two cancel out in every sum, so nobody but the
   * offer's claimer sees the lent place as free (its claim leaves the offer's hold out of
   * the sum and keeps the lent one in). Released with `releaseLent` once the place is
   * bought or taken back (docs/decisions/0020-a-returned-ticket-lends-its-place.md).
   */
  async lend(
    tx: Transaction,
    lent: { owner: string; productKey: number; quantity: number; expiresAt: number },
  ): Promise<void> {
    if (lent.quantity <= 0) return;
    await tx.get(HoldRepository).add([{ ...lent, quantity: -lent.quantity }]);
  }

  /**
   * rules "Capacity": whether the owner's places, its holds having lapsed, still fit into
   * what others have not held meanwhile (`stock` per stock unit, null = unlimited, as the
   * shop reported it at `readAt`). Takes the capacity lock of those units.
   */
  async fitAgain(
    tx: Transaction,
    owner: string,
    stock: ReadonlyMap<number, number | null>,
    readAt: number,
    now: number,
  ): Promise<boolean> {
    const own = await tx.get(HoldRepository).placesOf(owner);
    const keys = own.map((p) => p.productKey);
    await tx.get(HoldRepository).lockCapacity(keys);
    const held = await tx.get(HoldRepository).heldByKey(keys, now, readAt, { owner });
    return fitsAgain(own, stock, held);
  }

  /**
   * docs/ledger.md "A sale counts once": the shop confirmed the owner's sale at `at`, so its
   * stock (and the coupon's use count) carries it from then on. The holds count only beside
   * answers read before `at`, and go once no such answer can be served any more.
   */
  async settle(tx: Transaction, owner: string, at: number): Promise<void> {
    await tx.get(HoldRepository).settle(owner, at, at + STALE_IF_ERROR_MS + SETTLED_MARGIN_MS);
  }

  /**
   * rules "Coupons": under the coupon's lock, the uses of it that others hold now (open
   * checkouts, and paid orders until the shop has counted them), all of them and the
   * holder's. The lock lasts until the transaction ends, so the check the caller makes and
   * the use it then holds (`holdCouponUse`) cannot interleave with another checkout's.
   */
  async couponUsesHeld(
    tx: Transaction,
    code: string,
    holder: string | null,
    now: number,
    readAt: number,
  ): Promise<HeldCouponUses> {
    await tx.get(HoldRepository).lockCouponUses(code);
    return tx.get(HoldRepository).couponUsesHeld(code, holder, now, readAt);
  }

  /**
   * One use of the coupon held for its owner until `expiresAt`; it is kept and released with
   * the owner's places (`HoldRepository.keep`, `release`). Call under the lock of
   * `couponUsesHeld`, in the same transaction.
   */
  async holdCouponUse(tx: Transaction, use: NewCouponUse): Promise<void> {
    await tx.get(HoldRepository).addCouponUse(use);
  }

  private async tell(tx: Transaction, change: ClaimChange): Promise<void> {
    for (const listener of this.claimListeners) await listener(tx, change);
  }
}
