import { screen } from '@testing-library/react';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { SuccessView } from './success-view';

const paid = {
  id: 'cs_1',
  status: 'paid',
  orderNumber: '1001',
  lines: [{ name: 'Afterwork auf der Dachterrasse', quantity: 2, unitAmount: 2490 }],
  subtotal: 4980,
  discount: 498,
  total: 4482,
  currency: 'eur',
  couponCode: 'AFTERWORK10',
  email: null,
};

function renderSuccess(sessionId: string | null, onPaid = jest.fn()) {
  renderRoutes([{ path: '*', element: <SuccessView sessionId={sessionId} onPaid={onPaid} /> }]);
  return onPaid;
}

describe('SuccessView (DESIGN "/success")', () => {
  it('polls while processing, then shows the paid order and clears the cart once', async () => {
    let calls = 0;
    mockFetch({
      'GET /api/checkout/session/cs_1': () => {
        calls += 1;
        return { body: calls === 1 ? { ...paid, status: 'processing' } : paid };
      },
    });
    const onPaid = renderSuccess('cs_1');
    expect(
      await screen.findByText('Zahlung wird bestätigt …', { selector: 'strong' }),
    ).toBeInTheDocument();
    expect(onPaid).not.toHaveBeenCalled();
    expect(
      await screen.findByText('Danke für deine Bestellung!', {}, { timeout: 4000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('1001')).toBeInTheDocument();
    expect(screen.getByText('44,82 €')).toBeInTheDocument();
    expect(screen.getByText('−4,98 €')).toBeInTheDocument();
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it('explains an expired session and keeps the cart', async () => {
    mockFetch({
      'GET /api/checkout/session/cs_2': { body: { ...paid, id: 'cs_2', status: 'expired' } },
    });
    const onPaid = renderSuccess('cs_2');
    expect(await screen.findByText('Zahlung abgelaufen')).toBeInTheDocument();
    expect(screen.getByText(/Dein Warenkorb ist erhalten/)).toBeInTheDocument();
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('shows an error with retry when the server cannot answer', async () => {
    mockFetch({
      'GET /api/checkout/session/cs_3': {
        status: 503,
        body: {
          statusCode: 503,
          error: 'Service Unavailable',
          message: 'Der Server ist gerade überlastet.',
        },
      },
    });
    renderSuccess('cs_3');
    expect(await screen.findByText('Der Server ist gerade überlastet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeInTheDocument();
  });
});
