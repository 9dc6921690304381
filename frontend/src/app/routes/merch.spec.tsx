/** @jest-environment ./test/jsdom-env.cjs */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MerchDetail } from '@awhh/machines';
import { getCartActor } from '@/features/cart/cart-actor';
import { mug, shirt } from '../../../test/catalog-fixtures';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { Component, handle, loader } from './merch';

function renderMerch(item: MerchDetail | null, slug = item?.slug ?? 'gibt-es-nicht') {
  mockFetch({
    [`GET /api/merch/${slug}`]: item
      ? { body: item }
      : {
          status: 404,
          body: { statusCode: 404, error: 'Not Found', message: 'Produkt nicht gefunden.' },
        },
  });
  return renderRoutes(
    [{ path: '/merch/:slug', loader, Component, handle, HydrateFallback: () => null }],
    `/merch/${slug}`,
  );
}

const cartItems = () => getCartActor().getSnapshot().context.items;

beforeEach(() => {
  localStorage.clear();
  act(() => getCartActor().send({ type: 'cart.clear' }));
});

describe('merch page /merch/{slug} (rules "Everything the shop sells")', () => {
  it('shows image, name, price and the sanitised description', async () => {
    renderMerch(shirt);
    expect(await screen.findByRole('heading', { level: 1, name: 'AWHH T-Shirt' })).toBeVisible();
    expect(screen.getByRole('img', { name: shirt.image!.alt })).toHaveAttribute(
      'src',
      '/media/demo/merch-tshirt.svg',
    );
    expect(screen.getByText('Weiches Bio-Baumwoll-Shirt mit gesticktem Anker.').tagName).toBe('P');
    expect(document.title).toBe('AWHH T-Shirt | After Work Hamburg');
  });

  it('offers the sizes as a radio group: XL sold out and disabled, S chosen to begin with', async () => {
    renderMerch(shirt);
    const group = await screen.findByRole('group', { name: 'Größe wählen' });
    expect(within(group).getAllByRole('radio')).toHaveLength(4);
    expect(within(group).getByRole('radio', { name: 'S' })).toBeChecked();
    const xl = within(group).getByRole('radio', { name: 'XL' });
    expect(xl).toBeDisabled();
    // Every size costs the same: the price stands once above the group, not in each option.
    expect(xl).toHaveAccessibleDescription('Ausverkauft');
    expect(within(group).getByRole('radio', { name: 'L' })).toHaveAccessibleDescription(
      'Auf Lager',
    );
    expect(within(group).queryByText(/25,00/)).not.toBeInTheDocument();
  });

  it('adds the chosen size as its own line and confirms it', async () => {
    const user = userEvent.setup();
    renderMerch(shirt);
    await user.click(await screen.findByRole('radio', { name: 'L' }));
    await user.click(screen.getByRole('button', { name: 'Mehr' }));
    await user.click(screen.getByRole('button', { name: 'In den Warenkorb' }));

    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('2 × AWHH T-Shirt – L wurden in den Warenkorb gelegt.');
    expect(within(status).getByRole('link', { name: 'Zum Warenkorb' })).toHaveAttribute(
      'href',
      '/cart',
    );
    expect(cartItems()).toEqual([
      {
        id: '204:2043',
        productId: 204,
        variationId: 2043,
        name: 'AWHH T-Shirt – L',
        price: 25,
        quantity: 2,
        currency: 'eur',
        image: '/media/demo/merch-tshirt.svg',
        maxPerOrder: 20,
      },
    ]);
  });

  it('sells a simple product on sale: regular price struck, quantity up to the stock', async () => {
    const user = userEvent.setup();
    renderMerch(mug);
    const panel = await screen.findByRole('region', { name: 'Kaufen' });
    expect(within(panel).getByText('statt').closest('s')).toHaveTextContent('statt 12,00 €');
    expect(within(panel).getByText('Nur noch 6 verfügbar')).toBeVisible();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    expect(screen.getByRole('spinbutton', { name: 'Anzahl AWHH Emaille-Becher' })).toHaveAttribute(
      'max',
      '6',
    );

    await user.click(screen.getByRole('button', { name: 'In den Warenkorb' }));
    expect(cartItems()).toEqual([
      expect.objectContaining({ id: '202', productId: 202, name: mug.name, price: 9.9 }),
    ]);
    expect(cartItems()[0]).not.toHaveProperty('variationId');
  });

  it('a product sold individually: one per order, the second add is refused with a reason', async () => {
    const user = userEvent.setup();
    renderMerch({ ...mug, maxPerOrder: 1 });
    await screen.findByRole('button', { name: 'In den Warenkorb' });
    expect(screen.getByRole('button', { name: 'Mehr' })).toBeDisabled();
    expect(screen.getByText('Davon gibt es nur ein Stück pro Bestellung.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'In den Warenkorb' }));
    expect(await screen.findByText(/1 × AWHH Emaille-Becher wurde in den/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'In den Warenkorb' }));
    expect(await screen.findByText(/Mehr davon passt nicht in eine Bestellung/)).toBeVisible();
    expect(cartItems().map((i) => [i.id, i.quantity])).toEqual([['202', 1]]);
  });

  it('cannot buy a sold-out product', async () => {
    renderMerch({ ...mug, availability: 'sold_out', available: 0 });
    expect(await screen.findByRole('button', { name: 'Ausverkauft' })).toBeDisabled();
    expect(screen.getAllByText('Ausverkauft').length).toBeGreaterThan(1);
  });

  it('shows the 404 page for an unknown product', async () => {
    renderMerch(null);
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('Page not found: /merch/gibt-es-nicht')).toBeInTheDocument();
  });
});
