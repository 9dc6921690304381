/**
 * The waiting list's store port (rules "Waiting list"); the Kysely adapter is
 * `waitlist.repository.ts`; in a transaction, `tx.get(WaitlistRepository)`.
 */

/** rules "Waiting list": `pending` until the address is confirmed, then in the queue. */
export type WaitlistEntryStatus = 'pending' | 'confirmed' | 'offered';

export interface NewWaitlistEntry {
  id: string;
  productId: number;
  variationId: number | null;
  productKey: number;
  quantity: number;
  /** Lower-cased. */
  email: string;
  lineName: string;
  eventSlug: string | null;
  /** Epoch ms, or null when the catalog has no date. */
  startsAt: number | null;
  confirmToken: string;
  unsubscribeToken: string;
}

export interface WaitlistEntry extends NewWaitlistEntry {
  status: WaitlistEntryStatus;
  createdAt: number;
  confirmedAt: number | null;
  /**
   * The places that were on sale to everyone when the entry was confirmed and have been
   * free at every pass since (null: not measured yet). The entry waits for places that come
   * free beyond them; these stay on sale.
   */
  publicFree: number | null;
}

/** `active`: its hold keeps its places; `claimed`: a checkout's hold keeps them now. */
export type WaitlistOfferStatus = 'active' | 'claimed' | 'declined' | 'expired';

export interface WaitlistOffer {
  id: number;
  entryId: string;
  token: string;
  /** The hold with the offer's places; `productKey`, `quantity` and `expiresAt` are its. */
  holdId: number;
  productKey: number;
  quantity: number;
  expiresAt: number;
  status: WaitlistOfferStatus;
  createdAt: number;
}

/** Confirmed entries and active offers of one product or tier: counts only, no addresses. */
export interface WaitlistCount {
  productId: number;
  variationId: number | null;
  lineName: string;
  waiting: number;
  offered: number;
}

/** A stock unit somebody waits for, with the product and tier its stock is read from. */
export interface WaitedUnit {
  productKey: number;
  productId: number;
  variationId: number | null;
}

/**
 * rules "Waiting list": an entry was confirmed (published after the commit by the
 * repository), so the pass hears of it within seconds instead of at its next look.
 */
export const WAITLIST_CONFIRMED = 'waitlist.confirmed';

/** rules "Waiting list": entries, their offers and their mails. */
export abstract class WaitlistRepository {
  /** Inserts the entry unless the address already waits for this stock unit; returns the stored one. */
  abstract add(
    entry: NewWaitlistEntry,
    now: number,
  ): Promise<{ entry: WaitlistEntry; added: boolean }>;
  abstract findByConfirmToken(token: string): Promise<WaitlistEntry | undefined>;
  abstract findByUnsubscribeToken(token: string): Promise<WaitlistEntry | undefined>;
  abstract find(id: string): Promise<WaitlistEntry | undefined>;
  /**
   * `pending` → `confirmed` (into the queue), noting the places on sale at that moment
   * (null: not known, the next pass notes them); false when it was not pending.
   */
  abstract confirm(id: string, now: number, publicFree: number | null): Promise<boolean>;
  /** Confirmed entries ahead of this one in its queue. */
  abstract ahead(entry: WaitlistEntry): Promise<number>;
  /** Deletes the entry with its offers and mails (unsubscribe). */
  abstract remove(id: string): Promise<void>;
  /** Stock units with confirmed entries: the pass looks at nothing else. */
  abstract waitedUnits(): Promise<WaitedUnit[]>;
  /** The unit's confirmed entries, oldest confirmation first. */
  abstract queue(productKey: number): Promise<WaitlistEntry[]>;
  /**
   * The unit's confirmed entries' `publicFree` becomes at most `free` (the places free now):
   * a place taken since their confirmation, when it comes free again, is theirs to wait for.
   */
  abstract capPublicFree(productKey: number, free: number): Promise<void>;
  /**
   * A confirmed entry becomes `offered`, so that no other pass offers to it; false (nothing
   * written) when it is no longer confirmed.
   */
  abstract markOffered(entryId: string): Promise<boolean>;
  /** The offer of an entry `markOffered` took, its places kept by the hold `holdId`. */
  abstract createOffer(
    offer: Pick<WaitlistOffer, 'entryId' | 'token' | 'holdId'>,
    now: number,
  ): Promise<WaitlistOffer>;
  abstract findOffer(token: string): Promise<WaitlistOffer | undefined>;
  abstract findOfferById(id: number): Promise<WaitlistOffer | undefined>;
  /** The active offer of this hold becomes `claimed` (a checkout claimed its hold). */
  abstract markOfferClaimed(holdId: number): Promise<void>;
  /** The claimed offer of this hold becomes `active` again (its hold was given back). */
  abstract markOfferActive(holdId: number): Promise<void>;
  /** An active offer becomes `declined`; false otherwise. */
  abstract declineOffer(offerId: number): Promise<boolean>;
  /**
   * rules "Giving a ticket back": an active offer whose lent place was taken back becomes
   * `expired`, and its entry waits in the queue again (`confirmed`, its place in line kept);
   * false when the offer was not active.
   */
  abstract withdrawOffer(offerId: number): Promise<boolean>;
  /** Active offers whose hold lapsed become `expired`; returns how many. */
  abstract expireOffers(now: number): Promise<number>;
  abstract counts(now: number): Promise<WaitlistCount[]>;
  /** Deletes entries (offers, mails) of events that started before `cutoff`; returns how many. */
  abstract removeStartedBefore(cutoff: number): Promise<number>;
}
