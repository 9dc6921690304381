/** @jest-environment ./test/jsdom-env.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Attendee } from '@awhh/machines';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { GuestList } from './guest-list';

const LIST = '/api/organizer/events/42/attendees';

function attendee(fields: Partial<Attendee> = {}): Attendee {
  return {
    ticketId: 'tKarla1',
    name: 'Karla Kundin',
    company: 'Reederei Nord',
    email: 'karla@example.org',
    tier: 'Regulär',
    status: 'valid',
    checkedInAt: null,
    device: null,
    code: 'K7QM-3XPA',
    orderNumber: '1001',
    orderId: 'ord_1',
    seat: 1,
    seats: 2,
    guestList: false,
    ...fields,
  };
}

const jonas = attendee({
  ticketId: 'tJonas',
  name: 'Jonas Jürgensen',
  company: null,
  email: 'jonas@example.org',
  code: 'ABCD-EF12',
  orderNumber: '1002',
  orderId: 'ord_2',
  seats: 1,
});

function renderList(onSessionDoubt = jest.fn()) {
  renderRoutes([
    {
      path: '*',
      element: (
        <GuestList
          eventId={42}
          eventName="Sommer-Afterwork auf der MS Hamburg"
          onSessionDoubt={onSessionDoubt}
        />
      ),
    },
  ]);
}

beforeAll(() => {
  // jsdom has <dialog> without its modal methods.
  const proto = HTMLDialogElement.prototype as HTMLDialogElement & { showModal?: () => void };
  proto.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  proto.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

describe('the guest list on /veranstalter (rules "The organizer")', () => {
  it('lists the guests with their status, searches by what is typed, checks in and takes it back', async () => {
    const { calls } = mockFetch({
      [`GET ${LIST}?offset=0&limit=50`]: {
        body: { attendees: [attendee(), jonas], total: 2, offset: 0, limit: 50 },
      },
      [`GET ${LIST}?offset=0&limit=50&q=kundin`]: {
        body: { attendees: [attendee()], total: 1, offset: 0, limit: 50 },
      },
      [`POST ${LIST}/tKarla1/check-in`]: {
        body: {
          attendee: attendee({
            status: 'checkedIn',
            checkedInAt: new Date().toISOString(),
            device: 'Veranstalter',
          }),
        },
      },
      [`DELETE ${LIST}/tKarla1/check-in`]: { body: { attendee: attendee() } },
    });
    renderList();
    const user = userEvent.setup();

    expect(await screen.findByText('2 Tickets')).toBeVisible();
    expect(screen.getByRole('heading', { name: /^Gästeliste/ })).toHaveTextContent(
      'Sommer-Afterwork auf der MS Hamburg',
    );
    expect(screen.getByRole('link', { name: 'CSV herunterladen' })).toHaveAttribute(
      'href',
      `${LIST}.csv`,
    );
    const items = screen.getAllByRole('listitem');
    expect(within(items[0]!).getByText('Reederei Nord')).toBeVisible();
    expect(within(items[0]!).getByText('K7QM-3XPA')).toBeVisible();
    expect(within(items[0]!).getByText('Gültig')).toBeVisible();

    await user.type(screen.getByLabelText('Gast suchen'), 'kundin');
    expect(await screen.findByText('1 Ticket gefunden')).toBeVisible();

    await user.click(
      screen.getByRole('button', { name: 'Einchecken – Karla Kundin, Platz 1 von 2' }),
    );
    expect(await screen.findByText('Karla Kundin, Platz 1 von 2 ist eingecheckt.')).toBeVisible();
    expect(screen.getByText(/^Eingecheckt um \d\d:\d\d Uhr · Veranstalter$/)).toBeVisible();

    await user.click(screen.getByRole('button', { name: /^Check-in zurücknehmen/ }));
    expect(await screen.findByText(/Check-in von Karla Kundin.* zurückgenommen\./)).toBeVisible();
    expect(screen.getByText('Gültig')).toBeVisible();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toContain(`DELETE ${LIST}/tKarla1/check-in`);
  });

  it('a ticket checked in already shows the first check-in and the reason; cancelling asks first', async () => {
    const first = attendee({
      status: 'checkedIn',
      checkedInAt: '2026-10-01T17:05:00.000Z',
      device: 'Tür 1',
    });
    const { calls } = mockFetch({
      [`GET ${LIST}?offset=0&limit=50`]: {
        body: { attendees: [attendee(), jonas], total: 2, offset: 0, limit: 50 },
      },
      [`POST ${LIST}/tKarla1/check-in`]: {
        status: 409,
        body: {
          statusCode: 409,
          error: 'Conflict',
          message: 'Bereits eingecheckt am 01.10.2026 um 19:05 Uhr (Tür 1).',
          attendee: first,
        },
      },
      [`POST ${LIST}/tJonas/cancel`]: { body: { refunded: 35, revoked: ['tJonas'] } },
    });
    renderList();
    const user = userEvent.setup();
    await screen.findByText('2 Tickets');

    await user.click(screen.getByRole('button', { name: /^Einchecken – Karla/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Bereits eingecheckt am 01.10.2026 um 19:05 Uhr (Tür 1).',
    );
    expect(screen.getByText(/Eingecheckt am 01\.10\.2026 um 19:05 Uhr · Tür 1/)).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Stornieren … – Jonas Jürgensen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Jonas Jürgensen stornieren?' });
    // Nothing is sent before the confirmation.
    expect(calls.filter((c) => c.url.endsWith('/cancel'))).toHaveLength(0);
    await user.click(within(dialog).getByLabelText(/Die ganze Bestellung 1002/));
    await user.click(within(dialog).getByRole('button', { name: 'Stornieren und erstatten' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.endsWith('/cancel'))?.body).toEqual({ scope: 'order' }),
    );
    expect(await screen.findByText('1 Ticket storniert, 35,00 € werden erstattet.')).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a session that ran out asks the page to check it; an error offers a retry', async () => {
    mockFetch({
      [`GET ${LIST}?offset=0&limit=50`]: {
        status: 401,
        body: { statusCode: 401, error: 'Unauthorized', message: 'Bitte melde dich an.' },
      },
    });
    const doubt = jest.fn();
    renderList(doubt);
    expect(await screen.findByText('Bitte melde dich an.')).toBeVisible();
    expect(doubt).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeVisible();
  });
});
