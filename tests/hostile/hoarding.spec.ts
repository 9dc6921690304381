import { apiErrorSchema } from '@awhh/machines';
import { FakeWooCommerce } from '../support/fake-woocommerce.js';
import { wooEvent, wooProduct, wooVariable } from '../support/woocommerce-fixtures.js';
import type { FakeStripe } from '../support/fake-stripe.js';
import {
  type BackendProcess,
  type CheckoutLine,
  clientHeaders,
} from '../fault/support/backend-process.js';
import { openFakeShop, type FakeShop } from '../fault/support/fake-shop.js';

/**
 * Hoarding: one unpaid request, or a few, must not hold an evening's seats. Against the
 * built process with Stripe (fake) and WooCommerce (fake): a checkout beyond the limits
 * per order is refused with a German 400 and holds nothing; a client address with three
 * unpaid checkouts gets a 429 with Retry-After until one is paid or lapses.
 */

const EVENING = 911;
const EVENING_NAME = 'Ganzer Abend im Hafenklang';
const SEATS = 120;
const eventDate = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
const TIERED = wooVariable(
  EVENING,
  {
    name: EVENING_NAME,
    slug: 'ganzer-abend',
    attribute: 'Ticket',
    manage_stock: true,
    stock_quantity: SEATS,
    categories: [{ id: 15, name: 'Events', slug: 'events' }],
    meta_data: [{ id: 9111, key: 'event_date', value: `${eventDate} 19:00:00` }],
  },
  [
    { id: 912, option: 'Regulär', regular_price: '25.00', manage_stock: 'parent' },
    { id: 913, option: 'Begleitung', regular_price: '25.00', manage_stock: 'parent' },
  ],
);
const tier = (variationId: number, quantity: number): CheckoutLine => ({
  productId: EVENING,
  variationId,
  name: EVENING_NAME,
  amount: 25,
  quantity,
});
const SIMPLE_EVENT = 914;
const PRINT = 915;
const BAG = 916;

let woo: FakeWooCommerce;
let stripe: FakeStripe;
let site: BackendProcess;
let shop: FakeShop;

beforeAll(async () => {
  woo = new FakeWooCommerce({
    products: [
      TIERED.product,
      wooEvent(SIMPLE_EVENT, { price: '19.90', regular_price: '19.90', stock_quantity: 200 }),
      wooProduct(PRINT, {
        name: 'Signierter Siebdruck',
        price: '40.00',
        regular_price: '40.00',
        stock_quantity: 30,
        sold_individually: true,
      }),
      wooProduct(BAG, { name: 'Jutebeutel', price: '12.50', regular_price: '12.50' }),
    ],
    variations: TIERED.variations,
  });
  shop = await openFakeShop(woo, 'hostile-hoarding');
  stripe = shop.stripe;
  site = await shop.start();
});

afterAll(() => shop?.close());

/** POST /api/checkout/session from one client address (X-Forwarded-For, as nginx sends it). */
function checkout(lines: CheckoutLine[], headers: Record<string, string> = clientHeaders()) {
  return fetch(`${site.url}/api/checkout/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      line_items: lines.map((l) => ({ ...l, currency: 'eur', images: [] })),
      success_url: `${site.url}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${site.url}/cart`,
      payment_method: 'card',
    }),
  });
}

/** The places still on sale, as the event page asks for them. */
async function freeSeats(): Promise<number | null> {
  const res = await fetch(`${site.url}/api/waitlist/availability/${EVENING}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { free: number | null }).free;
}

async function refused(res: Response, status: number) {
  expect(res.status).toBe(status);
  const body = apiErrorSchema.parse(await res.json());
  expect(body).toMatchObject({ statusCode: status });
  return body.message;
}

describe('hostile: no hoarding through the checkout', () => {
  it('one unpaid request for 99 + 21 seats: 400, nothing reserved, no payment session', async () => {
    const before = stripe.sessions.length;
    expect(await freeSeats()).toBe(SEATS);
    const message = await refused(await checkout([tier(912, 99), tier(913, 21)]), 400);
    expect(message).toMatch(/^Eine Bestellung umfasst höchstens 20 Artikel\./);
    expect(await freeSeats()).toBe(SEATS);
    expect(stripe.sessions.length).toBe(before);
    // The next buyer is not told "ausverkauft".
    expect((await checkout([tier(912, 2)])).status).toBe(201);
    expect(await freeSeats()).toBe(SEATS - 2);
  });

  it.each([
    ['11 seats of one event over two tiers', [tier(912, 6), tier(913, 5)], /höchstens 10 pro/],
    ['11 seats of one line', [tier(913, 11)], /höchstens 10 pro/],
    [
      '11 seats of an event without tiers',
      [{ productId: SIMPLE_EVENT, name: 'Testevent', amount: 19.9, quantity: 11 }],
      /höchstens 10 pro/,
    ],
    [
      '21 units in all, merch included',
      [tier(912, 10), { productId: BAG, name: 'Jutebeutel', amount: 12.5, quantity: 11 }],
      /^Eine Bestellung umfasst höchstens 20 Artikel/,
    ],
    [
      'a product sold individually twice',
      [{ productId: PRINT, name: 'Siebdruck', amount: 40, quantity: 2 }],
      /gibt es nur einmal pro Bestellung/,
    ],
    [
      'a product sold individually as two lines',
      [
        { productId: PRINT, name: 'Siebdruck', amount: 40, quantity: 1 },
        { productId: PRINT, name: 'Siebdruck', amount: 40, quantity: 1 },
      ],
      /gibt es nur einmal pro Bestellung/,
    ],
  ])('%s: 400 with a German reason, nothing reserved', async (_what, lines, reason) => {
    const before = stripe.sessions.length;
    const free = await freeSeats();
    expect(await refused(await checkout(lines), 400)).toMatch(reason);
    expect(await freeSeats()).toBe(free);
    expect(stripe.sessions.length).toBe(before);
  });

  it('a 4th open checkout from one address: 429 with Retry-After; other addresses go on', async () => {
    const same = clientHeaders();
    for (let i = 0; i < 3; i++) expect((await checkout([tier(912, 1)], same)).status).toBe(201);
    const free = await freeSeats();
    const before = stripe.sessions.length;

    const fourth = await checkout([tier(912, 1)], same);
    const message = await refused(fourth, 429);
    expect(message).toMatch(/schon 3 Bestellungen offen/);
    const retryAfter = Number(fourth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(31 * 60);
    expect(await freeSeats()).toBe(free);
    expect(stripe.sessions.length).toBe(before);

    expect((await checkout([tier(912, 1)])).status).toBe(201);
  });
});
