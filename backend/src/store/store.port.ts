import type { OrderContext, OrderStatus, TicketStatus } from '@awhh/machines';
import type { HoldRepository } from '../holds/hold.repository.js';

/**
 * The store port (docs/architecture.md, "Ports and adapters": orders, webhook events, contact
 * messages; the holds' port is `holds/hold.repository.ts`). Services depend on these
 * abstract classes only; `repositories/` holds the Kysely adapters over SQLite or
 * PostgreSQL, the only place with SQL besides the migrations.
 */

/** An order as the order machine sees it (`status` + `context`) with what the checkout recorded beside. */
export interface Order {
  id: string;
  /** The provider's session id; the order's own id when free; null until the provider opened one. */
  sessionId: string | null;
  /** `stripe`, `test`, or `none` for an order paid at creation. */
  provider: string;
  status: OrderStatus;
  context: OrderContext;
  /** The catalog's spelling of the coupon; the hand-off sends this one. */
  couponCode: string | null;
  /** The coupon as the visitor typed it; pages show this one (rules "Everything the shop sells"). */
  couponEntered: string | null;
  currency: string;
  paymentMethod: string;
  successUrl: string;
  cancelUrl: string;
  createdAt: number;
  /** When the payment session and its hold end (rules "Capacity"). */
  expiresAt: number;
  paidAt: number | null;
}

export interface OrderLine {
  productId: number;
  variationId: number | null;
  name: string;
  image: string | null;
  quantity: number;
  /** Integer cents. */
  unitAmount: number;
}

export interface NewOrder {
  order: Order;
  lines: readonly OrderLine[];
  /** Keyed hash of the client's address, for the limit of open checkouts per address. */
  clientKey?: string | null;
}

/** A client's checkouts still waiting for their payment. */
export interface OpenCheckouts {
  count: number;
  /** Epoch ms when the first of them lapses; null when there is none. */
  firstExpiresAt: number | null;
}

/** Either lookup finds the order; the id wins when both are given. */
export interface OrderKey {
  id?: string | null;
  sessionId?: string | null;
  /** The provider's payment id: a refund at the provider names only that. */
  paymentReference?: string | null;
}

/** The order with its lines; its places are its holds (`holds/`, owned by the order's id). */
export abstract class OrderRepository {
  /** Inserts the order and its lines. */
  abstract create(order: NewOrder): Promise<void>;
  /**
   * Serialises checkouts of one client until the transaction ends, so two cannot both
   * pass the limit of open checkouts.
   */
  abstract lockClient(clientKey: string): Promise<void>;
  /** The client's orders still open for payment and not yet lapsed at `now`. */
  abstract openForClient(clientKey: string, now: number): Promise<OpenCheckouts>;
  abstract find(key: OrderKey): Promise<Order | undefined>;
  /** As `find`, and holds the row against concurrent transitions until the transaction ends. */
  abstract lock(key: OrderKey): Promise<Order | undefined>;
  abstract lines(orderId: string): Promise<OrderLine[]>;
  /** The payment session the provider opened for the order. */
  abstract recordSession(
    orderId: string,
    session: { id: string; url: string },
    now: number,
  ): Promise<void>;
  /** Writes a transition's result: status, context, session id and payment time. */
  abstract save(order: Order, now: number): Promise<void>;
  /** Orders of this provider still waiting for their payment's outcome, oldest first. */
  abstract findUnsettled(query: {
    provider: string;
    createdBefore: number;
    limit: number;
  }): Promise<Order[]>;
}

/**
 * A job as its caller enqueues it, in the caller's transaction (docs/decisions/
 * 0011-one-job-runner.md): the runner runs it once the transaction has committed.
 */
export interface NewJob {
  /** The name its handler is registered under (`jobs/job-handlers.ts`). */
  name: string;
  /** Stored as JSON: ids, never personal data. */
  payload: unknown;
  /** One job per name and key, however often it is asked for; null: no such limit. */
  key?: string | null;
  /**
   * The order or waiting-list entry the job is about: erasing the order's personal data
   * clears the job's error, deleting the entry deletes the job.
   */
  subject?: string | null;
}

export interface LeasedJob {
  id: number;
  name: string;
  /** As enqueued, parsed from its JSON. */
  payload: unknown;
  /** Including the current one. */
  attempts: number;
  /** When it was last asked for (`enqueue`, `enqueueAgain`). */
  requestedAt: number;
}

/**
 * The `jobs` table: work that must survive a restart (rules "Webhook", "E-mail", "Waiting
 * list"), and the recurring jobs, one row each that reschedules itself.
 */
export abstract class JobRepository {
  /** Due at once; a job of this name and key that exists already (done or not) is left as it is. */
  abstract enqueue(job: NewJob, now: number): Promise<void>;
  /**
   * As `enqueue`, and a finished job of this name and key is made due again, unless it was
   * last asked for less than `againAfterMs` before `now` (a job still due or running does
   * the current work anyway).
   */
  abstract enqueueAgain(job: NewJob, now: number, againAfterMs?: number): Promise<void>;
  /** A recurring job's row, first due at `runAt`, unless it exists. */
  abstract schedule(name: string, runAt: number, now: number): Promise<void>;
  /**
   * Takes one due job of these names for `owner`, each name with its lease time; another
   * owner's lapsed lease is taken over. Undefined when none is due.
   */
  abstract lease(
    leases: ReadonlyMap<string, number>,
    owner: string,
    now: number,
  ): Promise<LeasedJob | undefined>;
  /** Done, unless it was done already (a hand-off completes its job in its own transaction). */
  abstract complete(jobId: number, now: number): Promise<void>;
  /** Gives the job back, due again at `nextAttemptAt`, if `owner` still holds it. */
  abstract retry(jobId: number, owner: string, nextAttemptAt: number, error: string): Promise<void>;
  /** A recurring job ran: due again at `nextRunAt`, if `owner` still holds it. */
  abstract reschedule(jobId: number, owner: string, nextRunAt: number): Promise<void>;
}

export interface RecordedEvent {
  type: string;
  receivedAt: number;
  outcome: string;
}

/** Provider events by id, kept for good: the provider retries for days (rules "Webhook"). */
export abstract class WebhookEventRepository {
  /** False when an event with this id was recorded before. */
  abstract record(event: { id: string; type: string }, now: number): Promise<boolean>;
  abstract setOutcome(id: string, outcome: string): Promise<void>;
  /** Newest first. */
  abstract recent(limit: number): Promise<RecordedEvent[]>;
}

export abstract class ContactRepository {
  abstract add(
    message: { name: string; email: string; message: string },
    now: number,
  ): Promise<void>;
}

/** A seat as the paid transition issues it (rules "Tickets and the door"). */
export interface NewTicket {
  id: string;
  orderId: string;
  linePosition: number;
  seat: number;
  seats: number;
  eventId: number;
  variationId: number | null;
  eventName: string;
  eventSlug: string | null;
  /** ISO 8601. */
  startsAt: string | null;
  venue: string | null;
  tier: string | null;
  holder: string | null;
}

export interface StoredTicket extends NewTicket {
  status: TicketStatus;
  issuedAt: number;
  revokedAt: number | null;
}

export abstract class TicketRepository {
  /** Inserts the seats; a seat already issued (same order line and seat) is left as it is. */
  abstract issue(tickets: readonly NewTicket[], now: number): Promise<void>;
  abstract find(id: string): Promise<StoredTicket | undefined>;
  /** In the order's line and seat order. */
  abstract forOrder(orderId: string): Promise<StoredTicket[]>;
  /** Valid tickets of orders bought with this e-mail address (any case), newest order first. */
  abstract validForEmail(email: string): Promise<StoredTicket[]>;
  /** The order's valid tickets become revoked; returns how many changed. */
  abstract revokeForOrder(orderId: string, now: number): Promise<number>;
  /**
   * The order's revoked tickets admit again (a dispute decided for the shop); returns how
   * many changed. Only a disputed order's tickets are revoked while the order may be paid.
   */
  abstract restoreForOrder(orderId: string): Promise<number>;
}

/** Values made once and shared by every process: the first writer wins, everyone reads its value. */
export abstract class SettingsRepository {
  abstract get(key: string): Promise<string | undefined>;
  /** Stores `value` unless the key exists; returns the value stored under the key either way. */
  abstract putIfAbsent(key: string, value: string, now: number): Promise<string>;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface StoredMailSummary {
  id: string;
  to: string;
  subject: string;
  createdAt: number;
  attachments: { filename: string; contentType: string; size: number }[];
}

export interface StoredMail extends StoredMailSummary {
  from: string;
  html: string;
  text: string;
}

/** The embedded mailbox of /mail-test (rules "E-mail"). */
export abstract class MailboxRepository {
  /** Idempotent by id: a mail stored twice is kept once. */
  abstract add(
    mail: Omit<StoredMail, 'attachments' | 'createdAt'> & { attachments: MailAttachment[] },
    now: number,
  ): Promise<void>;
  /** Newest first. */
  abstract list(limit: number): Promise<StoredMailSummary[]>;
  abstract find(id: string): Promise<StoredMail | undefined>;
  abstract attachment(id: string, index: number): Promise<MailAttachment | undefined>;
}

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
  /** Active offers whose hold lapsed become `expired`; returns how many. */
  abstract expireOffers(now: number): Promise<number>;
  abstract counts(now: number): Promise<WaitlistCount[]>;
  /** Deletes entries (offers, mails) of events that started before `cutoff`; returns how many. */
  abstract removeStartedBefore(cutoff: number): Promise<number>;
}

/** The repositories bound to one write transaction. */
export interface StoreTransaction {
  orders: OrderRepository;
  holds: HoldRepository;
  jobs: JobRepository;
  webhookEvents: WebhookEventRepository;
  tickets: TicketRepository;
  waitlist: WaitlistRepository;
}

export abstract class Store {
  /**
   * Runs `work` in one transaction that holds the write lock from its first statement,
   * so a read-then-write (capacity check, state transition) cannot interleave with
   * another; everything `work` wrote is undone when it throws.
   */
  abstract write<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
}

/** rules "Tickets and the door": an event as the door chooses it, from its issued tickets. */
export interface CheckinEvent {
  eventId: number;
  /** As the catalog described the event at issue time (one of them, had it changed between sales). */
  eventName: string;
  /** ISO 8601, or null when the catalog had no date. */
  startsAt: string | null;
  venue: string | null;
  valid: number;
  revoked: number;
  checkedIn: number;
}

/** A ticket in the door's download list. */
export interface DoorTicket {
  id: string;
  seat: number;
  seats: number;
  tier: string | null;
  holder: string | null;
  status: TicketStatus;
  /** The event's start as the ticket was issued for it (ISO 8601), or null. */
  startsAt: string | null;
  /** The first check-in's scan time (epoch ms) and device; null until checked in. */
  checkedInAt: number | null;
  checkedInDevice: string | null;
}

/** What a scan is checked against: the ticket's event, seat and status. */
export interface TicketAtDoor {
  id: string;
  eventId: number;
  seat: number;
  status: TicketStatus;
  /** Epoch ms: no scan of the ticket can have happened before. */
  issuedAt: number;
  /** The event's start as the catalog gave it (ISO 8601), or null. */
  startsAt: string | null;
}

export interface CheckIn {
  ticketId: string;
  scanId: string;
  /** Epoch ms, as the device scanned it. */
  scannedAt: number;
  device: string;
}

export type ScanStatus = 'ok' | 'already' | 'invalid' | 'revoked';

export interface ScanRecord {
  scanId: string;
  /** Null when the token is not one of our tickets. */
  ticketId: string | null;
  scannedAt: number;
  device: string;
  status: ScanStatus;
}

/**
 * The door's check-ins. Not part of StoreTransaction: a sync is one transaction of its own
 * (`transaction`), run by nothing else.
 */
export abstract class CheckinRepository {
  /** Every event with issued tickets, with its counts. */
  abstract events(): Promise<CheckinEvent[]>;
  /** The event's tickets in order, line and seat order, with their first check-in. */
  abstract eventTickets(eventId: number): Promise<DoorTicket[]>;
  /** Runs `work` in one write transaction with this repository bound to it. */
  abstract transaction<T>(work: (checkins: CheckinRepository) => Promise<T>): Promise<T>;
  /** Ticket id (null for an invalid token) of each scan id synced before. */
  abstract knownScans(scanIds: readonly string[]): Promise<Map<string, string | null>>;
  abstract ticketsAtDoor(ticketIds: readonly string[]): Promise<Map<string, TicketAtDoor>>;
  /**
   * Per ticket: inserts the check-in, or replaces the stored one when this one was scanned
   * earlier (ties: the smaller scan id), in one statement per batch, so concurrent syncs on
   * several processes end with the same first check-in. At most one check-in per ticket.
   */
  abstract keepEarliest(checkIns: readonly CheckIn[], now: number): Promise<void>;
  abstract firstCheckIns(ticketIds: readonly string[]): Promise<Map<string, CheckIn>>;
  /** Idempotent by scan id: a scan recorded before is left as it is. */
  abstract recordScans(scans: readonly ScanRecord[], now: number): Promise<void>;
}

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
