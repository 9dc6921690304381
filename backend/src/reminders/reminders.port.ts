/** A valid ticket as a reminder needs it, with the address it goes to. */
export interface ReminderTicket {
  id: string;
  orderId: string;
  eventId: number;
  eventName: string;
  startsAt: string;
  venue: string | null;
  tier: string | null;
  holder: string | null;
  seat: number;
  generation: number;
  issuedAt: number;
  /** The holder's address if the ticket was passed on, else the buyer's; lower-case. */
  email: string;
}

/** The store's side of rules "Reminders"; the Kysely adapter is `reminders.repository.ts`. */
export abstract class ReminderRepository {
  /** Valid tickets with an address whose event starts at or after `fromIso` (ISO, UTC). */
  abstract validTicketsFrom(fromIso: string): Promise<ReminderTicket[]>;
  /** The valid tickets among these ids (a revoked or passed-on one drops out). */
  abstract validTickets(ids: readonly string[]): Promise<ReminderTicket[]>;
  /** Addresses among these that followed an unsubscribe link. */
  abstract unsubscribed(emails: readonly string[]): Promise<Set<string>>;
  /** The address's unsubscribe token, made on its first reminder. */
  abstract tokenFor(email: string, token: string, now: number): Promise<string>;
  /** Stops both kinds for the token's address; false for an unknown token. */
  abstract unsubscribe(token: string, now: number): Promise<boolean>;
}
