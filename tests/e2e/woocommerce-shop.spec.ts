import { apiErrorSchema, eventDetailSchema } from '@awhh/machines';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { orderReference, recordedShop } from '../support/woocommerce-fixtures.js';
import { deliver, sessionEvent, type FakeStripe } from '../support/fake-stripe.js';
import {
  type BackendProcess,
  createCheckout,
  eventually,
} from '../fault/support/backend-process.js';
import { openFakeShop, type FakeShop } from '../fault/support/fake-shop.js';

/**
 * rules "Everything the shop sells" against a WooCommerce-shaped server: the built site
 * in its own process, reading the recorded WooCommerce 11 shop (event 42 with the tiers
 * Early Bird 43 sold out, Regulär 44, VIP 45 at 49 € instead of 59 € with 4 left) and
 * paying through a fake Stripe.
 */
const EVENT = 'Sommer-Afterwork auf der MS Hamburg';

let shop: FakeShop;
let woo: FakeWooCommerce;
let stripe: FakeStripe;
let site: BackendProcess;

beforeAll(async () => {
  shop = await openFakeShop(new FakeWooCommerce(recordedShop()), 'recorded-shop');
  ({ woo, stripe } = shop);
  site = await shop.start();
});

afterAll(() => shop?.close());

async function tiers() {
  const res = await fetch(`${site.url}/api/events/sommer-afterwork-ms-hamburg`);
  expect(res.status).toBe(200);
  return eventDetailSchema.parse(await res.json()).variants;
}

describe('a WooCommerce shop with a variable event', () => {
  it('shows the tiers with their own prices, sale prices and availability', async () => {
    expect(
      (await tiers()).map((t) => [
        t.id,
        t.name,
        t.price,
        t.regularPrice,
        t.availability,
        t.available,
      ]),
    ).toEqual([
      [43, 'Early Bird', 25, 25, 'sold_out', 0],
      [44, 'Regulär', 35, 35, 'available', 40],
      [45, 'VIP', 49, 59, 'few_left', 4],
    ]);
  });

  it('never sells the parent: 400 "Bitte wähle …", and no payment session', async () => {
    const before = stripe.sessions.length;
    const res = await createCheckout(site.url, [
      { productId: 42, name: EVENT, amount: 25, quantity: 3 },
    ]);
    expect(res.status).toBe(400);
    expect(apiErrorSchema.parse(await res.json()).message).toMatch(/^Bitte wähle /);
    expect(stripe.sessions.length).toBe(before);
  });

  it('sells VIP at its sale price and hands WooCommerce the variation and the buyer', async () => {
    const res = await createCheckout(site.url, [
      { productId: 42, variationId: 45, name: EVENT, amount: 49, quantity: 2 },
    ]);
    expect(res.status).toBe(201);
    const session = stripe.session(((await res.json()) as { id: string }).id)!;
    expect(session.unitAmounts).toEqual([4900]);
    expect(session.params).toMatchObject({
      line_items: [{ price_data: { product_data: { name: `${EVENT} – VIP` } } }],
    });

    const paid = await deliver(
      site.url,
      sessionEvent(session, 'checkout.session.completed', {
        email: 'karla@example.org',
        name: 'Karla Maria Kundin',
      }),
    );
    expect(paid.status).toBe(200);
    const order = await eventually(
      async () => woo.orders.find((o) => orderReference(o) === session.orderId),
      15_000,
      'the WooCommerce hand-off',
    );
    expect(order).toMatchObject({
      status: 'processing',
      billing: { first_name: 'Karla Maria', last_name: 'Kundin', email: 'karla@example.org' },
      line_items: [{ product_id: 42, variation_id: 45, quantity: 2 }],
      total: '98.00',
    });
    // WooCommerce took the seats from the VIP tier; the site shows it on its next reads.
    await eventually(
      async () => (await tiers()).find((t) => t.id === 45)?.available === 2,
      15_000,
      'the VIP tier at 2 seats',
    );
  });
});
