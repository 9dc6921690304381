import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CART_STORAGE_KEY, COUPON_STORAGE_KEY } from '@awhh/machines';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { getCartActor } from './cart-actor';
import { CartView } from './cart-view';

const ticket = { id: '101', productId: 101, name: 'Afterwork auf der Dachterrasse', price: 24.9 };

function renderCart() {
  return renderRoutes([{ path: '*', element: <CartView nextEventHref="/events/bald" /> }], '/cart');
}

beforeEach(() => {
  localStorage.clear();
  getCartActor().send({ type: 'cart.clear' });
});

describe('CartView', () => {
  it('shows the empty state with a way to the next event', () => {
    renderCart();
    expect(screen.getByRole('heading', { name: 'Dein Warenkorb ist leer' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zum nächsten Event' })).toHaveAttribute(
      'href',
      '/events/bald',
    );
  });

  it('changes quantities, sums up and removes lines', async () => {
    const user = userEvent.setup();
    act(() => getCartActor().send({ type: 'cart.add', item: ticket, quantity: 2 }));
    renderCart();
    expect(screen.getByText('Afterwork auf der Dachterrasse')).toBeInTheDocument();
    const totals = screen.getByText('Gesamt').closest('dl')!;
    expect(within(totals).getAllByText('49,80 €')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Mehr' }));
    expect(within(totals).getAllByText('74,70 €')).toHaveLength(2);
    expect(JSON.parse(localStorage.getItem(CART_STORAGE_KEY)!)[0].quantity).toBe(3);

    await user.click(
      screen.getByRole('button', { name: 'Afterwork auf der Dachterrasse entfernen' }),
    );
    expect(screen.getByRole('heading', { name: 'Dein Warenkorb ist leer' })).toBeInTheDocument();
  });

  it("stops a line at the product's limit per order and says why", async () => {
    const user = userEvent.setup();
    act(() => {
      getCartActor().send({ type: 'cart.add', item: { ...ticket, maxPerOrder: 3 }, quantity: 2 });
      getCartActor().send({
        type: 'cart.add',
        item: { id: '205', productId: 205, name: 'Siebdruck', price: 40, maxPerOrder: 1 },
      });
    });
    renderCart();
    const line = screen.getByRole('group', { name: 'Anzahl für Afterwork auf der Dachterrasse' });
    expect(screen.queryByText(/pro Bestellung möglich/)).not.toBeInTheDocument();
    await user.click(within(line).getByRole('button', { name: 'Mehr' }));
    expect(within(line).getByRole('spinbutton')).toHaveValue(3);
    expect(within(line).getByRole('button', { name: 'Mehr' })).toBeDisabled();
    expect(screen.getByText('Davon sind höchstens 3 pro Bestellung möglich.')).toBeVisible();
    const print = screen.getByRole('group', { name: 'Anzahl für Siebdruck' });
    expect(within(print).getByRole('button', { name: 'Mehr' })).toBeDisabled();
    expect(screen.getByText('Davon gibt es nur ein Stück pro Bestellung.')).toBeVisible();
  });

  it('applies a coupon the server accepts and shows the discount', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'POST /api/coupons/validate': {
        body: { code: 'AFTERWORK10', discountType: 'percent', discount: 10 },
      },
    });
    act(() => getCartActor().send({ type: 'cart.add', item: ticket, quantity: 2 }));
    renderCart();
    // The form loads apart from the cart (cart-view.tsx).
    await user.type(await screen.findByLabelText('Gutscheincode'), 'afterwork10');
    await user.click(screen.getByRole('button', { name: 'Einlösen' }));

    expect(await screen.findByText(/eingelöst/)).toBeInTheDocument();
    expect(calls[0]!.body).toEqual({
      code: 'afterwork10',
      subtotal: 49.8,
      lines: [{ productId: 101, quantity: 2 }],
    });
    // rules "Everything the shop sells": shown as typed, not in the catalog's spelling.
    expect(screen.getByText('Gutschein afterwork10')).toBeInTheDocument();
    expect(screen.getAllByText('−4,98 €').length).toBeGreaterThan(0);
    const totals = screen.getByText('Gesamt').closest('dl')!;
    expect(within(totals).getByText('44,82 €')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(COUPON_STORAGE_KEY)!).code).toBe('afterwork10');

    await user.click(screen.getByRole('button', { name: 'Gutschein entfernen' }));
    await waitFor(() =>
      expect(screen.queryByText(/Gutschein afterwork10/)).not.toBeInTheDocument(),
    );
    expect(localStorage.getItem(COUPON_STORAGE_KEY)).toBeNull();
  });

  it("shows the server's German reason when a coupon is refused", async () => {
    const user = userEvent.setup();
    mockFetch({
      'POST /api/coupons/validate': {
        status: 404,
        body: {
          statusCode: 404,
          error: 'Not Found',
          message: 'Diesen Gutscheincode gibt es nicht.',
        },
      },
    });
    act(() => getCartActor().send({ type: 'cart.add', item: ticket }));
    renderCart();
    await user.click(await screen.findByRole('button', { name: 'Einlösen' }));
    expect(await screen.findByText('Bitte gib einen Gutscheincode ein.')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Gutscheincode'), 'FALSCH');
    await user.click(screen.getByRole('button', { name: 'Einlösen' }));
    expect(await screen.findByText('Diesen Gutscheincode gibt es nicht.')).toBeInTheDocument();
    expect(screen.getByLabelText('Gutscheincode')).toHaveAttribute('aria-invalid', 'true');
    expect(getCartActor().getSnapshot().context.coupon).toBeNull();
  });

  describe('rules "Coupons": the server\'s discount and reason', () => {
    const vip = { id: '1090:1093', productId: 1090, variationId: 1093, name: 'VIP', price: 49 };
    const regular = {
      id: '1090:1091',
      productId: 1090,
      variationId: 1091,
      name: 'Regulär',
      price: 25,
    };
    const reason = 'Dieser Gutschein gilt nur für „VIP“.';

    it('shows the figure the server computed for the lines, and asks again when they change', async () => {
      const user = userEvent.setup();
      const { calls } = mockFetch({
        'POST /api/coupons/validate': (body) => ({
          body: {
            code: 'NURVIP',
            discountType: 'percent',
            discount: 50,
            discountCents: 2450 * (body as { lines: { quantity: number }[] }).lines[0]!.quantity,
          },
        }),
      });
      act(() => {
        getCartActor().send({ type: 'cart.add', item: vip });
        getCartActor().send({ type: 'cart.add', item: regular });
      });
      renderCart();
      await user.type(await screen.findByLabelText('Gutscheincode'), 'NURVIP');
      await user.click(screen.getByRole('button', { name: 'Einlösen' }));
      // 50 % of the VIP line only, not of the whole 74 €.
      expect((await screen.findAllByText(/−24,50 €/)).length).toBeGreaterThan(0);
      const totals = screen.getByText('Gesamt').closest('dl')!;
      expect(within(totals).getByText('49,50 €')).toBeInTheDocument();

      const line = screen.getByRole('group', { name: 'Anzahl für VIP' });
      await user.click(within(line).getByRole('button', { name: 'Mehr' }));
      await waitFor(() => expect(calls).toHaveLength(2));
      expect(calls[1]!.body).toMatchObject({
        code: 'NURVIP',
        lines: [
          { productId: 1090, variationId: 1093, quantity: 2 },
          { productId: 1090, variationId: 1091, quantity: 1 },
        ],
      });
      expect((await screen.findAllByText(/−49,00 €/)).length).toBeGreaterThan(0);
      expect(within(totals).getByText('74,00 €')).toBeInTheDocument();
    });

    it('refuses a coupon that does not cover the cart, with the reason', async () => {
      const user = userEvent.setup();
      mockFetch({
        'POST /api/coupons/validate': {
          status: 422,
          body: { statusCode: 422, error: 'Unprocessable Entity', message: reason },
        },
      });
      act(() => getCartActor().send({ type: 'cart.add', item: regular }));
      renderCart();
      await user.type(await screen.findByLabelText('Gutscheincode'), 'NURVIP');
      await user.click(screen.getByRole('button', { name: 'Einlösen' }));
      expect(await screen.findByText(reason)).toBeInTheDocument();
      expect(getCartActor().getSnapshot().context.coupon).toBeNull();
    });
  });
});
