/**
 * The store port of the organizer's mails to every holder (rules "The organizer"); the
 * Kysely adapter is `organizer-mail.repository.ts`. A mail and its recipients are written
 * in one transaction with their jobs: `tx.get(OrganizerMailRepository)`.
 */

export interface NewOrganizerMail {
  id: string;
  /** The page's id for this sending: a repeat of it finds this mail instead of a second. */
  sendId: string;
  eventId: number;
  eventName: string;
  /** ISO 8601, or null. */
  startsAt: string | null;
  subject: string;
  body: string;
  /**
   * One valid ticket per address: its holder's address is read when the mail goes out, so
   * no address is copied here.
   */
  ticketIds: readonly string[];
}

export interface StoredOrganizerMail {
  id: string;
  eventId: number;
  eventName: string;
  startsAt: string | null;
  subject: string;
  body: string;
  /** Epoch ms. */
  createdAt: number;
  recipients: number;
  /** Accepted by the mail server so far. */
  sent: number;
}

export interface OrganizerMailRecipient {
  /** Epoch ms; null until the mail server accepted this recipient's mail. */
  sentAt: number | null;
  /** The ticket's address now (its holder's, else its order's); null once erased. */
  email: string | null;
}

export abstract class OrganizerMailRepository {
  abstract findBySendId(sendId: string): Promise<StoredOrganizerMail | undefined>;
  abstract find(id: string): Promise<StoredOrganizerMail | undefined>;
  /** Inserts the mail and a recipient row per ticket. */
  abstract create(mail: NewOrganizerMail, now: number): Promise<void>;
  /** The event's mails, newest first. */
  abstract forEvent(eventId: number): Promise<StoredOrganizerMail[]>;
  abstract recipient(mailId: string, ticketId: string): Promise<OrganizerMailRecipient | undefined>;
  /** Sent, unless it was marked so before. */
  abstract markSent(mailId: string, ticketId: string, now: number): Promise<void>;
}
