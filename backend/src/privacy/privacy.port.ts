/**
 * The erasure of personal data (docs/privacy.md); the Kysely adapter is
 * `privacy.repository.ts`, the one repository that reaches every table holding personal data.
 */

/** What an erasure changed, per kind: counts only, so logs and reports carry no personal data. */
export interface ErasureCounts {
  /** Orders whose e-mail address and buyer name were erased (the order itself is kept). */
  orders: number;
  /** Tickets whose holder name was erased (the ticket is kept for the door's counts). */
  tickets: number;
  /** Check-ins and scans whose device name was erased. */
  scans: number;
  /** Stored mails deleted with their attachments (the embedded mailbox). */
  mails: number;
  contactMessages: number;
  /** Waiting-list entries deleted with their offers and mails. */
  waitlistEntries: number;
  /**
   * Addresses deleted from the reminders' list (rules "Reminders": the unsubscribe token
   * and whether it was used), once nothing else in the store names them.
   */
  reminderAddresses: number;
  /** The organizer's sessions of a WordPress account with the address (signed out). */
  organizerSessions: number;
}

/** Epoch ms before which each kind of personal data is no longer kept (docs/privacy.md). */
export interface RetentionCutoffs {
  /** Checkouts never paid, created before this. */
  unpaidCreatedBefore: number;
  /**
   * Paid orders whose last event started before this (without a dated event: paid before
   * it); scans received and mails stored before it.
   */
  afterEventBefore: number;
  contactCreatedBefore: number;
  /** Waiting-list entries for something without a date (those with one go the day after it). */
  undatedWaitlistCreatedBefore: number;
}

/** Erasure of personal data: by its age (the daily job) or by address (on request). */
export abstract class PrivacyRepository {
  abstract eraseExpired(cutoffs: RetentionCutoffs): Promise<ErasureCounts>;
  /** Everything kept for this address, in any case: orders and their tickets anonymised, the rest deleted. */
  abstract eraseAddress(email: string): Promise<ErasureCounts>;
}
