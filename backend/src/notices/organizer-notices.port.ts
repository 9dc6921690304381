import { createHash } from 'node:crypto';
import { JobRepository } from '../jobs/jobs.port.js';
import type { Transaction } from '../store/store.port.js';

/**
 * docs/ledger.md "Told to the organizer": what the site cannot settle alone and the
 * organizer must look at, on the dashboard and by mail.
 * `placesNotRestocked`: an order of the site was cancelled, refunded or trashed in the shop,
 * its tickets are revoked, but with SHOP_RESTOCK=off its places stay out of the shop's stock
 * until the organizer puts them back there.
 * `checkedInRevoked`: a refund in the shop took a ticket whose guest was already let in.
 */
export type OrganizerNoticeKind = 'placesNotRestocked' | 'checkedInRevoked';

export interface OrganizerNoticeFacts {
  kind: OrganizerNoticeKind;
  /** The site's order (or `shop_<id>` for an order made in the shop). */
  orderId: string;
  /** The order's number in the shop, when it has one there. */
  shopOrder: string | null;
  /** What it is about, as the organizer reads it: "2 × Sommer-Afterwork – VIP". No names. */
  items: string[];
}

export interface OrganizerNotice extends OrganizerNoticeFacts {
  id: string;
  createdAt: number;
  /** When the organizer marked it done; null while open. */
  doneAt: number | null;
}

export const ORGANIZER_NOTICE_JOB = 'organizer-notice';

export interface OrganizerNoticePayload {
  noticeId: string;
}

/** The notices' store port; the Kysely adapter is `organizer-notice.repository.ts`. */
export abstract class OrganizerNoticeRepository {
  /** Stores the notice unless one with its id exists; true when it is new. */
  abstract add(notice: OrganizerNotice): Promise<boolean>;
  abstract find(id: string): Promise<OrganizerNotice | undefined>;
  /** Open notices, newest first. */
  abstract open(limit: number): Promise<OrganizerNotice[]>;
  /** Marks one done; false when there is no open notice of that id. */
  abstract done(id: string, now: number): Promise<boolean>;
  /** Forgets notices marked done before `before`. */
  abstract purgeDone(before: number): Promise<number>;
}

/**
 * Raises a notice in the caller's transaction, once per `key` (a repeated webhook or job
 * raises nothing new), and queues its mail to ORGANIZER_EMAIL in the same transaction.
 */
export async function raiseOrganizerNotice(
  tx: Transaction,
  facts: OrganizerNoticeFacts,
  key: string,
  now: number,
): Promise<boolean> {
  const id = createHash('sha256')
    .update(`${facts.kind}:${facts.orderId}:${key}`)
    .digest('base64url')
    .slice(0, 22);
  const added = await tx
    .get(OrganizerNoticeRepository)
    .add({ ...facts, id, createdAt: now, doneAt: null });
  if (!added) return false;
  await tx.get(JobRepository).enqueue(
    {
      name: ORGANIZER_NOTICE_JOB,
      key: id,
      subject: facts.orderId,
      payload: { noticeId: id } satisfies OrganizerNoticePayload,
    },
    now,
  );
  return true;
}
