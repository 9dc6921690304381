import type { Places } from './capacity.js';

/**
 * rules "Capacity": places of one stock unit held until `expiresAt` by an owner: an order's
 * checkout (the owner is the order id) or a waiting-list offer (the owner is the entry id).
 * A hold counts against the stock while it is neither released nor lapsed.
 */
export interface Hold extends Places {
  id: number;
  /** Who holds the places; opaque to the holds module. */
  owner: string;
  /** Epoch ms; the hold no longer counts from then on. */
  expiresAt: number;
  /** Given back (canceled, refunded, declined) or claimed by another owner. */
  released: boolean;
  /**
   * A sale took the places for good (the order is paid): the hold only bridges the time
   * until the catalog's stock counts them.
   */
  sold: boolean;
  /**
   * When the shop confirmed the sale (epoch ms), or null: from then on the shop's stock
   * carries it, and the hold counts only against stock read before (docs/ledger.md).
   */
  settledAt: number | null;
  /** The token that lets another owner claim the places (an offer's link), or null. */
  claimToken: string | null;
  /** The owner that claimed the hold; its own hold counts instead while this one is released. */
  claimedBy: string | null;
}

export interface NewHold extends Places {
  owner: string;
  expiresAt: number;
  claimToken?: string | null;
}

/**
 * rules "Coupons": one use of a coupon held by an owner (an order's id) until `expiresAt`,
 * so checkouts that run at the same time never use a coupon more often than the shop allows
 * (docs/decisions/0013-coupon-uses-are-held.md).
 */
export interface NewCouponUse {
  owner: string;
  /** The coupon's code in any spelling; kept as WooCommerce keeps it (trimmed, lower case). */
  code: string;
  /** Who uses it: a key of the buyer's address (never the address), or null when unknown. */
  holder: string | null;
  expiresAt: number;
}

/** Uses of one coupon held now: by every owner, and by those of one holder. */
export interface HeldCouponUses {
  all: number;
  byHolder: number;
}

/** Which holds a sum leaves out: an owner's own (a late payment), or the hold being claimed. */
export interface HeldExcept {
  owner?: string;
  holdId?: number;
}

/**
 * The holds' store port (docs/decisions/0010-holds.md): the capacity lock, the sums the
 * capacity checks read, and the holds' changes; and the coupons' uses an owner holds beside
 * its places (docs/decisions/0013-coupon-uses-are-held.md), with their lock and count.
 * Bound to one write transaction as `Transaction.holds`, or read outside one through the
 * injected port.
 */
export abstract class HoldRepository {
  /**
   * Serialises writers of these stock units until the transaction ends, so a capacity
   * check and the hold it allows cannot interleave with another's.
   */
  abstract lockCapacity(productKeys: readonly number[]): Promise<void>;
  /**
   * Places per stock unit held now (neither released nor lapsed) beside stock the shop
   * reported at `readAt` (`StockUnit.readAt`), leaving out `except`. A settled sale counts
   * only when the shop confirmed it after `readAt`: before, that stock carries it already
   * (docs/ledger.md, "A sale counts once").
   */
  abstract heldByKey(
    productKeys: readonly number[],
    now: number,
    readAt: number,
    except?: HeldExcept,
  ): Promise<Map<number, number>>;
  /** Inserts the holds, each counting until its `expiresAt`; returns them with their ids. */
  abstract add(holds: readonly NewHold[]): Promise<Hold[]>;
  abstract find(id: number): Promise<Hold | undefined>;
  abstract findByClaimToken(token: string): Promise<Hold | undefined>;
  /** The owner's places, one entry per hold. */
  abstract placesOf(owner: string): Promise<Places[]>;
  /** Whether every hold of the owner still counts (neither released nor lapsed). */
  abstract isHeld(owner: string, now: number): Promise<boolean>;
  /**
   * The owner's holds, its places and its coupon use, count (again) until `until`; `sold`
   * marks its places sold (never unmarks).
   */
  abstract keep(owner: string, until: number, sold?: boolean): Promise<void>;
  /**
   * The shop confirmed the owner's sale at `at` (the hand-off's answer): its holds and its
   * coupon use count only beside stock and coupons read before `at`, and are gone for good
   * after `until` (when no answer read before `at` can be served any more).
   */
  abstract settle(owner: string, at: number, until: number): Promise<void>;
  /** The owner's holds, its places and its coupon use, are released. */
  abstract release(owner: string): Promise<void>;
  /** One hold is released (an offer declined). */
  abstract releaseHold(holdId: number): Promise<void>;
  /** A hold that counts (neither released nor lapsed) is released to `by`; false otherwise. */
  abstract claim(holdId: number, by: string, now: number): Promise<boolean>;
  /** The holds `by` claimed that have not lapsed count again for their owners; returns them. */
  abstract giveBack(by: string, now: number): Promise<Hold[]>;
  /** The holds `by` claimed (released to it). */
  abstract claimedBy(by: string): Promise<Hold[]>;
  /**
   * The owner's lent places (holds of fewer than 0 places, see `Holds.lend`) are released;
   * returns how many holds that were.
   */
  abstract releaseLent(owner: string): Promise<number>;
  /** Places of the unit lent to the owner now (its holds below 0 that count), as a positive number. */
  abstract lentTo(owner: string, productKey: number, now: number): Promise<number>;
  /**
   * Serialises the uses of this coupon until the transaction ends, so the count of its held
   * uses and the use it allows cannot interleave with another checkout's.
   */
  abstract lockCouponUses(code: string): Promise<void>;
  /**
   * Uses of the coupon held now (neither released nor lapsed) beside the coupon as the shop
   * reported it at `readAt` (a settled use only when confirmed after); `byHolder` 0 without
   * a holder.
   */
  abstract couponUsesHeld(
    code: string,
    holder: string | null,
    now: number,
    readAt: number,
  ): Promise<HeldCouponUses>;
  abstract addCouponUse(use: NewCouponUse): Promise<void>;
}

/** WooCommerce keeps a coupon's code trimmed and in lower case (`wc_format_coupon_code`). */
export function couponKey(code: string): string {
  return code.trim().toLowerCase();
}
