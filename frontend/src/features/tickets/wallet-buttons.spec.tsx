/** @jest-environment ./test/jsdom-env.cjs */
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch } from '../../../test/helpers';
import { WalletButtons } from './wallet-buttons';

const TOKEN = 'eyJhbGciOiJFZERTQSJ9.eyJ0IjoidGt0In0.c2ln';

describe('Wallet buttons (rules "Wallet passes")', () => {
  it('shows no button while the site offers no wallet', async () => {
    const { calls } = mockFetch({
      'GET /api/tickets/wallet': { body: { apple: false, google: false } },
    });
    const { container } = render(<WalletButtons token={TOKEN} />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(calls.map((c) => c.url)).toEqual(['/api/tickets/wallet']);
    expect(screen.queryByRole('link', { name: /Wallet/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Wallet/ })).toBeNull();
    expect(container).toBeEmptyDOMElement();
  });

  it('shows no button when the site cannot be asked', async () => {
    const { calls } = mockFetch({ 'GET /api/tickets/wallet': { status: 503, body: {} } });
    const { container } = render(<WalletButtons token={TOKEN} />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(calls).toHaveLength(1);
    expect(container).toBeEmptyDOMElement();
  });

  it('offers the Apple pass as a link and opens the Google save link it asks for', async () => {
    const user = userEvent.setup();
    const saveUrl = 'https://pay.google.com/gp/v/save/eyJ.eyJ.sig';
    mockFetch({
      'GET /api/tickets/wallet': { body: { apple: true, google: true } },
      [`GET /api/tickets/${TOKEN}/wallet/google`]: { body: { url: saveUrl } },
    });
    const opened: string[] = [];
    render(<WalletButtons token={TOKEN} openUrl={(url) => opened.push(url)} />);

    const apple = await screen.findByRole('link', { name: 'Zu Apple Wallet hinzufügen' });
    expect(apple).toHaveAttribute('href', `/api/tickets/${TOKEN}/wallet/apple`);
    await user.click(screen.getByRole('button', { name: 'Zu Google Wallet hinzufügen' }));
    expect(opened).toEqual([saveUrl]);
  });

  it('only the configured wallet, and a German message when its link fails', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/tickets/wallet': { body: { apple: false, google: true } },
      [`GET /api/tickets/${TOKEN}/wallet/google`]: {
        status: 410,
        body: { statusCode: 410, error: 'Gone', message: 'Dieses Ticket wurde storniert.' },
      },
    });
    render(<WalletButtons token={TOKEN} openUrl={() => undefined} />);
    await user.click(await screen.findByRole('button', { name: 'Zu Google Wallet hinzufügen' }));
    expect(screen.queryByRole('link', { name: 'Zu Apple Wallet hinzufügen' })).toBeNull();
    expect(await screen.findByRole('alert')).toHaveTextContent('Dieses Ticket wurde storniert.');
  });
});
