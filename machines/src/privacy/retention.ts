/**
 * How long the store keeps personal data (docs/privacy.md; DSGVO Art. 5(1)(e)): the daily
 * erasure job and the privacy page (/datenschutz) both read these, so the page always
 * states what the job does.
 */
export interface RetentionPeriods {
  /** Checkouts never paid (open, expired, canceled): their e-mail and name, from creation. */
  unpaidCheckoutDays: number;
  /**
   * Paid orders' buyer and ticket holders, scans' device names and stored mails, after the
   * order's last event (PERSONAL_DATA_DAYS_AFTER_EVENT). WooCommerce keeps the order for the
   * books.
   */
  personalDataDaysAfterEvent: number;
  /** Contact messages, from their arrival. */
  contactMessageDays: number;
}

export const UNPAID_CHECKOUT_RETENTION_DAYS = 7;
export const CONTACT_MESSAGE_RETENTION_DAYS = 90;
export const DEFAULT_PERSONAL_DATA_DAYS_AFTER_EVENT = 90;
/** Longest PERSONAL_DATA_DAYS_AFTER_EVENT accepted: ten years, the longest duty to keep books. */
export const MAX_PERSONAL_DATA_DAYS_AFTER_EVENT = 3650;

export const DAY_MS = 86_400_000;

export function retentionPeriods(
  personalDataDaysAfterEvent: number = DEFAULT_PERSONAL_DATA_DAYS_AFTER_EVENT,
): RetentionPeriods {
  return {
    unpaidCheckoutDays: UNPAID_CHECKOUT_RETENTION_DAYS,
    personalDataDaysAfterEvent,
    contactMessageDays: CONTACT_MESSAGE_RETENTION_DAYS,
  };
}
