import { DAY_MS } from '@awhh/machines';
import type { StoreDb } from '../../../src/store/store.database.js';

/** A fixed "now" for the retention tests: a Tuesday noon in Berlin. */
export const NOW = Date.parse('2027-06-15T10:00:00Z');
export const daysAgo = (days: number) => NOW - days * DAY_MS;
export const iso = (ms: number) => new Date(ms).toISOString();

/** Rows of the store as the checkout, the door, the mailbox and the forms write them. */
export class Seed {
  private seq = 0;

  constructor(private readonly db: StoreDb) {}

  async order(
    id: string,
    status: string,
    createdAt: number,
    people: { email: string | null; name: string | null },
    paidAt: number | null = null,
  ): Promise<void> {
    await this.db
      .insertInto('orders')
      .values({
        id,
        session_id: `tps_${id}`,
        provider: 'test',
        status,
        email: people.email,
        buyer_name: people.name,
        coupon_code: null,
        coupon_entered: null,
        subtotal: 5000,
        discount: 0,
        total: 5000,
        currency: 'eur',
        payment_method: 'card',
        success_url: 'http://shop.test/success?session_id={CHECKOUT_SESSION_ID}',
        cancel_url: 'http://shop.test/cart',
        payment_url: null,
        payment_reference: paidAt === null ? null : `pi_${id}`,
        catalog_order_id: status === 'handedOff' ? '1001' : null,
        refund_reference: null,
        created_at: createdAt,
        expires_at: createdAt + 31 * 60_000,
        paid_at: paidAt,
        updated_at: paidAt ?? createdAt,
      })
      .execute();
    await this.db
      .insertInto('order_lines')
      .values({
        order_id: id,
        position: 0,
        product_id: 101,
        variation_id: null,
        name: 'Afterwork im Hafen',
        image: null,
        quantity: 2,
        unit_amount: 2500,
      })
      .execute();
  }

  async ticket(orderId: string, startsAt: number | null, holder: string | null): Promise<string> {
    const id = `t${++this.seq}${orderId}`;
    await this.db
      .insertInto('tickets')
      .values({
        id,
        order_id: orderId,
        line_position: 0,
        seat: this.seq,
        seats: 2,
        event_id: 101,
        variation_id: null,
        event_name: 'Afterwork im Hafen',
        event_slug: 'afterwork-im-hafen',
        // As the catalog gives it: Berlin time with its offset.
        starts_at: startsAt === null ? null : iso(startsAt).replace('Z', '+00:00'),
        venue: 'Hafen',
        tier: null,
        holder,
        status: 'valid',
        issued_at: NOW - 300 * DAY_MS,
        revoked_at: null,
      })
      .execute();
    return id;
  }

  async checkin(ticketId: string, receivedAt: number, device: string): Promise<void> {
    const scanId = `scan-${++this.seq}`;
    await this.db
      .insertInto('checkins')
      .values({
        ticket_id: ticketId,
        scan_id: scanId,
        scanned_at: receivedAt,
        device,
        received_at: receivedAt,
      })
      .execute();
    await this.scan(ticketId, receivedAt, device, scanId);
  }

  async scan(
    ticketId: string | null,
    receivedAt: number,
    device: string,
    scanId = `scan-${++this.seq}`,
  ): Promise<void> {
    await this.db
      .insertInto('checkin_scans')
      .values({
        scan_id: scanId,
        ticket_id: ticketId,
        scanned_at: receivedAt,
        device,
        status: ticketId ? 'ok' : 'invalid',
        received_at: receivedAt,
      })
      .execute();
  }

  async mail(id: string, to: string, createdAt: number): Promise<void> {
    await this.db
      .insertInto('mails')
      .values({
        id,
        to_address: to,
        from_address: 'tickets@shop.test',
        subject: 'Deine Tickets',
        html: '<p>Hallo</p>',
        text: 'Hallo',
        created_at: createdAt,
      })
      .execute();
    await this.db
      .insertInto('mail_attachments')
      .values({
        mail_id: id,
        position: 0,
        filename: 'ticket.pdf',
        content_type: 'application/pdf',
        size: 3,
        content: 'UERG',
      })
      .execute();
  }

  async contact(email: string, createdAt: number): Promise<void> {
    await this.db
      .insertInto('contact_messages')
      .values({ name: 'Gast', email, message: 'Hallo!', created_at: createdAt })
      .execute();
  }

  async waitlistEntry(
    id: string,
    email: string,
    createdAt: number,
    startsAt: number | null,
  ): Promise<void> {
    await this.db
      .insertInto('waitlist_entries')
      .values({
        id,
        product_id: 101,
        variation_id: null,
        product_key: 101 + this.seq++,
        quantity: 1,
        email,
        status: 'offered',
        line_name: 'Afterwork im Hafen',
        event_slug: null,
        starts_at: startsAt,
        confirm_token: `c-${id}`,
        unsubscribe_token: `u-${id}`,
        created_at: createdAt,
        confirmed_at: createdAt,
      })
      .execute();
    const hold = await this.db
      .insertInto('holds')
      .values({
        owner: id,
        product_key: 101,
        quantity: 1,
        expires_at: createdAt + DAY_MS,
        released: 0,
        sold: 0,
        claim_token: `o-${id}`,
        claimed_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const offer = await this.db
      .insertInto('waitlist_offers')
      .values({
        entry_id: id,
        token: `o-${id}`,
        hold_id: hold.id,
        status: 'expired',
        created_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.db
      .insertInto('jobs')
      .values({
        name: 'waitlist-offer-mail',
        key: String(offer.id),
        subject: id,
        payload: JSON.stringify({ entryId: id, offerId: offer.id }),
        requested_at: createdAt,
        attempts: 1,
        next_attempt_at: createdAt,
        lease_owner: null,
        lease_until: null,
        done_at: createdAt,
        last_error: null,
        created_at: createdAt,
      })
      .execute();
  }

  async outboxError(orderId: string, error: string): Promise<void> {
    await this.db
      .insertInto('jobs')
      .values({
        name: 'ticket-mail',
        key: orderId,
        subject: orderId,
        payload: JSON.stringify({ orderId }),
        requested_at: NOW - 200 * DAY_MS,
        attempts: 3,
        next_attempt_at: NOW,
        lease_owner: null,
        lease_until: null,
        done_at: null,
        last_error: error,
        created_at: NOW - 200 * DAY_MS,
      })
      .execute();
  }
}
