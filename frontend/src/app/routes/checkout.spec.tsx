import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  CART_STORAGE_KEY,
  COUPON_WRONG_EMAIL_MESSAGE,
  INVALID_EMAIL_MESSAGE,
} from '@awhh/machines';
import { getCartActor } from '@/features/cart/cart-actor';
import { isAllowedRedirect } from '@/features/checkout/checkout-api';
import { COUPON_EMAIL_HINT, COUPON_EMAIL_LABEL } from '@/features/checkout/checkout-view';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { Component as CheckoutPage } from './checkout';

const ticket = { id: '101', productId: 101, name: 'Afterwork auf der Dachterrasse', price: 24.9 };
const shirt = { id: '301', productId: 301, name: 'AWHH Shirt', price: 29 };

function renderCheckout() {
  return renderRoutes([{ path: '/checkout', element: <CheckoutPage /> }], '/checkout');
}

async function order(user: ReturnType<typeof userEvent.setup>) {
  const button = screen.getByRole('button', { name: 'Zahlungspflichtig bestellen' });
  expect(button).toBeDisabled();
  await user.click(screen.getByLabelText(/Teilnahmebedingungen/));
  expect(button).toBeEnabled();
  await user.click(button);
}

beforeEach(() => {
  localStorage.clear();
  getCartActor().send({ type: 'cart.clear' });
  act(() => {
    getCartActor().send({ type: 'cart.add', item: ticket, quantity: 3 });
    getCartActor().send({ type: 'cart.add', item: shirt });
  });
});

describe('Checkout page', () => {
  it('sends the cart as rules §7 asks', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'GET /api/woocommerce/products': { body: [] },
      'POST /api/checkout/session': {
        status: 503,
        body: {
          statusCode: 503,
          error: 'Service Unavailable',
          message: 'Der Zahlungsdienst ist gerade nicht erreichbar.',
        },
      },
    });
    renderCheckout();
    await order(user);
    await screen.findByText('Der Zahlungsdienst ist gerade nicht erreichbar.');
    const body = calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      success_url: `${window.location.origin}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: window.location.href,
      payment_method: 'card',
      coupon: null,
      line_items: [
        { name: ticket.name, amount: 24.9, quantity: 3, currency: 'eur', productId: 101 },
        { name: shirt.name, amount: 29, quantity: 1, currency: 'eur', productId: 301 },
      ],
    });
  });

  it('keeps the cart and says so when the server fails (503)', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/woocommerce/products': { body: [] },
      'POST /api/checkout/session': {
        status: 503,
        body: {
          statusCode: 503,
          error: 'Service Unavailable',
          message: 'Der Zahlungsdienst ist gerade nicht erreichbar.',
        },
      },
    });
    renderCheckout();
    const before = localStorage.getItem(CART_STORAGE_KEY);
    await order(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Der Zahlungsdienst ist gerade nicht erreichbar.');
    expect(alert).toHaveTextContent('Dein Warenkorb bleibt erhalten.');
    expect(localStorage.getItem(CART_STORAGE_KEY)).toBe(before);
    expect(getCartActor().getSnapshot().context.items).toHaveLength(2);
    // A second attempt is possible.
    expect(screen.getByRole('button', { name: 'Zahlungspflichtig bestellen' })).toBeEnabled();
  });

  it.each([
    [
      400,
      'Bad Request',
      'Von „Afterwork auf der Dachterrasse“ sind höchstens 2 pro Bestellung möglich. Bitte verringere die Anzahl im Warenkorb.',
    ],
    [
      429,
      'Too Many Requests',
      'Von deinem Anschluss aus sind schon 3 Bestellungen offen, die noch nicht bezahlt sind. Bitte schließe eine davon ab oder versuche es in 30 Minuten erneut – dein Warenkorb bleibt erhalten.',
    ],
  ])(
    "an order limit (%i) shows the server's message and keeps the cart",
    async (status, error, message) => {
      const user = userEvent.setup();
      mockFetch({
        'GET /api/woocommerce/products': { body: [] },
        'POST /api/checkout/session': { status, body: { statusCode: status, error, message } },
      });
      renderCheckout();
      const before = localStorage.getItem(CART_STORAGE_KEY);
      await order(user);
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(message);
      expect(alert).toHaveTextContent('Dein Warenkorb bleibt erhalten.');
      expect(localStorage.getItem(CART_STORAGE_KEY)).toBe(before);
      expect(getCartActor().getSnapshot().context.items).toHaveLength(2);
    },
  );

  it('explains a 409 and takes the current prices and stock into the cart', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/woocommerce/products': { body: [] },
      'POST /api/checkout/session': {
        status: 409,
        body: {
          statusCode: 409,
          error: 'Conflict',
          message: 'Preise oder Verfügbarkeit haben sich geändert.',
          lines: [
            { productId: 101, name: ticket.name, price: 24.9, available: 2 },
            { productId: 301, name: shirt.name, price: 32, available: null },
          ],
        },
      },
    });
    renderCheckout();
    await order(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Preise oder Verfügbarkeit haben sich geändert.');
    expect(alert).toHaveTextContent(`${ticket.name}: nur noch 2 verfügbar – Anzahl angepasst.`);
    expect(alert).toHaveTextContent(`${shirt.name}: Preis jetzt 32,00 € statt 29,00 €.`);

    const items = getCartActor().getSnapshot().context.items;
    expect(items.find((i) => i.id === '101')?.quantity).toBe(2);
    expect(items.find((i) => i.id === '301')?.price).toBe(32);
    const review = screen.getByRole('region', { name: 'Deine Bestellung' });
    expect(within(review).getByText('Gesamtbetrag').nextSibling).toHaveTextContent('81,80 €');
  });

  it('sends ticket tiers with their variationId and applies a 409 to the right tier only', async () => {
    const user = userEvent.setup();
    const tier = (variationId: number, option: string, price: number) => ({
      id: `109:${variationId}`,
      productId: 109,
      variationId,
      name: `Sommer-Afterwork auf der MS Hamburg – ${option}`,
      price,
    });
    act(() => {
      getCartActor().send({ type: 'cart.clear' });
      getCartActor().send({ type: 'cart.add', item: tier(1093, 'VIP', 49), quantity: 3 });
      getCartActor().send({ type: 'cart.add', item: tier(1092, 'Regulär', 35) });
    });
    const { calls } = mockFetch({
      'GET /api/woocommerce/products': { body: [] },
      'POST /api/checkout/session': {
        status: 409,
        body: {
          statusCode: 409,
          error: 'Conflict',
          message: 'Preise oder Verfügbarkeit haben sich geändert.',
          lines: [
            {
              productId: 109,
              variationId: 1093,
              name: 'Sommer-Afterwork auf der MS Hamburg – VIP',
              price: 49,
              available: 2,
            },
          ],
        },
      },
    });
    renderCheckout();
    const review = screen.getByRole('region', { name: 'Deine Bestellung' });
    expect(within(review).getByText('Sommer-Afterwork auf der MS Hamburg – VIP')).toBeVisible();
    await order(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Sommer-Afterwork auf der MS Hamburg – VIP: nur noch 2 verfügbar – Anzahl angepasst.',
    );
    const body = calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
    expect(body.line_items).toEqual([
      expect.objectContaining({ productId: 109, variationId: 1093, amount: 49, quantity: 3 }),
      expect.objectContaining({ productId: 109, variationId: 1092, amount: 35, quantity: 1 }),
    ]);
    // Matched by productId:variationId: the VIP line shrinks, the Regulär line is untouched.
    expect(
      getCartActor()
        .getSnapshot()
        .context.items.map((i) => [i.id, i.quantity]),
    ).toEqual([
      ['109:1093', 2],
      ['109:1092', 1],
    ]);
  });

  it('refuses to send the buyer to a foreign address', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/woocommerce/products': { body: [] },
      'POST /api/checkout/session': { body: { id: 'cs_1', url: 'https://evil.example/pay' } },
    });
    renderCheckout();
    await order(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('unbekannte Adresse');
    expect(getCartActor().getSnapshot().context.items).toHaveLength(2);
  });
});

describe('rules "Coupons": a coupon bound to e-mail addresses at the checkout', () => {
  const bound = { code: 'FIRMA15', discountType: 'percent', discount: 15, needsEmail: true };
  const unavailable = {
    status: 503,
    body: {
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Der Zahlungsdienst ist gerade nicht erreichbar.',
    },
  };
  const refused = (message: string) => ({
    status: 422,
    body: { statusCode: 422, error: 'Unprocessable Entity', message, needsEmail: true },
  });
  const posted = (calls: { method: string; body: unknown }[]) =>
    calls.filter((c) => c.method === 'POST').map((c) => c.body as Record<string, unknown>);

  it('asks for the address before the order button, checks it and sends it', async () => {
    act(() => {
      getCartActor().send({ type: 'cart.applyCoupon', coupon: bound });
    });
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'GET /api/woocommerce/products': { body: [] },
      'POST /api/checkout/session': unavailable,
    });
    renderCheckout();
    const field = screen.getByLabelText(COUPON_EMAIL_LABEL);
    expect(field).toHaveAttribute('type', 'email');
    expect(field).toHaveAttribute('autocomplete', 'email');
    expect(field).toHaveAccessibleDescription(COUPON_EMAIL_HINT);
    // Before the order button, in the form that sends the order.
    const button = screen.getByRole('button', { name: 'Zahlungspflichtig bestellen' });
    expect(field.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    await user.type(field, 'anna(at)firma.example');
    await order(user);
    expect(await screen.findByText(INVALID_EMAIL_MESSAGE)).toBeVisible();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
    expect(posted(calls)).toEqual([]);

    await user.clear(field);
    expect(field).not.toHaveAttribute('aria-invalid');
    await user.type(field, ' anna@firma.example ');
    await user.click(button);
    await screen.findByText('Der Zahlungsdienst ist gerade nicht erreichbar.');
    expect(posted(calls)).toEqual([
      expect.objectContaining({ email: 'anna@firma.example', coupon: bound }),
    ]);
  });

  it("shows the server's refusal for the address beside the field and keeps the cart", async () => {
    act(() => {
      getCartActor().send({ type: 'cart.applyCoupon', coupon: bound });
    });
    const user = userEvent.setup();
    mockFetch({
      'GET /api/woocommerce/products': { body: [] },
      'POST /api/checkout/session': refused(COUPON_WRONG_EMAIL_MESSAGE),
    });
    renderCheckout();
    const before = localStorage.getItem(CART_STORAGE_KEY);
    const field = screen.getByLabelText(COUPON_EMAIL_LABEL);
    await user.type(field, 'otto@example.org');
    await order(user);
    expect(await screen.findByText(COUPON_WRONG_EMAIL_MESSAGE)).toBeVisible();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(`${COUPON_WRONG_EMAIL_MESSAGE} ${COUPON_EMAIL_HINT}`);
    expect(field).toHaveFocus();
    // Beside the field, not once more above it.
    expect(screen.getAllByText(COUPON_WRONG_EMAIL_MESSAGE)).toHaveLength(1);
    expect(localStorage.getItem(CART_STORAGE_KEY)).toBe(before);
    expect(getCartActor().getSnapshot().context.coupon).toMatchObject({ code: 'FIRMA15' });
    // Another address: the old reason no longer stands beside it.
    await user.clear(field);
    await user.type(field, 'anna@firma.example');
    expect(screen.queryByText(COUPON_WRONG_EMAIL_MESSAGE)).toBeNull();
  });

  it("a coupon the cart did not know to be bound: the server's refusal brings the field", async () => {
    const message =
      'Dieser Gutschein ist an E-Mail-Adressen gebunden. Bitte gib deine E-Mail-Adresse an.';
    act(() => {
      getCartActor().send({
        type: 'cart.applyCoupon',
        coupon: { code: 'FIRMA15', discountType: 'percent', discount: 15 },
      });
    });
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'GET /api/woocommerce/products': { body: [] },
      'POST /api/checkout/session': (body) =>
        (body as { email?: string }).email ? unavailable : refused(message),
    });
    renderCheckout();
    expect(screen.queryByLabelText(COUPON_EMAIL_LABEL)).toBeNull();
    await order(user);
    const field = await screen.findByLabelText(COUPON_EMAIL_LABEL);
    expect(screen.getByText(message)).toBeVisible();
    await user.type(field, 'anna@firma.example');
    await user.click(screen.getByRole('button', { name: 'Zahlungspflichtig bestellen' }));
    await screen.findByText('Der Zahlungsdienst ist gerade nicht erreichbar.');
    expect(posted(calls).map((b) => b.email)).toEqual([undefined, 'anna@firma.example']);
  });
});

describe('isAllowedRedirect', () => {
  it('accepts our origin and Stripe Checkout only', () => {
    const own = 'https://awhh.example';
    expect(isAllowedRedirect('/api/checkout/test-provider/cs_1', own)).toBe(true);
    expect(isAllowedRedirect('https://awhh.example/x', own)).toBe(true);
    expect(isAllowedRedirect('https://checkout.stripe.com/c/pay/cs_1', own)).toBe(true);
    expect(isAllowedRedirect('https://checkout.stripe.com.evil.example/', own)).toBe(false);
    expect(isAllowedRedirect('javascript:alert(1)', own)).toBe(false);
    expect(isAllowedRedirect('http://checkout.stripe.com/', own)).toBe(false);
  });
});
