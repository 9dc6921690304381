/** @jest-environment ./test/jsdom-env.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OrganizerEvent } from '@awhh/machines';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { DoorCodePanel } from './door-code-panel';
import { EventTools } from './event-tools';

const EVENT = {
  id: 42,
  name: 'Sommer-Afterwork auf der MS Hamburg',
  startsAt: '2027-01-15T17:00:00.000Z',
} as OrganizerEvent;
const MAILS = '/api/organizer/events/42/mails';

describe('/veranstalter: badges, the mail to every holder and the door code (rules "The organizer")', () => {
  it('previews the mail, asks before sending it to every address, sends it once and lists it with its count', async () => {
    let sent: { subject: string; sent: number }[] = [];
    const { calls } = mockFetch({
      [`GET ${MAILS}`]: () => ({
        body: {
          mails: sent.map((m) => ({
            id: 'om_1',
            subject: m.subject,
            createdAt: '2027-01-15T15:00:00.000Z',
            recipients: 4,
            sent: m.sent,
          })),
        },
      }),
      [`POST ${MAILS}/preview`]: () => ({
        body: { subject: 'Neuer Ort', html: '<p>Hallo</p>', text: 'Hallo', recipients: 4 },
      }),
      [`POST ${MAILS}/test`]: () => ({ status: 202, body: { to: 'orga@example.org' } }),
      [`POST ${MAILS}`]: (body) => {
        sent = [{ subject: (body as { subject: string }).subject, sent: 4 }];
        return {
          status: 201,
          body: {
            mail: {
              id: 'om_1',
              subject: 'Neuer Ort',
              createdAt: '2027-01-15T15:00:00.000Z',
              recipients: 4,
              sent: 0,
            },
          },
        };
      },
    });
    renderRoutes([{ path: '*', element: <EventTools event={EVENT} /> }]);
    const user = userEvent.setup();
    await user.click(screen.getByText('Namensschilder und Nachricht an alle'));
    expect(screen.getByRole('button', { name: /Namensschilder \(A4\)/ })).toBeVisible();

    await user.type(screen.getByLabelText('Betreff'), 'Neuer Ort');
    await user.type(screen.getByLabelText('Nachricht'), 'Wir treffen uns am Anleger 3.');
    await user.click(screen.getByRole('button', { name: 'An mich testen' }));
    expect(await screen.findByText('Testmail an orga@example.org ist unterwegs.')).toBeVisible();
    // Sending needs the preview of what was typed.
    expect(screen.queryByRole('button', { name: 'An alle senden' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Vorschau' }));
    expect(await screen.findByTitle('Vorschau: Neuer Ort')).toBeInTheDocument();
    expect(screen.getByText('4')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'An alle senden' }));
    const confirm = screen.getByRole('group', { name: 'Senden bestätigen' });
    expect(confirm).toHaveTextContent('Wirklich an 4 Adressen senden?');
    await user.click(within(confirm).getByRole('button', { name: 'Ja, jetzt senden' }));
    expect(await screen.findByText('„Neuer Ort“ geht an 4 Adressen.')).toBeVisible();
    expect(await screen.findByText(/4 von 4 gesendet/)).toBeVisible();
    const posted = calls.filter((c) => c.method === 'POST' && c.url === MAILS);
    expect(posted).toHaveLength(1);
    expect(posted[0]!.body).toMatchObject({
      subject: 'Neuer Ort',
      text: 'Wir treffen uns am Anleger 3.',
      sendId: expect.stringMatching(/^[A-Za-z0-9_-]{16,64}$/),
    });
  });

  it('shows the door code on request and renews it after asking; with CHECKIN_CODE it says where to change it', async () => {
    mockFetch({
      'GET /api/organizer/notices': { body: { notices: [] } },
      'GET /api/organizer/handoffs': { body: { orders: [] } },
      'GET /api/organizer/door-devices': { body: { devices: [] } },
      'GET /api/organizer/door-code': { body: { code: 'AAAA-BBBB-CCCC-2222', renewable: true } },
      'POST /api/organizer/door-code': { body: { code: 'DDDD-EEEE-FFFF-3333', renewable: true } },
    });
    const { unmount } = renderRoutes([{ path: '*', element: <DoorCodePanel /> }]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Anzeigen' }));
    expect(screen.getByText('AAAA-BBBB-CCCC-2222')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Türcode erneuern' }));
    await user.click(screen.getByRole('button', { name: 'Ja, erneuern' }));
    expect(await screen.findByText('DDDD-EEEE-FFFF-3333')).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('Alle Einlassgeräte sind abgemeldet');
    unmount();

    mockFetch({
      'GET /api/organizer/notices': { body: { notices: [] } },
      'GET /api/organizer/handoffs': { body: { orders: [] } },
      'GET /api/organizer/door-devices': { body: { devices: [] } },
      'GET /api/organizer/door-code': { body: { code: '28yr-6e4n-Pqqf-7pfd', renewable: false } },
    });
    renderRoutes([{ path: '*', element: <DoorCodePanel /> }]);
    expect(await screen.findByText(/über CHECKIN_CODE fest eingestellt/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Türcode erneuern' })).toBeNull();
  });
  it('rules "The organizer": lists the devices signed in at the door and signs one out alone, or all', async () => {
    const device = (id: string, name: string) => ({
      id,
      device: name,
      createdAt: '2026-11-27T17:00:00.000Z',
      lastSeenAt: '2026-11-27T18:30:00.000Z',
    });
    const { calls } = mockFetch({
      'GET /api/organizer/door-devices': {
        body: {
          devices: [
            device('AAAAAAAAAAAAAAAA', 'Eingang Nord – Theke links neben der Garderobe'),
            device('BBBBBBBBBBBBBBBB', 'Tür 2'),
            device('CCCCCCCCCCCCCCCC', 'Tür 3'),
          ],
        },
      },
      'GET /api/organizer/door-code': { body: { code: 'AAAA-BBBB-CCCC-2222', renewable: true } },
      'DELETE /api/organizer/door-devices/BBBBBBBBBBBBBBBB': { status: 204, body: null },
      'DELETE /api/organizer/door-devices': { body: { ended: 2 } },
    });
    renderRoutes([{ path: '*', element: <DoorCodePanel /> }]);
    const user = userEvent.setup();
    const list = await screen.findByRole('group', { name: 'Angemeldete Einlassgeräte' });
    expect(within(list).getByText('Eingang Nord – Theke links neben der Garderobe')).toBeVisible();
    await user.click(within(list).getByRole('button', { name: /Gerät „Tür 2“ .* abmelden/ }));
    await waitFor(() => expect(within(list).queryByText('Tür 2')).toBeNull());
    await user.click(within(list).getByRole('button', { name: 'Alle Geräte abmelden' }));
    expect(await within(list).findByText(/kein Gerät mit dem Türcode angemeldet/)).toBeVisible();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
      '/api/organizer/door-devices/BBBBBBBBBBBBBBBB',
      '/api/organizer/door-devices',
    ]);
  });
});
