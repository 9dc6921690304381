import { randomBytes } from 'node:crypto';
import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import {
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
  Migrator,
} from 'kysely/migration';
import type { StoreKind } from './store.database.js';

// Migrations are code (not files read at run time) so the built image needs nothing
// beside dist/. Append new migrations; never edit one that has shipped.
function migrations(kind: StoreKind): Record<string, Migration> {
  // The only dialect difference in the schema: how an auto-incrementing key is spelled.
  const serial = kind === 'postgres' ? 'serial' : 'integer';
  const autoId = (col: ColumnDefinitionBuilder) =>
    kind === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement();

  return {
    '2026-11-22-001-checkout': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('orders')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('session_id', 'text', (c) => c.unique())
          .addColumn('provider', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('email', 'text')
          .addColumn('coupon_code', 'text')
          .addColumn('subtotal', 'integer', (c) => c.notNull())
          .addColumn('discount', 'integer', (c) => c.notNull())
          .addColumn('total', 'integer', (c) => c.notNull())
          .addColumn('currency', 'text', (c) => c.notNull())
          .addColumn('payment_method', 'text', (c) => c.notNull())
          .addColumn('success_url', 'text', (c) => c.notNull())
          .addColumn('cancel_url', 'text', (c) => c.notNull())
          .addColumn('payment_url', 'text')
          .addColumn('payment_reference', 'text')
          .addColumn('catalog_order_id', 'text')
          .addColumn('refund_status', 'text')
          .addColumn('refund_reference', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('paid_at', 'bigint')
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('order_lines')
          .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('product_id', 'integer', (c) => c.notNull())
          .addColumn('variation_id', 'integer')
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('image', 'text')
          .addColumn('quantity', 'integer', (c) => c.notNull())
          .addColumn('unit_amount', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('order_lines_pk', ['order_id', 'position'])
          .execute();

        await db.schema
          .createTable('reservations')
          .addColumn('id', serial, autoId)
          .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
          .addColumn('product_key', 'integer', (c) => c.notNull())
          .addColumn('quantity', 'integer', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('released', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createIndex('reservations_active_idx')
          .on('reservations')
          .columns(['product_key', 'released', 'expires_at'])
          .execute();
        await db.schema
          .createIndex('reservations_order_idx')
          .on('reservations')
          .column('order_id')
          .execute();

        await db.schema
          .createTable('capacity_locks')
          .addColumn('product_key', 'integer', (c) => c.primaryKey())
          .execute();

        await db.schema
          .createTable('webhook_events')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('received_at', 'bigint', (c) => c.notNull())
          .addColumn('outcome', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('webhook_events_received_idx')
          .on('webhook_events')
          .column('received_at')
          .execute();

        await db.schema
          .createTable('outbox')
          .addColumn('id', serial, autoId)
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
          .addColumn('lease_owner', 'text')
          .addColumn('lease_until', 'bigint')
          .addColumn('done_at', 'bigint')
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          // One hand-off and one refund per order, however often the event arrives.
          .addUniqueConstraint('outbox_kind_order_uq', ['kind', 'order_id'])
          .execute();
        await db.schema
          .createIndex('outbox_due_idx')
          .on('outbox')
          .columns(['done_at', 'next_attempt_at'])
          .execute();

        await db.schema
          .createTable('contact_messages')
          .addColumn('id', serial, autoId)
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('message', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
    // rules "Everything the shop sells": the buyer's name from the payment page, and the
    // coupon as typed beside the catalog's spelling. One column per statement: SQLite's
    // ALTER TABLE adds a single column at a time.
    '2026-11-23-001-order-buyer': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('orders').addColumn('buyer_name', 'text').execute();
        await db.schema.alterTable('orders').addColumn('coupon_entered', 'text').execute();
      },
    },
    // rules "The order's life": the status column holds the order machine's state, which
    // also says what `refund_status` and a set `catalog_order_id` used to add to it.
    '2026-11-24-001-order-machine-states': {
      async up(db: Kysely<unknown>) {
        await sql`update orders set status = 'refunded' where refund_status = 'refunded'`.execute(
          db,
        );
        await sql`update orders set status = 'refundPending' where refund_status = 'pending'`.execute(
          db,
        );
        await sql`update orders set status = 'handedOff' where status = 'paid' and catalog_order_id is not null`.execute(
          db,
        );
        await db.schema.alterTable('orders').dropColumn('refund_status').execute();
        // Reconciliation looks for orders still waiting for their payment, oldest first.
        await db.schema
          .createIndex('orders_unsettled_idx')
          .on('orders')
          .columns(['status', 'created_at'])
          .execute();
      },
    },
    // rules "Tickets and the door": tickets, the embedded signing key (settings) and the
    // embedded mailbox. One ticket per (order line, seat): issuing twice inserts nothing.
    '2026-11-25-001-tickets-mail': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('tickets')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
          .addColumn('line_position', 'integer', (c) => c.notNull())
          .addColumn('seat', 'integer', (c) => c.notNull())
          .addColumn('seats', 'integer', (c) => c.notNull())
          .addColumn('event_id', 'integer', (c) => c.notNull())
          .addColumn('variation_id', 'integer')
          .addColumn('event_name', 'text', (c) => c.notNull())
          .addColumn('event_slug', 'text')
          .addColumn('starts_at', 'text')
          .addColumn('venue', 'text')
          .addColumn('tier', 'text')
          .addColumn('holder', 'text')
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('issued_at', 'bigint', (c) => c.notNull())
          .addColumn('revoked_at', 'bigint')
          .addUniqueConstraint('tickets_seat_uq', ['order_id', 'line_position', 'seat'])
          .execute();
        // The door downloads an event's tickets.
        await db.schema.createIndex('tickets_event_idx').on('tickets').column('event_id').execute();

        await db.schema
          .createTable('settings')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('mails')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('to_address', 'text', (c) => c.notNull())
          .addColumn('from_address', 'text', (c) => c.notNull())
          .addColumn('subject', 'text', (c) => c.notNull())
          .addColumn('html', 'text', (c) => c.notNull())
          .addColumn('text', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('mails_created_idx').on('mails').column('created_at').execute();
        await db.schema
          .createTable('mail_attachments')
          .addColumn('mail_id', 'text', (c) => c.notNull().references('mails.id'))
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('filename', 'text', (c) => c.notNull())
          .addColumn('content_type', 'text', (c) => c.notNull())
          .addColumn('size', 'integer', (c) => c.notNull())
          .addColumn('content', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('mail_attachments_pk', ['mail_id', 'position'])
          .execute();
      },
    },
    // rules "Tickets and the door": a refund made at the provider names the payment, not
    // the order; the order is found by its payment reference.
    '2026-11-26-001-order-payment-reference': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createIndex('orders_payment_reference_idx')
          .on('orders')
          .column('payment_reference')
          .execute();
      },
    },
    // rules "Tickets and the door": the door's check-ins. One row per ticket (its first
    // check-in: the earliest scan, whichever device synced first) and one per scan id, so a
    // sync replayed after a lost answer is never counted twice.
    '2026-11-27-001-checkin': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('checkins')
          .addColumn('ticket_id', 'text', (c) => c.primaryKey().references('tickets.id'))
          .addColumn('scan_id', 'text', (c) => c.notNull())
          .addColumn('scanned_at', 'bigint', (c) => c.notNull())
          .addColumn('device', 'text', (c) => c.notNull())
          .addColumn('received_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('checkin_scans')
          .addColumn('scan_id', 'text', (c) => c.primaryKey())
          // Null for a token that is not one of our tickets.
          .addColumn('ticket_id', 'text')
          .addColumn('scanned_at', 'bigint', (c) => c.notNull())
          .addColumn('device', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('received_at', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
    // rules "Waiting list". `reservations.order_id` and `outbox.order_id` name an order, and
    // neither an offer's hold nor a waiting-list mail has one: offers are rows of their own,
    // which the capacity check counts beside the reservations (active and not yet lapsed),
    // and the mails are jobs of their own table, leased by the same outbox worker.
    '2026-11-28-001-waitlist': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('waitlist_entries')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('product_id', 'integer', (c) => c.notNull())
          .addColumn('variation_id', 'integer')
          // The stock unit the entry waits for (holds/stock-unit.ts `findStockUnit`).
          .addColumn('product_key', 'integer', (c) => c.notNull())
          .addColumn('quantity', 'integer', (c) => c.notNull())
          // Lower-cased: one entry per address and stock unit.
          .addColumn('email', 'text', (c) => c.notNull())
          // `pending` (not confirmed), `confirmed` (in the queue), `offered`.
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('line_name', 'text', (c) => c.notNull())
          .addColumn('event_slug', 'text')
          // Epoch ms of the event's start; the entry is deleted once the event is over.
          .addColumn('starts_at', 'bigint')
          .addColumn('confirm_token', 'text', (c) => c.notNull().unique())
          .addColumn('unsubscribe_token', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('confirmed_at', 'bigint')
          .addUniqueConstraint('waitlist_entries_email_unit_uq', ['email', 'product_key'])
          .execute();
        // The queue: confirmed entries of a stock unit, oldest confirmation first.
        await db.schema
          .createIndex('waitlist_entries_queue_idx')
          .on('waitlist_entries')
          .columns(['status', 'product_key', 'confirmed_at'])
          .execute();

        await db.schema
          .createTable('waitlist_offers')
          .addColumn('id', serial, autoId)
          .addColumn('entry_id', 'text', (c) => c.notNull().references('waitlist_entries.id'))
          .addColumn('token', 'text', (c) => c.notNull().unique())
          .addColumn('product_key', 'integer', (c) => c.notNull())
          .addColumn('quantity', 'integer', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          // `active` (holds its places), `claimed` (a checkout took them over), `declined`,
          // `expired`.
          .addColumn('status', 'text', (c) => c.notNull())
          // The order that claimed the offer; its reservation holds the places from then on.
          .addColumn('order_id', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('waitlist_offers_hold_idx')
          .on('waitlist_offers')
          .columns(['product_key', 'status', 'expires_at'])
          .execute();
        await db.schema
          .createIndex('waitlist_offers_order_idx')
          .on('waitlist_offers')
          .column('order_id')
          .execute();

        await db.schema
          .createTable('waitlist_mails')
          .addColumn('id', serial, autoId)
          // `confirm` (double opt-in) or `offer`.
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('entry_id', 'text', (c) => c.notNull())
          .addColumn('offer_id', 'integer')
          // One job per purpose (`confirm:{entry}`, `offer:{offer}`), however often it is asked for.
          .addColumn('purpose', 'text', (c) => c.notNull().unique())
          // When the mail was last asked for: part of the mail's id, so a repeated
          // confirmation is a new mail while a retried one is the same.
          .addColumn('requested_at', 'bigint', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
          .addColumn('lease_owner', 'text')
          .addColumn('lease_until', 'bigint')
          .addColumn('done_at', 'bigint')
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('waitlist_mails_due_idx')
          .on('waitlist_mails')
          .columns(['done_at', 'next_attempt_at'])
          .execute();
      },
    },
    // rules "Capacity": the capacity check sums the active reservations of a stock unit on
    // every checkout; with the quantity in the index that sum never reads the table.
    '2026-11-29-001-reservations-capacity-index': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createIndex('reservations_capacity_idx')
          .on('reservations')
          .columns(['product_key', 'released', 'expires_at', 'quantity'])
          .execute();
        await db.schema.dropIndex('reservations_active_idx').execute();
      },
    },
    // The waiting list offers only places that came free while an entry waited: what was on
    // sale when it was confirmed stays on sale (docs/features.md "Waiting list"). Null until a pass has
    // measured it, which is also right for entries confirmed before this column existed.
    '2026-11-30-001-waitlist-public-free': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('waitlist_entries')
          .addColumn('public_free', 'integer')
          .execute();
      },
    },
    // The checkout counts a client's open unpaid checkouts by this column: a keyed hash of
    // the client's address, never the address itself.
    '2026-11-30-002-orders-client-key': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('orders').addColumn('client_key', 'text').execute();
        await db.schema
          .createIndex('orders_client_open_idx')
          .on('orders')
          .columns(['client_key', 'status', 'expires_at'])
          .execute();
      },
    },
    // Jobs that run once a day per deployment however many processes there are (the
    // erasure of personal data, docs/privacy.md): the process that leases the row runs it.
    '2026-11-30-003-scheduled-jobs': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('scheduled_jobs')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('last_run_at', 'bigint')
          .addColumn('lease_owner', 'text')
          .addColumn('lease_until', 'bigint')
          .execute();
      },
    },
    // docs/decisions/0010-holds.md: a checkout's reservations and a waiting-list offer's
    // places become one kind of row, a hold. Every reservation moves (a lapsed or released one
    // can be taken again by a late payment, and "is the hold still there?" reads them), and
    // every offer's places (the offer page and mail show a used or lapsed offer's quantity
    // and time); an offer keeps its entry, token, status and mails and points to its hold.
    '2026-12-01-002-holds': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('holds')
          .addColumn('id', serial, autoId)
          // The order's id for a checkout, the entry's id for a waiting-list offer.
          .addColumn('owner', 'text', (c) => c.notNull())
          .addColumn('product_key', 'integer', (c) => c.notNull())
          .addColumn('quantity', 'integer', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('released', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('sold', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('claim_token', 'text', (c) => c.unique())
          .addColumn('claimed_by', 'text')
          .execute();
        // The capacity check's sum reads the index alone, as it did for the reservations.
        await db.schema
          .createIndex('holds_capacity_idx')
          .on('holds')
          .columns(['product_key', 'released', 'expires_at', 'quantity'])
          .execute();
        await db.schema.createIndex('holds_owner_idx').on('holds').column('owner').execute();
        await db.schema
          .createIndex('holds_claimed_by_idx')
          .on('holds')
          .column('claimed_by')
          .execute();

        await sql`insert into holds (owner, product_key, quantity, expires_at, released, sold)
          select r.order_id, r.product_key, r.quantity, r.expires_at, r.released,
            case when o.paid_at is null then 0 else 1 end
          from reservations r join orders o on o.id = r.order_id
          order by r.id`.execute(db);
        // An active offer holds its places; a claimed one gave them to its checkout's hold.
        await sql`insert into holds
            (owner, product_key, quantity, expires_at, released, sold, claim_token, claimed_by)
          select entry_id, product_key, quantity, expires_at,
            case when status = 'active' then 0 else 1 end, 0, token,
            case when status = 'claimed' then order_id else null end
          from waitlist_offers
          order by id`.execute(db);
        await db.schema.alterTable('waitlist_offers').addColumn('hold_id', 'integer').execute();
        await sql`update waitlist_offers
          set hold_id = (select h.id from holds h where h.claim_token = waitlist_offers.token)`.execute(
          db,
        );
        await db.schema
          .createIndex('waitlist_offers_hold_uq')
          .on('waitlist_offers')
          .column('hold_id')
          .unique()
          .execute();
        // SQLite drops a column only once no index names it.
        await db.schema.dropIndex('waitlist_offers_hold_idx').execute();
        await db.schema.dropIndex('waitlist_offers_order_idx').execute();
        for (const column of ['product_key', 'quantity', 'expires_at', 'order_id']) {
          await db.schema.alterTable('waitlist_offers').dropColumn(column).execute();
        }
        await db.schema.dropTable('reservations').execute();
      },
    },
    // docs/decisions/0011-one-job-runner.md: one table of jobs for the one runner, instead of
    // the outbox, the waiting list's mails and the scheduled jobs. Jobs not yet done move
    // (the outbox's before the mails, each in its own order, so the ticket mail still comes
    // before the hand-off); finished ones were history nobody read. The retention sweep
    // starts afresh as a recurring job and runs once at the first start after this.
    '2026-12-01-003-jobs': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('jobs')
          .addColumn('id', serial, autoId)
          .addColumn('name', 'text', (c) => c.notNull())
          // One job per name and key (an order's id, an offer's id, `recurring`).
          .addColumn('key', 'text')
          // The order or waiting-list entry the job is about (docs/privacy.md).
          .addColumn('subject', 'text')
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
          .addColumn('lease_owner', 'text')
          .addColumn('lease_until', 'bigint')
          .addColumn('done_at', 'bigint')
          .addColumn('last_error', 'text')
          .addColumn('requested_at', 'bigint', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addUniqueConstraint('jobs_name_key_uq', ['name', 'key'])
          .execute();
        await db.schema
          .createIndex('jobs_due_idx')
          .on('jobs')
          .columns(['done_at', 'next_attempt_at'])
          .execute();
        await db.schema.createIndex('jobs_subject_idx').on('jobs').column('subject').execute();

        const insertJob = (job: {
          name: string;
          key: string;
          subject: string;
          payload: unknown;
          attempts: number;
          next_attempt_at: number;
          lease_owner: string | null;
          lease_until: number | null;
          last_error: string | null;
          requested_at: number;
          created_at: number;
        }) =>
          sql`insert into jobs (name, key, subject, payload, attempts, next_attempt_at,
              lease_owner, lease_until, last_error, requested_at, created_at)
            values (${job.name}, ${job.key}, ${job.subject}, ${JSON.stringify(job.payload)},
              ${job.attempts}, ${Number(job.next_attempt_at)}, ${job.lease_owner},
              ${job.lease_until === null ? null : Number(job.lease_until)}, ${job.last_error},
              ${Number(job.requested_at)}, ${Number(job.created_at)})`.execute(db);

        const outboxNames: Record<string, string> = {
          mail: 'ticket-mail',
          resend: 'ticket-resend',
          handoff: 'order-handoff',
          refund: 'late-payment-refund',
        };
        const outbox = await sql<{
          kind: string;
          order_id: string;
          attempts: number;
          next_attempt_at: number;
          lease_owner: string | null;
          lease_until: number | null;
          last_error: string | null;
          created_at: number;
        }>`select kind, order_id, attempts, next_attempt_at, lease_owner, lease_until,
            last_error, created_at
          from outbox where done_at is null order by id`.execute(db);
        for (const row of outbox.rows) {
          const name = outboxNames[row.kind];
          if (!name) continue;
          await insertJob({
            ...row,
            name,
            key: row.order_id,
            subject: row.order_id,
            payload: { orderId: row.order_id },
            requested_at: row.created_at,
          });
        }

        const mails = await sql<{
          kind: string;
          entry_id: string;
          offer_id: number | null;
          requested_at: number;
          attempts: number;
          next_attempt_at: number;
          lease_owner: string | null;
          lease_until: number | null;
          last_error: string | null;
          created_at: number;
        }>`select kind, entry_id, offer_id, requested_at, attempts, next_attempt_at,
            lease_owner, lease_until, last_error, created_at
          from waitlist_mails where done_at is null order by id`.execute(db);
        for (const row of mails.rows) {
          const offer = row.kind === 'offer' && row.offer_id !== null;
          if (!offer && row.kind !== 'confirm') continue;
          await insertJob({
            ...row,
            name: offer ? 'waitlist-offer-mail' : 'waitlist-confirm-mail',
            key: offer ? String(row.offer_id) : row.entry_id,
            subject: row.entry_id,
            payload: offer
              ? { entryId: row.entry_id, offerId: Number(row.offer_id) }
              : { entryId: row.entry_id },
          });
        }

        await db.schema.dropTable('outbox').execute();
        await db.schema.dropTable('waitlist_mails').execute();
        await db.schema.dropTable('scheduled_jobs').execute();
      },
    },
    // A job a handler ended as failed for good (a hand-off WooCommerce refused); the order
    // keeps WooCommerce's reason until the hand-off is asked for again, and what the
    // provider refunded so far (the shop's refunds follow it).
    '2026-12-02-001-handoff-failures-and-refunds': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('jobs').addColumn('failed_at', 'bigint').execute();
        await db.schema.alterTable('orders').addColumn('handoff_error', 'text').execute();
        await db.schema
          .alterTable('orders')
          .addColumn('refunded_amount', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    // rules "Coupons", "Refunds": each line keeps the coupon's discount the checkout priced
    // for it (the hand-off sends it, the refunds read what a ticket cost), and how many of
    // its units a partial refund took back; a ticket whose price went back is marked, so a
    // dispute won never restores it. Lines of earlier orders carry 0: only their order's
    // discount is known (readers spread it themselves).
    '2026-12-03-002-order-line-discounts': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('order_lines')
          .addColumn('discount', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .alterTable('order_lines')
          .addColumn('refunded_quantity', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.alterTable('tickets').addColumn('refunded_at', 'bigint').execute();
      },
    },
    // rules "Coupons": one use of a coupon held by an open checkout (and by a paid order until
    // the shop has counted it), beside the places it holds
    // (docs/decisions/0013-coupon-uses-are-held.md). `holder` is a keyed hash of the buyer's
    // address, never the address.
    '2026-12-03-001-coupon-use-holds': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('coupon_holds')
          .addColumn('id', serial, autoId)
          .addColumn('owner', 'text', (c) => c.notNull())
          .addColumn('code', 'text', (c) => c.notNull())
          .addColumn('holder', 'text')
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('released', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        // The checkout's count reads the index alone.
        await db.schema
          .createIndex('coupon_holds_count_idx')
          .on('coupon_holds')
          .columns(['code', 'released', 'expires_at', 'holder'])
          .execute();
        await db.schema
          .createIndex('coupon_holds_owner_idx')
          .on('coupon_holds')
          .column('owner')
          .execute();
        // One row per coupon; PostgreSQL locks it (FOR UPDATE) to serialise its uses.
        await db.schema
          .createTable('coupon_locks')
          .addColumn('code', 'text', (c) => c.primaryKey())
          .execute();
      },
    },
    // rules "Orders made in the shop" (docs/decisions/0015-tickets-for-orders-made-in-the-shop.md):
    // an order made in WooCommerce itself gets tickets too. `shop_orders` keeps each such
    // order as the shop last reported it (its date_modified_gmt orders the reports), with
    // the billing address and name the ticket mail and the door need (docs/privacy.md);
    // `shop_order_sweeps` how far the sweep has read the shop's orders. A ticket now
    // belongs to an order of the site or of the shop (`shop-<id>`), so `tickets.order_id`
    // no longer references `orders`; a guest-list ticket (an order of 0 €) says so.
    '2026-12-03-004-shop-orders': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('shop_orders')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('number', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('modified_at', 'bigint', (c) => c.notNull())
          .addColumn('email', 'text')
          .addColumn('holder', 'text')
          .addColumn('total', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('shop_order_sweeps')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('high_water', 'bigint')
          .addColumn('last_run_at', 'bigint')
          .addColumn('last_read', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_applied', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_error', 'text')
          .execute();
        await dropTicketsOrderReference(db, kind);
        await db.schema
          .alterTable('tickets')
          .addColumn('guest_list', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    // rules "Tickets and the door": a short code per ticket for when the QR code will not
    // scan, random and unique within its event (the index enforces it; issuing draws again
    // on a collision). Tickets issued before get theirs here.
    '2026-12-03-005-ticket-short-codes': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('tickets').addColumn('code', 'text').execute();
        const tickets = await sql<{
          id: string;
          event_id: number;
        }>`select id, event_id from tickets order by event_id, id`.execute(db);
        const taken = new Map<number, Set<string>>();
        for (const { id, event_id: eventId } of tickets.rows) {
          const codes = taken.get(Number(eventId)) ?? new Set<string>();
          taken.set(Number(eventId), codes);
          let code = shortTicketCode();
          while (codes.has(code)) code = shortTicketCode();
          codes.add(code);
          await sql`update tickets set code = ${code} where id = ${id}`.execute(db);
        }
        await db.schema
          .createIndex('tickets_event_code_uq')
          .on('tickets')
          .columns(['event_id', 'code'])
          .unique()
          .execute();
      },
    },
    // rules "Named tickets": a ticket's holder (name, company; the address of a holder it
    // was passed on to) and its token's generation; passing it on raises the generation,
    // so earlier tokens are refused, and keeps the code it had for the door's list.
    '2026-12-04-001-ticket-holders': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('tickets').addColumn('holder_company', 'text').execute();
        await db.schema.alterTable('tickets').addColumn('holder_email', 'text').execute();
        await db.schema
          .alterTable('tickets')
          .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createTable('ticket_transfers')
          .addColumn('ticket_id', 'text', (c) => c.notNull().references('tickets.id'))
          .addColumn('generation', 'integer', (c) => c.notNull())
          .addColumn('previous_code', 'text')
          .addColumn('transferred_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('ticket_transfers_pk', ['ticket_id', 'generation'])
          .execute();
      },
    },
    // rules "The organizer": mails to every valid holder of an event, one recipient row per
    // address (by a ticket, so no address is copied), each sent by a job of its own.
    '2026-12-04-002-organizer-mails': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('organizer_mails')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('send_id', 'text', (c) => c.notNull().unique())
          .addColumn('event_id', 'integer', (c) => c.notNull())
          .addColumn('event_name', 'text', (c) => c.notNull())
          .addColumn('starts_at', 'text')
          .addColumn('subject', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .addColumn('recipients', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('organizer_mails_event_idx')
          .on('organizer_mails')
          .column('event_id')
          .execute();
        await db.schema
          .createTable('organizer_mail_recipients')
          .addColumn('mail_id', 'text', (c) => c.notNull().references('organizer_mails.id'))
          .addColumn('ticket_id', 'text', (c) => c.notNull())
          .addColumn('sent_at', 'bigint')
          .addPrimaryKeyConstraint('organizer_mail_recipients_pk', ['mail_id', 'ticket_id'])
          .execute();
      },
    },
    // rules "Reminders": each address a reminder went to, with the random token of its
    // unsubscribe link; unsubscribed_at stops both kinds for that address.
    '2026-12-04-003-reminders': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('reminder_addresses')
          .addColumn('email', 'text', (c) => c.primaryKey())
          .addColumn('token', 'text', (c) => c.notNull().unique())
          .addColumn('unsubscribed_at', 'bigint')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
    // rules "Giving a ticket back": a ticket offered back lends its place to the waiting
    // list until somebody buys it (docs/decisions/0020-a-returned-ticket-lends-its-place.md).
    '2026-12-05-001-ticket-returns': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('ticket_returns')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('ticket_id', 'text', (c) => c.notNull())
          .addColumn('order_id', 'text', (c) => c.notNull())
          .addColumn('product_key', 'integer', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('refund', 'integer', (c) => c.notNull())
          .addColumn('fee', 'integer', (c) => c.notNull())
          .addColumn('offer_id', 'integer')
          .addColumn('taken_by', 'text')
          .addColumn('refund_reference', 'text')
          .addColumn('closes_at', 'bigint', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        // One live return per ticket: a second "Ticket zurückgeben" finds the first.
        await db.schema
          .createIndex('ticket_returns_live_idx')
          .on('ticket_returns')
          .column('ticket_id')
          .unique()
          .where(sql<boolean>`status in ('offered', 'taken', 'refunded')`)
          .execute();
        await db.schema
          .createIndex('ticket_returns_unit_idx')
          .on('ticket_returns')
          .columns(['product_key', 'status'])
          .execute();
        await db.schema
          .createIndex('ticket_returns_offer_idx')
          .on('ticket_returns')
          .column('offer_id')
          .execute();
      },
    },
    // rules "Giving a ticket back": a return belongs to the holder generation that offered
    // it, so taking it revokes that holder's ticket and never a later one's.
    '2026-12-06-001-ticket-return-generation': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('ticket_returns')
          .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    // rules "Named tickets": who passed a ticket on, named in the new holder's mail.
    '2026-12-06-003-ticket-transfer-giver': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('ticket_transfers').addColumn('given_by', 'text').execute();
      },
    },
    // rules "The organizer": sessions kept in the store by the digest of their cookie, so
    // signing out ends one everywhere and a backup holds nothing a cookie can be made from.
    // The signed sessions before them and their key end here.
    '2026-12-06-002-organizer-sessions': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('organizer_sessions')
          .addColumn('id_hash', 'text', (c) => c.primaryKey())
          .addColumn('method', 'text', (c) => c.notNull())
          .addColumn('binding', 'text', (c) => c.notNull())
          .addColumn('name', 'text')
          .addColumn('email', 'text')
          .addColumn('username', 'text')
          .addColumn('sealed_password', 'text')
          .addColumn('checked_at', 'bigint', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .execute();
        await sql`delete from settings where key = 'organizer-session-key'`.execute(db);
      },
    },
    // docs/ledger.md "A sale counts once": a handed-off sale's hold counts only against stock
    // the shop reported before the hand-off's answer.
    '2026-12-06-004-settled-holds': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('holds').addColumn('settled_at', 'bigint').execute();
        await db.schema.alterTable('coupon_holds').addColumn('settled_at', 'bigint').execute();
      },
    },
    // docs/ledger.md "Told to the organizer": what the organizer must look at in the shop.
    '2026-12-07-001-organizer-notices': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('organizer_notices')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('order_id', 'text', (c) => c.notNull())
          .addColumn('shop_order', 'text')
          .addColumn('items', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('done_at', 'bigint')
          .execute();
        await db.schema
          .createIndex('organizer_notices_open')
          .on('organizer_notices')
          .columns(['done_at', 'created_at'])
          .execute();
      },
    },
    // rules "Tickets and the door": door sessions kept in the store by the digest of their
    // secret, so the organizer can end one device's, and a backup holds nothing a session
    // can be made from. The signed sessions before them and their key end here: each phone
    // asks for the door code once more.
    '2026-12-07-002-door-sessions': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('door_sessions')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('secret_hash', 'text', (c) => c.notNull())
          .addColumn('binding', 'text', (c) => c.notNull())
          .addColumn('device', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .execute();
        await sql`delete from settings where key = 'checkin-session-key'`.execute(db);
      },
    },
  };
}

/**
 * The short code as the migration that introduced it made it: 40 random bits in Crockford's
 * base32 (`machines/src/door/ticket-code.ts` makes them since; kept here so this migration
 * never changes).
 */
function shortTicketCode(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let bits = 0n;
  for (const byte of randomBytes(5)) bits = (bits << 8n) | BigInt(byte);
  let code = '';
  for (let shift = 35n; shift >= 0n; shift -= 5n) code += alphabet[Number((bits >> shift) & 31n)];
  return code;
}

/**
 * `tickets.order_id` stops referencing `orders` (rules "Orders made in the shop": a shop
 * order's tickets have no order of the site). PostgreSQL drops the constraint; SQLite
 * cannot, so the table is rebuilt from its own stored definition without the reference
 * (SQLite's documented way to change a table's schema), whatever columns it has gained,
 * with its indexes, and with foreign keys off meanwhile, as `checkins` reference it.
 */
async function dropTicketsOrderReference(db: Kysely<unknown>, kind: StoreKind): Promise<void> {
  if (kind === 'postgres') {
    const found = await sql<{ conname: string }>`select conname from pg_constraint
      where conrelid = 'tickets'::regclass and confrelid = 'orders'::regclass
        and contype = 'f'`.execute(db);
    for (const { conname } of found.rows) {
      await sql`alter table tickets drop constraint ${sql.id(conname)}`.execute(db);
    }
    return;
  }
  const table = await sql<{ sql: string }>`select sql from sqlite_master
    where type = 'table' and name = 'tickets'`.execute(db);
  const definition = table.rows[0]?.sql ?? '';
  const rebuilt = definition
    .replace(/^create table "tickets"/i, 'create table "tickets_rebuilt"')
    .replace(/\s+references\s+"orders"\s*\("id"\)/i, '');
  if (!rebuilt.startsWith('create table "tickets_rebuilt"') || /"orders"/.test(rebuilt)) {
    throw new Error('tickets: unexpected table definition, not rebuilt');
  }
  const indexes = await sql<{ sql: string }>`select sql from sqlite_master
    where type = 'index' and tbl_name = 'tickets' and sql is not null`.execute(db);
  // Migrations on SQLite run outside a transaction, so the pragma takes effect here.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      await sql.raw(rebuilt).execute(db);
      await sql`insert into tickets_rebuilt select * from tickets`.execute(db);
      await sql`drop table tickets`.execute(db);
      await sql`alter table tickets_rebuilt rename to tickets`.execute(db);
      for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length > 0) throw new Error('tickets: a reference broke in the rebuild');
      await sql`commit`.execute(db);
    } catch (err) {
      await sql`rollback`.execute(db);
      throw err;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

/** Runs pending migrations; Kysely's migration lock makes concurrent start-ups safe. */
export async function migrateToLatest(db: Kysely<unknown>, kind: StoreKind): Promise<void> {
  await migrate(db, kind, (migrator) => migrator.migrateToLatest());
}

/** Runs the migrations up to and including `name`: a test of one migration's data move. */
export async function migrateTo(db: Kysely<unknown>, kind: StoreKind, name: string): Promise<void> {
  await migrate(db, kind, (migrator) => migrator.migrateTo(name));
}

async function migrate(
  db: Kysely<unknown>,
  kind: StoreKind,
  run: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(kind) };
  const { error, results } = await run(new Migrator({ db, provider }));
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`Store migration failed: ${reason}`);
  }
}
