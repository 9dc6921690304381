/** @jest-environment ./test/jsdom-env.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OrganizerEvent } from '@awhh/machines';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { OrganizerApp } from './organizer-app';

const NO_PERMISSION =
  'Dieses Konto hat keine Berechtigung für den Veranstalterbereich (nötig: Shop-Manager oder Administrator).';

function event(fields: Partial<OrganizerEvent> = {}): OrganizerEvent {
  return {
    id: 42,
    name: 'Sommer-Afterwork auf der MS Hamburg',
    startsAt: '2027-01-15T17:00:00.000Z',
    venue: 'MS Hamburg, Landungsbrücken',
    tiers: [
      { variationId: 44, name: 'Regulär', sold: 1, capacity: 40, openCheckouts: 3 },
      { variationId: 45, name: 'VIP', sold: 2, capacity: 4, openCheckouts: 0 },
    ],
    sold: 3,
    capacity: 44,
    revenue: 1128.5,
    openCheckouts: 3,
    checkedIn: 1,
    waiting: 2,
    offered: 1,
    noShows: null,
    sales: [
      { at: '2026-11-20T10:00:00.000Z', count: 2 },
      { at: '2026-11-24T18:30:00.000Z', count: 3 },
    ],
    checkIns: [{ at: '2026-11-25T18:05:00.000Z', count: 1 }],
    updatedAt: '2026-11-25T18:06:00.000Z',
    ...fields,
  };
}

function renderApp() {
  renderRoutes([{ path: '*', element: <OrganizerApp /> }]);
}

describe('/veranstalter (rules "The organizer")', () => {
  it("asks a WordPress account for an application password, says where to make one, and shows the server's reason", async () => {
    const { calls } = mockFetch({
      'GET /api/organizer/session': { body: { signedIn: false, method: 'wordpress', name: null } },
      'POST /api/organizer/session': {
        status: 401,
        body: { statusCode: 401, error: 'Unauthorized', message: NO_PERMISSION },
      },
    });
    renderApp();
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Anmelden' });
    expect(screen.getByText('WordPress → Benutzer → Profil → Anwendungspasswörter')).toBeVisible();

    // The form checks with the server's schema first: nothing is sent without a user name.
    await user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByText('Bitte gib deinen WordPress-Benutzernamen ein.')).toBeVisible();
    expect(screen.getByLabelText('WordPress-Benutzername')).toHaveFocus();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.type(screen.getByLabelText('WordPress-Benutzername'), 'karla.kundin');
    await user.type(screen.getByLabelText('Anwendungspasswort'), 'abcd efgh ijkl mnop qrst uvwx');
    await user.click(screen.getByRole('button', { name: 'Anmelden' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(NO_PERMISSION);
    expect(calls.at(-1)).toEqual({
      method: 'POST',
      url: '/api/organizer/session',
      body: { username: 'karla.kundin', applicationPassword: 'abcd efgh ijkl mnop qrst uvwx' },
    });
  });

  it('on the demo shop signs in with the code, then shows every event with its figures in German', async () => {
    let signedIn = false;
    mockFetch({
      'GET /api/organizer/session': () => ({
        body: { signedIn, method: 'code', name: null },
      }),
      'POST /api/organizer/session': () => {
        signedIn = true;
        return { status: 204, body: null };
      },
      'GET /api/organizer/notices': { body: { notices: [] } },
      'GET /api/organizer/handoffs': { body: { orders: [] } },
      'GET /api/organizer/door-devices': { body: { devices: [] } },
      'GET /api/organizer/door-code': { body: { code: 'AAAA-BBBB-CCCC-2222', renewable: true } },
      'GET /api/organizer/events/42/mails': { body: { mails: [] } },
      'GET /api/organizer/events/18/mails': { body: { mails: [] } },
      'GET /api/organizer/events': {
        body: {
          events: [
            event(),
            event({
              id: 18,
              name: 'Elbstrand Sundowner',
              startsAt: '2026-11-11T17:00:00.000Z',
              tiers: [
                { variationId: null, name: 'Ticket', sold: 5, capacity: null, openCheckouts: 0 },
              ],
              sold: 5,
              capacity: null,
              revenue: 97.5,
              checkedIn: 4,
              noShows: 1,
              checkIns: [],
            }),
          ],
        },
      },
    });
    renderApp();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Veranstaltercode'), 'ABCD-EFGH-2345-JKLM');
    await user.click(screen.getByRole('button', { name: 'Anmelden' }));

    const current = await screen.findByRole('region', { name: 'Heute und demnächst' });
    const card = within(current).getByRole('article', {
      name: 'Sommer-Afterwork auf der MS Hamburg',
    });
    const figure = (name: string) => card.querySelector(`[data-figure="${name}"]`);
    expect(figure('sold')).toHaveTextContent('3 / 44');
    expect(figure('revenue')).toHaveTextContent('1.128,50 €');
    expect(figure('checked-in')).toHaveTextContent('1');
    expect(figure('open-checkouts')).toHaveTextContent('3');
    expect(figure('waiting')).toHaveTextContent('2 wartend1 mit Angebot');
    expect(figure('no-shows')).toBeNull();
    expect(
      within(card).getByText('Freitag, 15. Januar 2027, 18:00 Uhr · MS Hamburg, Landungsbrücken'),
    ).toBeVisible();
    const vip = within(card).getByRole('row', { name: /VIP/ });
    expect(vip).toHaveTextContent('2 / 4');
    // The charts are images that say what they show.
    const sales = within(card).getByRole('img', { name: 'Verkäufe' });
    expect(sales).toHaveAccessibleDescription(
      '3 von 44 Plätzen verkauft, von 20. Nov. 2026 bis 24. Nov. 2026.',
    );
    expect(within(card).getByRole('img', { name: 'Einlass' })).toHaveAccessibleDescription(
      '1 von 3 Tickets eingecheckt, um 19:05 Uhr.',
    );

    // The past ones behind a closed disclosure.
    const summary = screen.getByRole('heading', { name: 'Vergangene Events (1)' });
    await user.click(summary);
    const past = summary.closest('details')!;
    expect(past).toHaveAttribute('open');
    const over = within(past).getByRole('article', { name: 'Elbstrand Sundowner' });
    expect(over.querySelector('[data-figure="no-shows"]')).toHaveTextContent('1');
    expect(over.querySelector('[data-figure="sold"]')).toHaveTextContent('5');
    expect(within(over).getByText('Noch niemand eingecheckt.')).toBeVisible();
    expect(screen.getByText('Angemeldet mit dem Veranstaltercode')).toBeVisible();
    // The door code above the events, hidden until asked for.
    const door = screen.getByRole('region', { name: 'Türcode für /einlass' });
    expect(await within(door).findByRole('button', { name: 'Anzeigen' })).toBeVisible();
    expect(door).not.toHaveTextContent('AAAA-BBBB-CCCC-2222');
  });

  it("shows the loading state, then the server's German error with a retry", async () => {
    mockFetch({
      'GET /api/organizer/session': {
        body: { signedIn: true, method: 'wordpress', name: 'Hanna Hafen' },
      },
      'GET /api/organizer/events': {
        status: 503,
        body: {
          statusCode: 503,
          error: 'Service Unavailable',
          message: 'Der Dienst ist gerade nicht erreichbar.',
        },
      },
    });
    renderApp();
    expect(screen.getByRole('status')).toHaveTextContent('Anmeldung wird geprüft …');
    expect(await screen.findByText('Der Dienst ist gerade nicht erreichbar.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeVisible();
    expect(screen.getByText('Hanna Hafen')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });

  it('rules "Hand-off refused": lists the orders WooCommerce refused with its message; "Erneut übergeben" asks for one again', async () => {
    const { calls } = mockFetch({
      'GET /api/organizer/session': { body: { signedIn: true, method: 'code', name: null } },
      'GET /api/organizer/notices': { body: { notices: [] } },
      'GET /api/organizer/handoffs': {
        body: {
          orders: [
            {
              orderId: 'ord_k7',
              reason: 'Usage limit for coupon "fest5" has been reached.',
              at: '2026-11-25T18:05:00.000Z',
            },
          ],
        },
      },
      'POST /api/organizer/handoffs/ord_k7/retry': { status: 202, body: { retried: true } },
      'GET /api/organizer/door-devices': { body: { devices: [] } },
      'GET /api/organizer/door-code': { body: { code: 'AAAA-BBBB-CCCC-2222', renewable: true } },
      'GET /api/organizer/events': { body: { events: [] } },
    });
    renderApp();
    const user = userEvent.setup();
    const panel = await screen.findByRole('region', {
      name: 'Übergabe an den Shop fehlgeschlagen',
    });
    expect(
      within(panel).getByText('Usage limit for coupon "fest5" has been reached.'),
    ).toBeVisible();
    expect(within(panel).getByText(/Bestellung ord_k7/)).toBeVisible();
    await user.click(
      within(panel).getByRole('button', { name: 'Bestellung ord_k7 erneut übergeben' }),
    );
    expect(await within(panel).findByText(/Wird erneut übergeben/)).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      '/api/organizer/handoffs/ord_k7/retry',
    ]);
  });

  it('ledger "Told to the organizer": lists the shop\'s notices in German; "Erledigt" takes one off the list', async () => {
    const { calls } = mockFetch({
      'GET /api/organizer/session': { body: { signedIn: true, method: 'code', name: null } },
      'GET /api/organizer/notices': {
        body: {
          notices: [
            {
              id: 'n7Qm3XpAk2Lr9sT4vW6yZa',
              kind: 'checkedInRevoked',
              title: 'Erstattet, obwohl schon eingecheckt',
              paragraphs: [
                'Die Bestellung 4711 im Shop (ord_k7 auf der Website): Im Shop wurde ein Ticket erstattet, dessen Gast schon eingelassen war: Sommer-Afterwork · VIP, Ticket 1 von 2 (Code K7QM-3XPA).',
              ],
              at: '2026-11-25T18:05:00.000Z',
            },
          ],
        },
      },
      'POST /api/organizer/notices/n7Qm3XpAk2Lr9sT4vW6yZa/done': { status: 204, body: null },
      'GET /api/organizer/handoffs': { body: { orders: [] } },
      'GET /api/organizer/door-devices': { body: { devices: [] } },
      'GET /api/organizer/door-code': { body: { code: 'AAAA-BBBB-CCCC-2222', renewable: true } },
      'GET /api/organizer/events': { body: { events: [] } },
    });
    renderApp();
    const user = userEvent.setup();
    const panel = await screen.findByRole('region', { name: 'Hinweise aus dem Shop' });
    expect(within(panel).getByText('Erstattet, obwohl schon eingecheckt')).toBeVisible();
    expect(within(panel).getByText(/Code K7QM-3XPA/)).toBeVisible();
    await user.click(
      within(panel).getByRole('button', {
        name: /Hinweis „Erstattet, obwohl schon eingecheckt“ vom .* als erledigt markieren/,
      }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Hinweise aus dem Shop' })).toBeNull(),
    );
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      '/api/organizer/notices/n7Qm3XpAk2Lr9sT4vW6yZa/done',
    ]);
  });

  it('shows no hand-off panel while WooCommerce refused nothing', async () => {
    mockFetch({
      'GET /api/organizer/session': { body: { signedIn: true, method: 'code', name: null } },
      'GET /api/organizer/notices': { body: { notices: [] } },
      'GET /api/organizer/handoffs': { body: { orders: [] } },
      'GET /api/organizer/door-devices': { body: { devices: [] } },
      'GET /api/organizer/door-code': { body: { code: 'AAAA-BBBB-CCCC-2222', renewable: true } },
      'GET /api/organizer/events': { body: { events: [] } },
    });
    renderApp();
    await screen.findByRole('region', { name: 'Türcode für /einlass' });
    expect(
      screen.queryByRole('region', { name: 'Übergabe an den Shop fehlgeschlagen' }),
    ).toBeNull();
  });
});
