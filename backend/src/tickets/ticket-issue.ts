import { randomBytes } from 'node:crypto';
import {
  isEventProduct,
  resolveEventDate,
  TICKET_CODE_BYTES,
  ticketCodeFromBytes,
  variantLabel,
  venueOf,
} from '@awhh/machines';
import type { CatalogProduct } from '../catalog/catalog.port.js';
import { findStockUnit } from '../holds/stock-unit.js';
import type { NewTicket } from './tickets.port.js';
import type { OrderLine } from '../orders/orders.port.js';

/**
 * A ticket id: 9 random bytes, 12 characters. Short because it travels in the signed
 * token inside the QR code; the signature, not the id, makes a ticket unforgeable.
 */
export function newTicketId(): string {
  return `t${randomBytes(9).toString('base64url')}`;
}

/**
 * A short ticket code (rules "Tickets and the door"): 40 bits from the system's random
 * source, nothing derived from the ticket or the signing key. Unique per event is the
 * store's to enforce (`KyselyTicketRepository.issue` draws again on a collision).
 */
export function newTicketCode(): string {
  return ticketCodeFromBytes(randomBytes(TICKET_CODE_BYTES));
}

export interface TicketIssue {
  orderId: string;
  holder: string | null;
  /**
   * In `position` order, as the order repository returns them; a line may name its
   * position itself (an order made in the shop: WooCommerce's line item id).
   */
  lines: readonly (Pick<OrderLine, 'productId' | 'variationId' | 'quantity'> & {
    position?: number;
  })[];
  products: readonly CatalogProduct[];
  /** Guest-list seats (rules "Orders made in the shop": an order of 0 € made in the shop). */
  guestList?: boolean;
  newId?: () => string;
}

/**
 * rules "Tickets and the door": one ticket per event seat of a paid order (quantity 3 →
 * seats 1, 2, 3 of 3); merch lines get none. The event's name, date, venue and tier are
 * captured now, so a later change in the catalog does not rewrite a ticket already sold.
 * A line whose product the catalog no longer lists cannot be told apart from merch and
 * gets none (the caller logs it).
 */
export function ticketsFor(issue: TicketIssue): { tickets: NewTicket[]; unknown: number[] } {
  const newId = issue.newId ?? newTicketId;
  const tickets: NewTicket[] = [];
  const unknown: number[] = [];
  issue.lines.forEach((line, index) => {
    const position = line.position ?? index;
    // A tier the catalog no longer lists still gets its seats, without a tier name.
    const found =
      findStockUnit(issue.products, line.productId, line.variationId) ??
      findStockUnit(issue.products, line.productId, null);
    if (!found) {
      unknown.push(line.productId);
      return;
    }
    const { product, variation } = found;
    if (!isEventProduct(product)) return;
    const tier = variation ? variantLabel(variation.attributes) || null : null;
    const startsAt = resolveEventDate(product)?.date.toISOString() ?? null;
    const slug =
      typeof product.slug === 'string' && product.slug.trim() ? product.slug.trim() : null;
    for (let seat = 1; seat <= line.quantity; seat += 1) {
      tickets.push({
        id: newId(),
        orderId: issue.orderId,
        linePosition: position,
        seat,
        seats: line.quantity,
        eventId: product.id,
        variationId: line.variationId,
        eventName: product.name,
        eventSlug: slug,
        startsAt,
        venue: venueOf(product),
        tier,
        // rules "Named tickets": the buyer holds the order's first ticket; the others carry
        // a name once someone gives them one.
        holder: tickets.length === 0 ? issue.holder : null,
        guestList: issue.guestList ?? false,
      });
    }
  });
  return { tickets, unknown };
}
