import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DoorTicket } from '@awhh/machines';
import { LockScreen } from './lock-screen';
import { VerdictOverlay } from './verdict-overlay';

const ticket: DoorTicket = {
  id: 'tkt_1',
  seat: 2,
  seats: 3,
  tier: 'VIP',
  holder: 'Erika Mustermann',
  status: 'valid',
};

describe('door screens (rules "Tickets and the door")', () => {
  it('the lock screen sends the typed code and says why it refused one', async () => {
    const onUnlock = jest.fn();
    const { rerender } = render(
      <LockScreen busy={false} error={null} lockedOutFor={0} onUnlock={onUnlock} />,
    );
    await userEvent.type(screen.getByLabelText('Türcode'), 'ABCD-EFGH-JKMN');
    await userEvent.click(screen.getByRole('button', { name: 'Entsperren' }));
    expect(onUnlock).toHaveBeenCalledWith('ABCD-EFGH-JKMN');

    rerender(
      <LockScreen
        busy={false}
        error="Der Türcode stimmt nicht."
        lockedOutFor={0}
        onUnlock={onUnlock}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Der Türcode stimmt nicht.');
    expect(screen.getByLabelText('Türcode')).toHaveAttribute('aria-invalid', 'true');

    rerender(
      <LockScreen busy={false} error="Zu viele Versuche." lockedOutFor={900} onUnlock={onUnlock} />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Zu viele Fehlversuche');
    expect(screen.getByRole('alert')).toHaveTextContent('etwa 15 Minuten lang abgewiesen');
    // The field stays open for when the lockout ends (the server says when).
    expect(screen.getByLabelText('Türcode')).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Entsperren' })).toBeEnabled();
  });

  it.each([
    {
      verdict: { kind: 'valid', ticket } as const,
      title: 'Gültig',
      detail: 'VIP · Ticket 2 von 3',
    },
    {
      verdict: { kind: 'passedOn', ticket } as const,
      title: 'Weitergegeben',
      detail: 'an eine andere Person weitergegeben',
    },
    {
      verdict: { kind: 'already', ticket, at: '2026-06-05T17:02:00Z', device: 'Tür 2' } as const,
      title: 'Bereits eingecheckt',
      detail: 'um 19:02 (Tür 2)',
    },
    {
      verdict: { kind: 'revoked', ticket } as const,
      title: 'Storniert',
      detail: 'erstattet oder storniert',
    },
    {
      verdict: { kind: 'tooEarly', ticket, opensAt: '2026-06-05T05:00:00.000Z' } as const,
      title: 'Noch kein Einlass',
      detail: 'Der Einlass öffnet am Freitag, 5. Juni 2026 um 07:00',
    },
    {
      verdict: { kind: 'invalid', reason: 'signature' } as const,
      title: 'Ungültig',
      detail: 'Signatur',
    },
    {
      verdict: {
        kind: 'otherEvent',
        eventId: 7,
        event: { name: 'Sommerfest', startsAt: '2026-07-10T16:00:00Z' },
      } as const,
      title: 'Anderes Event',
      detail: 'gilt für „Sommerfest“ am Freitag, 10. Juli 2026',
    },
  ])(
    'the verdict "$title" fills the screen and lets the staff scan on',
    async ({ verdict, title, detail }) => {
      const onDismiss = jest.fn();
      const { container } = render(<VerdictOverlay verdict={verdict} onDismiss={onDismiss} />);
      expect(container.querySelector('[data-verdict]')).toHaveAttribute(
        'data-verdict',
        verdict.kind,
      );
      expect(screen.getByText(title)).toBeInTheDocument();
      expect(container).toHaveTextContent(detail);
      await userEvent.click(screen.getByRole('button', { name: 'Weiter scannen' }));
      expect(onDismiss).toHaveBeenCalled();
    },
  );

  it('rules "Named tickets": "Gültig" names the holder large, the company below', () => {
    render(
      <VerdictOverlay
        verdict={{ kind: 'valid', ticket: { ...ticket, company: 'Hafenkontor GmbH' } }}
        onDismiss={jest.fn()}
      />,
    );
    const holder = screen.getByTestId('verdict-holder');
    expect(holder).toHaveTextContent('Erika Mustermann');
    expect(holder).toHaveTextContent('Hafenkontor GmbH');
  });
});
