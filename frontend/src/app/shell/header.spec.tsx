import { act, screen } from '@testing-library/react';
import { CART_STORAGE_KEY } from '@awhh/machines';
import { getCartActor } from '@/features/cart/cart-actor';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { Header, SCROLL_THRESHOLD_PX } from './header';

function scrollTo(y: number) {
  act(() => {
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
    window.dispatchEvent(new Event('scroll'));
  });
}

function renderHeader() {
  return renderRoutes([{ path: '*', element: <Header /> }]);
}

beforeEach(() => {
  localStorage.clear();
  mockFetch({ 'GET /api/woocommerce/products': { body: [] } });
  getCartActor().send({ type: 'cart.clear' });
  Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
});

describe('Header (rules §2)', () => {
  it('shows the text "AWHH" at the top and the logo image only past 10 px', async () => {
    renderHeader();
    const home = await screen.findByRole('link', { name: /Startseite/ });
    expect(home).toHaveTextContent('AWHH');
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(home.closest('header')).toHaveAttribute('data-scrolled', 'false');

    scrollTo(SCROLL_THRESHOLD_PX);
    expect(home).toHaveTextContent('AWHH');
    expect(home.closest('header')).toHaveAttribute('data-scrolled', 'false');

    scrollTo(SCROLL_THRESHOLD_PX + 1);
    expect(screen.getByRole('img', { name: 'After Work Hamburg' })).toBeInTheDocument();
    expect(home).not.toHaveTextContent('AWHH');
    expect(home.closest('header')).toHaveAttribute('data-scrolled', 'true');

    scrollTo(0);
    expect(home).toHaveTextContent('AWHH');
  });

  it('hides the badge at 0 and shows the total item count above 0', async () => {
    renderHeader();
    const cartLink = await screen.findByRole('link', { name: /Warenkorb/ });
    expect(screen.queryByTestId('cart-badge')).not.toBeInTheDocument();

    act(() => {
      getCartActor().send({
        type: 'cart.add',
        item: { id: '7', name: 'Ticket', price: 10 },
        quantity: 2,
      });
      getCartActor().send({ type: 'cart.add', item: { id: '8', name: 'Shirt', price: 25 } });
    });
    expect(screen.getByTestId('cart-badge')).toHaveTextContent('3');
    expect(cartLink).toHaveAccessibleName('Warenkorb 3 Artikel');

    act(() => getCartActor().send({ type: 'cart.clear' }));
    expect(screen.queryByTestId('cart-badge')).not.toBeInTheDocument();
  });

  it('links "Nächstes Event" to /next until the feed has answered', () => {
    renderHeader();
    expect(screen.getByRole('link', { name: 'Nächstes Event' })).toHaveAttribute('href', '/next');
  });

  it('takes a cart saved by another tab', () => {
    renderHeader();
    act(() => {
      localStorage.setItem(
        CART_STORAGE_KEY,
        JSON.stringify([{ id: '9', name: 'Ticket', price: 5, quantity: 4 }]),
      );
      window.dispatchEvent(new StorageEvent('storage', { key: CART_STORAGE_KEY }));
    });
    expect(screen.getByTestId('cart-badge')).toHaveTextContent('4');
  });
});
