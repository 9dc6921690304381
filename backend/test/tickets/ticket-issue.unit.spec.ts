import type { CatalogProduct } from '../../src/catalog/catalog.port.js';
import type { OrderLine } from '../../src/orders/orders.port.js';
import { newTicketId, ticketsFor } from '../../src/tickets/ticket-issue.js';

// rules "Tickets and the door": one ticket per event seat; merch gets none.

const event: CatalogProduct = {
  id: 7,
  name: 'Sommer-Afterwork',
  slug: 'sommer-afterwork',
  type: 'variable',
  meta_data: [
    { key: 'event_date', value: '2026-07-03T17:00:00.000Z' },
    { key: 'WooCommerceEventsLocation', value: 'Hafenklang' },
  ],
  images: [],
  categories: [],
  variants: [
    {
      id: 72,
      attributes: [{ name: 'Ticketart', option: 'VIP' }],
      price: 49,
      sale_price: null,
      on_sale: false,
      stock_quantity: 10,
      sharesParentStock: false,
      purchasable: true,
      image: null,
    },
  ],
};
const shirt: CatalogProduct = {
  id: 9,
  name: 'Shirt',
  slug: 'shirt',
  meta_data: [],
  images: [],
  categories: [],
  kind: 'product',
};

const line = (
  productId: number,
  quantity: number,
  variationId: number | null = null,
): OrderLine => ({
  productId,
  variationId,
  name: `Produkt ${productId}`,
  image: null,
  quantity,
  unitAmount: 1000,
  discount: 0,
  refundedQuantity: 0,
});

describe('ticketsFor', () => {
  it('a tier line of 2 gives seats 1 and 2 of 2 with the event captured; merch and unknown products none', () => {
    let n = 0;
    const { tickets, unknown } = ticketsFor({
      orderId: 'ord_1',
      holder: 'Karla Kundin',
      lines: [line(9, 3), line(7, 2, 72), line(404, 1)],
      products: [event, shirt],
      newId: () => `t${++n}`,
    });
    expect(unknown).toEqual([404]);
    expect(tickets).toEqual([
      expect.objectContaining({ id: 't1', linePosition: 1, seat: 1, seats: 2 }),
      expect.objectContaining({ id: 't2', linePosition: 1, seat: 2, seats: 2 }),
    ]);
    expect(tickets[0]).toMatchObject({
      orderId: 'ord_1',
      eventId: 7,
      variationId: 72,
      eventName: 'Sommer-Afterwork',
      eventSlug: 'sommer-afterwork',
      startsAt: '2026-07-03T17:00:00.000Z',
      venue: 'Hafenklang',
      tier: 'VIP',
      holder: 'Karla Kundin',
    });
    // rules "Named tickets": the buyer holds the order's first ticket only.
    expect(tickets[1]!.holder).toBeNull();
  });

  it('ticket ids are short and distinct', () => {
    const ids = new Set(Array.from({ length: 1000 }, newTicketId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^t[\w-]{12}$/);
  });
});
