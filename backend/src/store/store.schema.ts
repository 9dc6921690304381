import type { Generated } from 'kysely';

/**
 * Tables of the checkout store. Money is integer cents, times are epoch milliseconds
 * (bigint on PostgreSQL, read back as numbers), flags are 0/1 so SQLite and PostgreSQL
 * share one schema and one set of queries.
 */
export interface OrdersTable {
  id: string;
  /** Provider session id (Stripe `cs_…`, test provider `tps_…`, or the order id when free). */
  session_id: string | null;
  provider: string;
  /** The order machine's state (`OrderStatus` in machines/). */
  status: string;
  email: string | null;
  /** Full name from the payment page, written when the payment succeeds. */
  buyer_name: string | null;
  /** The catalog's spelling of the coupon (WooCommerce stores codes lower-case); the hand-off uses it. */
  coupon_code: string | null;
  /** The coupon as the visitor typed it; pages show this one (null on orders from before it was kept). */
  coupon_entered: string | null;
  subtotal: number;
  discount: number;
  total: number;
  currency: string;
  payment_method: string;
  success_url: string;
  cancel_url: string;
  payment_url: string | null;
  payment_reference: string | null;
  catalog_order_id: string | null;
  refund_reference: string | null;
  /** Why WooCommerce refused the hand-off for good (rules "Hand-off refused"); null otherwise. */
  handoff_error: string | null;
  /** What the provider has refunded so far, integer cents (rules "Refunds reach the shop"). */
  refunded_amount: Generated<number>;
  created_at: number;
  expires_at: number;
  paid_at: number | null;
  updated_at: number;
  /**
   * Keyed hash of the client's address while the order waits for its payment (the limit of
   * open checkouts per address); null once it no longer does, and on older orders.
   */
  client_key: string | null;
}

export interface OrderLinesTable {
  order_id: string;
  position: number;
  product_id: number;
  variation_id: number | null;
  name: string;
  image: string | null;
  quantity: number;
  unit_amount: number;
  /** The coupon's discount on this line in cents, as the checkout priced it (rules "Coupons"). */
  discount: Generated<number>;
  /** Units whose price a partial refund gave back (rules "Refunds"). */
  refunded_quantity: Generated<number>;
}

/**
 * rules "Capacity": places of one stock unit held by an owner (an order's id, or a
 * waiting-list entry's id for its offer) until `expires_at`; counted while neither released
 * nor lapsed (docs/decisions/0010-holds.md).
 */
export interface HoldsTable {
  id: Generated<number>;
  owner: string;
  /** Stock unit: the variation id when it keeps its own stock, else the product id. */
  product_key: number;
  quantity: number;
  expires_at: number;
  released: number;
  /** 1 once the owner's sale took the places for good (a paid order). */
  sold: number;
  /** Lets another owner claim the places (an offer's token); null for a checkout's hold. */
  claim_token: string | null;
  /** The owner that claimed the hold (released to it). */
  claimed_by: string | null;
  /**
   * Epoch ms at which the shop confirmed the sale (the hand-off's answer): from then on the
   * shop's stock carries it, and the hold counts only against stock read before.
   */
  settled_at: number | null;
}

/** One row per stock unit; PostgreSQL locks it (FOR UPDATE) to serialise holds. */
export interface CapacityLocksTable {
  product_key: number;
}

/**
 * rules "Coupons": one use of a coupon held by an owner (an order's id) until `expires_at`;
 * counted while neither released nor lapsed (docs/decisions/0013-coupon-uses-are-held.md).
 */
export interface CouponHoldsTable {
  id: Generated<number>;
  owner: string;
  /** The coupon's code as WooCommerce keeps it: trimmed, lower case. */
  code: string;
  /** A keyed hash of the buyer's address, for the per-buyer limit; null when not known. */
  holder: string | null;
  expires_at: number;
  released: number;
  /** As `HoldsTable.settled_at`: the shop's `usage_count` carries the use from then on. */
  settled_at: number | null;
}

/** One row per coupon code; PostgreSQL locks it (FOR UPDATE) to serialise its uses. */
export interface CouponLocksTable {
  code: string;
}

export interface WebhookEventsTable {
  id: string;
  type: string;
  received_at: number;
  outcome: string;
}

/**
 * Every job (docs/decisions/0011-one-job-runner.md): enqueued work (ticket mails, hand-offs,
 * refunds, the waiting list's mails) and the recurring jobs (sweeps), each leased by one
 * process at a time.
 */
export interface JobsTable {
  id: Generated<number>;
  /** The handler's name. */
  name: string;
  /** One job per name and key (an order's id, an offer's id); null: no such limit. */
  key: string | null;
  /** The order or waiting-list entry it is about (privacy: erased and deleted with it). */
  subject: string | null;
  /** JSON. */
  payload: string;
  attempts: number;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_until: number | null;
  done_at: number | null;
  /**
   * When a handler ended it as failed for good (`done_at` is set too, so nobody leases
   * it); null for a job that succeeded or is still due. Cleared when it is asked for again.
   */
  failed_at: number | null;
  /** Masked like the logs; a mail server's refusal may still quote an address. */
  last_error: string | null;
  /** When it was last asked for: part of a repeated mail's id, and the gap between repeats. */
  requested_at: number;
  created_at: number;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  message: string;
  created_at: number;
}

/** rules "Tickets and the door": one row per event seat of a paid order. */
export interface TicketsTable {
  /** Short on purpose: it travels in the signed token inside the QR code. */
  id: string;
  order_id: string;
  /** The order line the seat belongs to (`order_lines.position`). */
  line_position: number;
  seat: number;
  seats: number;
  event_id: number;
  variation_id: number | null;
  /** The event as the catalog described it at issue time. */
  event_name: string;
  event_slug: string | null;
  /** ISO 8601, or null when the catalog had no date. */
  starts_at: string | null;
  venue: string | null;
  tier: string | null;
  holder: string | null;
  /** 1: a guest-list ticket, from an order of 0 € made in the shop (rules "Orders made in the shop"). */
  guest_list: Generated<number>;
  /** `valid` or `revoked` (TicketStatus in machines/). */
  status: string;
  issued_at: number;
  revoked_at: number | null;
  /** When a partial refund gave this ticket's price back (rules "Refunds"); it stays revoked. */
  refunded_at: number | null;
  /** The short ticket code, 8 Crockford base32 signs, unique within the event (rules "Tickets and the door"). */
  code: string | null;
  /** The holder's company (rules "Named tickets"). */
  holder_company: string | null;
  /** The address of the holder the ticket was passed on to; null: the buyer's (the order's). */
  holder_email: string | null;
  /** Raised by every transfer: the signed token carries it, older tokens are refused. */
  generation: Generated<number>;
}

/** rules "Named tickets": each time a ticket was passed on, with the short code it had. */
export interface TicketTransfersTable {
  ticket_id: string;
  /** The generation the transfer made (the ticket's new one). */
  generation: number;
  previous_code: string | null;
  /** The name of who passed it on (its holder then, else null: the buyer). */
  given_by: string | null;
  transferred_at: number;
}

/** Values generated once and shared by every process (the embedded ticket signing key). */
export interface SettingsTable {
  key: string;
  value: string;
  created_at: number;
}

/** The embedded mailbox (rules "E-mail": mails kept in the store, shown on /mail-test). */
export interface MailsTable {
  id: string;
  to_address: string;
  from_address: string;
  subject: string;
  html: string;
  text: string;
  created_at: number;
}

export interface MailAttachmentsTable {
  mail_id: string;
  position: number;
  filename: string;
  content_type: string;
  size: number;
  /** Base64: one column type for SQLite and PostgreSQL. */
  content: string;
}

/** rules "Tickets and the door": a ticket's first check-in (the earliest scan synced). */
export interface CheckinsTable {
  ticket_id: string;
  scan_id: string;
  /** When the device scanned it (epoch ms), not when the sync arrived. */
  scanned_at: number;
  device: string;
  received_at: number;
}

/** Every scan id the door synced, with its answer when it arrived (idempotency and audit). */
export interface CheckinScansTable {
  scan_id: string;
  ticket_id: string | null;
  scanned_at: number;
  device: string;
  /** `ok`, `already`, `invalid` or `revoked` as first answered. */
  status: string;
  received_at: number;
}

/** rules "Waiting list": one address waiting for one stock unit. */
export interface WaitlistEntriesTable {
  id: string;
  product_id: number;
  variation_id: number | null;
  product_key: number;
  quantity: number;
  email: string;
  /** `pending`, `confirmed` or `offered`. */
  status: string;
  /** "Event – VIP", as the mails and pages name it. */
  line_name: string;
  event_slug: string | null;
  starts_at: number | null;
  confirm_token: string;
  unsubscribe_token: string;
  created_at: number;
  confirmed_at: number | null;
  /**
   * Places on sale when the entry was confirmed and free at every pass since; null until a
   * pass measured them. Offers give the entry only what is free beyond them.
   */
  public_free: number | null;
}

/** An offer to an entry; its places are its hold (`hold_id`, claimable with `token`). */
export interface WaitlistOffersTable {
  id: Generated<number>;
  entry_id: string;
  token: string;
  /** `active`, `claimed`, `declined` or `expired`. */
  status: string;
  created_at: number;
  /** The hold with the offer's places (set on every offer; the column came later). */
  hold_id: number;
}

/**
 * rules "Orders made in the shop": an order made in WooCommerce itself (no `awhh_reference`),
 * as the shop last reported it. Its tickets carry `id` as their order id.
 */
export interface ShopOrdersTable {
  /** `shop-<WooCommerce order id>`. */
  id: string;
  /** WooCommerce's order number, as the organizer and the buyer read it. */
  number: string;
  /** WooCommerce's status in the report applied last. */
  status: string;
  /** The shop's `date_modified_gmt` of that report (epoch ms): an older report changes nothing. */
  modified_at: number;
  /** The billing address and name (docs/privacy.md: erased with the order's tickets' holders). */
  email: string | null;
  holder: string | null;
  /** Integer cents; 0 is a guest list. */
  total: number;
  created_at: number;
  updated_at: number;
}

/** How far the sweep of the shop's orders has read (rules "Orders made in the shop"). */
export interface ShopOrderSweepsTable {
  name: string;
  /** The latest `date_modified_gmt` (epoch ms) among the orders read; null before the first. */
  high_water: number | null;
  last_run_at: number | null;
  last_read: Generated<number>;
  last_applied: Generated<number>;
  /** The last run's failure, masked like the logs; null when it succeeded. */
  last_error: string | null;
}

/** rules "The organizer": a mail the organizer sent to every valid holder of an event. */
export interface OrganizerMailsTable {
  id: string;
  /** The page's id for the sending, unique: a repeated request finds the mail it made. */
  send_id: string;
  event_id: number;
  /** The event as the dashboard named it when the mail was sent. */
  event_name: string;
  starts_at: string | null;
  subject: string;
  /** The organizer's plain text; escaped when rendered. */
  body: string;
  recipients: number;
  created_at: number;
}

/** One address of an organizer's mail, by one of its valid tickets (no address kept here). */
export interface OrganizerMailRecipientsTable {
  mail_id: string;
  ticket_id: string;
  /** When the mail server accepted this recipient's mail; null until then. */
  sent_at: number | null;
}

/** rules "Reminders": an address reminders went to, lower-case, and its unsubscribe token. */
export interface ReminderAddressesTable {
  email: string;
  token: string;
  /** Set by the unsubscribe link: no reminder and no thank-you to this address any more. */
  unsubscribed_at: number | null;
  created_at: number;
}

/**
 * rules "Giving a ticket back": a ticket offered back to the waiting list, its place lent
 * to the offer in `offer_id` (docs/decisions/0020-a-returned-ticket-lends-its-place.md).
 */
export interface TicketReturnsTable {
  id: string;
  ticket_id: string;
  order_id: string;
  /** The stock unit whose place is lent. */
  product_key: number;
  /** `offered`, `withdrawn`, `lapsed`, `taken`, `refunded` (machines' ticketReturnMachine). */
  status: string;
  /** What goes back once the place is bought: the ticket's price less `fee`, cents. */
  refund: number;
  fee: number;
  /** The waiting-list offer the place is lent to now, or null. */
  offer_id: number | null;
  /** The ticket's generation (its holder) that offered it; only that one is revoked. */
  generation: number;
  /** The waiting-list buyer's order that took the place. */
  taken_by: string | null;
  refund_reference: string | null;
  /** Epoch ms: after this nobody can take it (TICKET_RETURN_UNTIL_HOURS before the start). */
  closes_at: number;
  created_at: number;
  updated_at: number;
}

/** rules "The organizer": a signed-in organizer; the cookie holds what `id_hash` digests. */
/** docs/ledger.md "Told to the organizer": no names or addresses, ids and items only. */
export interface OrganizerNoticesTable {
  id: string;
  kind: string;
  order_id: string;
  shop_order: string | null;
  /** JSON array of the items' German descriptions. */
  items: string;
  created_at: number;
  done_at: number | null;
}

/** rules "Tickets and the door": a device let in by the door code. */
export interface DoorSessionsTable {
  id: string;
  /** SHA-256 of the token's secret, base64url: the store never holds the secret. */
  secret_hash: string;
  binding: string;
  device: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export interface OrganizerSessionsTable {
  /** SHA-256 of the cookie's secret, base64url: the store never holds the secret itself. */
  id_hash: string;
  /** `code` or `wordpress`. */
  method: string;
  /** What was signed in with (the code's digest or the shop's address), digested. */
  binding: string;
  name: string | null;
  email: string | null;
  /** The WordPress user name, to ask WordPress again. */
  username: string | null;
  /** The application password sealed with a key only the cookie carries. */
  sealed_password: string | null;
  /** Epoch ms of WordPress's last "yes" (the sign-in's time for the code). */
  checked_at: number;
  created_at: number;
  expires_at: number;
}

export interface StoreSchema {
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  holds: HoldsTable;
  capacity_locks: CapacityLocksTable;
  webhook_events: WebhookEventsTable;
  jobs: JobsTable;
  contact_messages: ContactMessagesTable;
  tickets: TicketsTable;
  settings: SettingsTable;
  mails: MailsTable;
  mail_attachments: MailAttachmentsTable;
  checkins: CheckinsTable;
  checkin_scans: CheckinScansTable;
  waitlist_entries: WaitlistEntriesTable;
  waitlist_offers: WaitlistOffersTable;
  coupon_holds: CouponHoldsTable;
  coupon_locks: CouponLocksTable;
  shop_orders: ShopOrdersTable;
  shop_order_sweeps: ShopOrderSweepsTable;
  organizer_mails: OrganizerMailsTable;
  organizer_mail_recipients: OrganizerMailRecipientsTable;
  ticket_transfers: TicketTransfersTable;
  reminder_addresses: ReminderAddressesTable;
  ticket_returns: TicketReturnsTable;
  organizer_sessions: OrganizerSessionsTable;
  organizer_notices: OrganizerNoticesTable;
  door_sessions: DoorSessionsTable;
}
