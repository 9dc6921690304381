import { screen, within } from '@testing-library/react';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { DETAILS_WITHHELD_TEXT, SuccessView } from './success-view';

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

describe('SuccessView (rules "/success")', () => {
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
    expect(await screen.findByText('Danke für deine Bestellung!')).toBeInTheDocument();
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

  it("lists the paid order's tickets with links to their pages, the mail and the test mailbox", async () => {
    const link = (seat: number, status: 'valid' | 'revoked' = 'valid') => ({
      token: `tok.en.${seat}`,
      status,
      eventName: 'Sommer-Afterwork auf der MS Hamburg',
      tier: 'VIP',
      seat,
      seats: 2,
    });
    mockFetch({
      'GET /api/checkout/session/cs_4': {
        body: {
          ...paid,
          id: 'cs_4',
          email: 'erika@example.org',
          tickets: [link(1), link(2, 'revoked')],
          mailboxUrl: '/mail-test',
        },
      },
    });
    renderRoutes([
      {
        path: '*',
        element: (
          <SuccessView
            sessionId="cs_4"
            onPaid={jest.fn()}
            ticketExtras={(order) => <p>Formular für {order.email}</p>}
          />
        ),
      },
    ]);
    const section = await screen.findByRole('region', { name: 'Deine Tickets' });
    const links = within(section).getAllByRole('link', { name: /^Dein Ticket für/ });
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Dein Ticket für Sommer-Afterwork auf der MS Hamburg – VIP (1 von 2)', '/tickets/tok.en.1'],
      ['Dein Ticket für Sommer-Afterwork auf der MS Hamburg – VIP (2 von 2)', '/tickets/tok.en.2'],
    ]);
    expect(within(section).getByText('– storniert')).toBeInTheDocument();
    expect(within(section).getByText(/Deine Tickets kommen auch per E-Mail/)).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Zum Testpostfach' })).toHaveAttribute(
      'href',
      '/mail-test',
    );
    expect(screen.getByText('Formular für erika@example.org')).toBeInTheDocument();
  });

  it('shows no ticket section for an order without tickets and no mailbox link outside test mode', async () => {
    mockFetch({
      'GET /api/checkout/session/cs_5': {
        body: { ...paid, id: 'cs_5', tickets: [], mailboxUrl: null },
      },
    });
    renderRoutes([
      {
        path: '*',
        element: (
          <SuccessView sessionId="cs_5" onPaid={jest.fn()} ticketExtras={() => <p>Formular</p>} />
        ),
      },
    ]);
    expect(await screen.findByText('Danke für deine Bestellung!')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Ticket/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Zum Testpostfach' })).not.toBeInTheDocument();
    expect(screen.queryByText('Formular')).not.toBeInTheDocument();
  });

  it('a day after the payment: no tickets or address from the server, a pointer to the mail and the resend form', async () => {
    mockFetch({
      'GET /api/checkout/session/cs_6': {
        body: { ...paid, id: 'cs_6', email: null, tickets: [], detailsWithheld: true },
      },
    });
    renderRoutes([
      {
        path: '*',
        element: (
          <SuccessView
            sessionId="cs_6"
            onPaid={jest.fn()}
            ticketExtras={(order) => <p>Formular für {order.email ?? 'eine Adresse'}</p>}
          />
        ),
      },
    ]);
    expect(await screen.findByText('Danke für deine Bestellung!')).toBeInTheDocument();
    const section = screen.getByRole('region', { name: 'Deine Tickets' });
    expect(within(section).getByText(DETAILS_WITHHELD_TEXT)).toBeInTheDocument();
    expect(within(section).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.getByText('Formular für eine Adresse')).toBeInTheDocument();
    expect(screen.getByText('1001')).toBeInTheDocument();
  });
});
