/** @jest-environment ./test/jsdom-env.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Attendee } from '@awhh/machines';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { GuestList } from './guest-list';

const LIST = '/api/organizer/events/42/attendees';
const HOLDER = '/api/organizer/tickets/tKarla1/holder';

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

const revoked = attendee({
  ticketId: 'tOle',
  name: 'Ole Storno',
  company: null,
  status: 'revoked',
  code: null,
  seats: 1,
});

function renderList(onSessionDoubt = jest.fn()) {
  renderRoutes([
    {
      path: '*',
      element: (
        <GuestList eventId={42} eventName="Elbstrand Sundowner" onSessionDoubt={onSessionDoubt} />
      ),
    },
  ]);
}

/** Holds the PUT until `release()`, so the form's saving state can be seen. */
function holdPuts() {
  const real = globalThis.fetch;
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === 'PUT') await held;
    return real(input, init);
  }) as typeof fetch;
  return () => release();
}

describe('the guest list: "Name ändern" (rules "Named tickets")', () => {
  it('corrects a guest’s name and company in the card, checking the input as the server does', async () => {
    let puts = 0;
    const { calls } = mockFetch({
      [`GET ${LIST}?offset=0&limit=50`]: {
        body: { attendees: [attendee(), revoked], total: 2, offset: 0, limit: 50 },
      },
      [`PUT ${HOLDER}`]: () => {
        puts += 1;
        return puts === 1
          ? {
              status: 404,
              body: {
                statusCode: 404,
                error: 'Not Found',
                message: 'Dieses Ticket gibt es nicht.',
              },
            }
          : { body: { ticketId: 'tKarla1', holder: 'Karla Kundin-Meyer', company: null } };
      },
    });
    const release = holdPuts();
    renderList();
    const user = userEvent.setup();

    expect(await screen.findByText('2 Tickets')).toBeVisible();
    const [karla, ole] = screen.getAllByRole('listitem');
    // A cancelled ticket keeps its name, and the card says why.
    expect(within(ole!).queryByRole('button', { name: /^Name ändern/ })).toBeNull();
    expect(
      within(ole!).getByText('Der Name lässt sich nicht mehr ändern: Das Ticket ist storniert.'),
    ).toBeVisible();

    await user.click(
      within(karla!).getByRole('button', { name: 'Name ändern – Karla Kundin, Platz 1 von 2' }),
    );
    const form = within(karla!).getByRole('form', { name: 'Name ändern (Platz 1 von 2)' });
    const name = within(form).getByLabelText('Name');
    expect(name).toHaveFocus();
    expect(name).toHaveValue('Karla Kundin');
    expect(within(form).getByLabelText('Firma (optional)')).toHaveValue('Reederei Nord');

    // Escape leaves it as it was.
    await user.keyboard('{Escape}');
    expect(within(karla!).queryByRole('form')).toBeNull();
    expect(
      within(karla!).getByRole('button', { name: /^Name ändern – Karla Kundin/ }),
    ).toHaveFocus();

    await user.click(within(karla!).getByRole('button', { name: /^Name ändern/ }));
    const again = within(karla!).getByRole('form');
    await user.clear(within(again).getByLabelText('Name'));
    await user.type(within(again).getByLabelText('Name'), 'K');
    await user.type(within(again).getByLabelText('Firma (optional)'), 'x'.repeat(80));
    await user.click(within(again).getByRole('button', { name: 'Speichern' }));
    expect(within(again).getByLabelText('Name')).toHaveAccessibleDescription(
      'Bitte gib einen Namen mit mindestens 2 Zeichen ein.',
    );
    expect(within(again).getByLabelText('Firma (optional)')).toHaveAccessibleDescription(
      'Der Firmenname ist zu lang (höchstens 80 Zeichen).',
    );
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await user.clear(within(again).getByLabelText('Name'));
    await user.type(within(again).getByLabelText('Name'), '  Karla Kundin-Meyer ');
    await user.clear(within(again).getByLabelText('Firma (optional)'));
    await user.click(within(again).getByRole('button', { name: 'Speichern' }));
    expect(within(again).getByRole('button', { name: 'Wird gespeichert …' })).toBeDisabled();
    release();
    // The server's refusal, in its words; the form stays open for another try.
    expect(await within(again).findByText('Dieses Ticket gibt es nicht.')).toBeVisible();

    await user.click(within(again).getByRole('button', { name: 'Speichern' }));
    expect(
      await screen.findByText(
        'Gespeichert: Das Ticket ist jetzt auf Karla Kundin-Meyer ausgestellt.',
      ),
    ).toBeVisible();
    expect(within(karla!).queryByRole('form')).toBeNull();
    expect(within(karla!).getByText('Karla Kundin-Meyer')).toBeVisible();
    expect(within(karla!).queryByText('Reederei Nord')).toBeNull();
    await waitFor(() =>
      expect(
        within(karla!).getByRole('button', { name: /^Name ändern – Karla Kundin-Meyer/ }),
      ).toHaveFocus(),
    );
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
      { name: 'Karla Kundin-Meyer', company: null },
      { name: 'Karla Kundin-Meyer', company: null },
    ]);
  });

  it('a session that ran out while editing asks the page to check it', async () => {
    mockFetch({
      [`GET ${LIST}?offset=0&limit=50`]: {
        body: { attendees: [attendee()], total: 1, offset: 0, limit: 50 },
      },
      [`PUT ${HOLDER}`]: {
        status: 401,
        body: { statusCode: 401, error: 'Unauthorized', message: 'Bitte melde dich an.' },
      },
    });
    const doubt = jest.fn();
    renderList(doubt);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Name ändern/ }));
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Bitte melde dich an.')).toBeVisible();
    expect(doubt).toHaveBeenCalled();
  });
});
