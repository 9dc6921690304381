/** @jest-environment ./test/jsdom-env.cjs */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Ticket } from '@awhh/machines';
import { qrPath } from '@/features/tickets/ticket-qr';
import { RESEND_DONE_TEXT } from '@/features/tickets/resend-form';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { action, Component, handle, loader } from './ticket';

// A compact JWS has the shape of the real token: three base64url parts joined by dots.
const TOKEN = 'eyJhbGciOiJFZERTQSJ9.eyJ0IjoidGt0XzEiLCJlIjoxMDksInMiOjJ9.c2lnbmF0dXJl';

const ticket: Ticket = {
  id: 'tkt_1',
  token: TOKEN,
  status: 'valid',
  eventId: 109,
  eventName: 'Sommer-Afterwork auf der MS Hamburg',
  eventSlug: 'sommer-afterwork-ms-hamburg',
  startsAt: '2026-07-01T16:00:00.000Z',
  venue: 'MS Hamburg',
  tier: 'VIP',
  seat: 2,
  seats: 3,
  holder: 'Erika Mustermann',
  orderNumber: '1042',
  code: 'K7QM3XPA',
};

function renderTicket(
  reply: { status?: number; body: unknown },
  token = TOKEN,
  more: Parameters<typeof mockFetch>[0] = {},
) {
  const fetchMock = mockFetch({
    [`GET /api/tickets/${token}`]: reply,
    'POST /api/tickets/resend': { status: 202, body: { accepted: true } },
    ...more,
  });
  renderRoutes(
    [{ path: '/tickets/:token', loader, action, Component, handle, HydrateFallback: () => null }],
    `/tickets/${token}`,
  );
  return fetchMock;
}

describe('ticket page (rules "Tickets and the door")', () => {
  it('shows event, German date and time, venue, tier, holder, seat, order number and the QR code', async () => {
    renderTicket({ body: ticket });
    expect(
      await screen.findByRole('heading', { level: 1, name: ticket.eventName }),
    ).toBeInTheDocument();
    expect(screen.getByText('Mittwoch, 1. Juli 2026')).toBeInTheDocument();
    expect(screen.getByText('18:00 Uhr')).toBeInTheDocument();
    expect(screen.getByText('MS Hamburg')).toBeInTheDocument();
    expect(screen.getByText('Erika Mustermann')).toBeInTheDocument();
    expect(screen.getAllByText('Ticket 2 von 3').length).toBeGreaterThan(0);
    expect(screen.getAllByText('VIP').length).toBeGreaterThan(0);
    expect(screen.getByText('1042')).toBeInTheDocument();

    const qr = screen.getByRole('img', { name: /QR-Code: Ticket 2 von 3/ });
    expect(qr).toHaveAttribute('data-token', TOKEN);
    expect(screen.getByText('Zeig diesen Code am Einlass.')).toBeInTheDocument();
    // The short code under it, for when the QR code will not scan.
    expect(screen.getByText('K7QM-3XPA')).toBeInTheDocument();
    expect(screen.getByText(/nenn einfach den Ticket-Code/)).toBeInTheDocument();

    expect(screen.getByRole('link', { name: 'Zum Kalender hinzufügen' })).toHaveAttribute(
      'href',
      '/api/events/sommer-afterwork-ms-hamburg/calendar.ics',
    );
    expect(screen.getByRole('link', { name: 'Als PDF speichern' })).toHaveAttribute(
      'href',
      `/api/tickets/${TOKEN}/pdf`,
    );
    expect(document.title).toContain('Ticket: Sommer-Afterwork');
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute(
      'content',
      'noindex, nofollow',
    );
  });

  it('says "Storniert" for a revoked ticket and shows neither QR code nor PDF', async () => {
    renderTicket({ body: { ...ticket, status: 'revoked' } });
    expect(await screen.findByText('Storniert')).toBeInTheDocument();
    expect(screen.getByText(/gilt nicht mehr für den Einlass/)).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /QR-Code/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Als PDF speichern' })).not.toBeInTheDocument();
    expect(screen.queryByText('Zeig diesen Code am Einlass.')).not.toBeInTheDocument();
    expect(screen.queryByText('K7QM-3XPA')).not.toBeInTheDocument();
  });

  it('explains an unknown token in German and offers to send the tickets again', async () => {
    const user = userEvent.setup();
    const { calls } = renderTicket(
      {
        status: 404,
        body: { statusCode: 404, error: 'Not Found', message: 'Ticket nicht gefunden.' },
      },
      'kaputt',
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Ticket nicht gefunden' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Vielleicht ist der Link unvollständig/)).toBeInTheDocument();

    await user.click(screen.getByText('Tickets erneut senden', { selector: 'summary' }));
    const email = screen.getByLabelText('E-Mail-Adresse');
    await user.type(email, 'kein-at-zeichen');
    await user.click(screen.getByRole('button', { name: 'Tickets erneut senden' }));
    expect(screen.getByText('Bitte gib eine gültige E-Mail-Adresse ein.')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');

    await user.clear(email);
    await user.type(email, 'erika@example.org');
    await user.click(screen.getByRole('button', { name: 'Tickets erneut senden' }));
    expect(await screen.findByText(RESEND_DONE_TEXT)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'erika@example.org' });
  });

  it('shows the server message with a retry when the ticket cannot be loaded', async () => {
    renderTicket({
      status: 503,
      body: { statusCode: 503, error: 'Service Unavailable', message: 'Gerade nicht erreichbar.' },
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Gerade nicht erreichbar.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeInTheDocument();
  });

  it('draws a ~150-character token as a version 8 code with a quiet zone of four modules', () => {
    const token = `${TOKEN}${'x'.repeat(150 - TOKEN.length)}`;
    const { size, d } = qrPath(token);
    // Version 8 is 49 modules wide; 4 light modules on each side.
    expect(size).toBe(49 + 8);
    // No dark module inside the quiet zone: every square starts at 4…52.
    const starts = [...d.matchAll(/M(\d+) (\d+)/g)].flatMap((m) => [Number(m[1]), Number(m[2])]);
    expect(Math.min(...starts)).toBe(4);
    expect(Math.max(...starts)).toBe(52);
  });
});

describe('ticket page (rules "Orders made in the shop")', () => {
  it('marks a guest-list ticket beside its tier', async () => {
    renderTicket({ body: { ...ticket, guestList: true, orderNumber: '57' } });
    expect(await screen.findByText('Gästeliste')).toBeInTheDocument();
  });

  it('shows no guest-list mark on a bought ticket', async () => {
    renderTicket({ body: { ...ticket, guestList: false } });
    await screen.findByRole('heading', { level: 1, name: ticket.eventName });
    expect(screen.queryByText('Gästeliste')).not.toBeInTheDocument();
  });
});

describe('ticket page (rules "Named tickets")', () => {
  const PASSED_ON = {
    statusCode: 410,
    error: 'Gone',
    message: 'Dieses Ticket wurde an eine andere Person weitergegeben.',
  };

  it('names the ticket with its own token and shows the name at once', async () => {
    const user = userEvent.setup();
    const { calls } = renderTicket(
      { body: { ...ticket, holder: null, transferable: true } },
      TOKEN,
      {
        [`POST /api/tickets/${TOKEN}/holder`]: {
          body: { holder: 'Jonas Jansen', company: 'Hafenkontor GmbH' },
        },
      },
    );
    const region = await screen.findByRole('region', { name: 'Wer kommt mit diesem Ticket?' });
    const name = within(region).getByLabelText('Vor- und Nachname');
    await user.type(name, 'J');
    await user.click(within(region).getByRole('button', { name: 'Namen speichern' }));
    expect(
      within(region).getByText('Bitte gib einen Namen mit mindestens 2 Zeichen ein.'),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(name, 'onas Jansen');
    await user.type(within(region).getByLabelText('Firma (optional)'), 'Hafenkontor GmbH');
    await user.click(within(region).getByRole('button', { name: 'Namen speichern' }));
    expect(
      await within(region).findByText('Gespeichert: Das Ticket ist auf Jonas Jansen ausgestellt.'),
    ).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Jonas Jansen',
      company: 'Hafenkontor GmbH',
    });
    expect(await screen.findByText('Hafenkontor GmbH', { selector: 'dd' })).toBeInTheDocument();
  });

  it('passes the ticket on, then says the link is void; a refusal is shown in German', async () => {
    const user = userEvent.setup();
    let refuse = true;
    const { calls } = renderTicket(
      {
        body: { ...ticket, transferable: true, transferUntil: '2026-07-01T14:00:00.000Z' },
      },
      TOKEN,
      {
        [`POST /api/tickets/${TOKEN}/transfer`]: () =>
          refuse
            ? {
                status: 409,
                body: { statusCode: 409, error: 'Conflict', message: 'Zu spät zum Weitergeben.' },
              }
            : { body: { holder: 'Mia Meyer', email: 'mia@example.org' } },
      },
    );
    await screen.findByRole('heading', { level: 1, name: ticket.eventName });
    await user.click(screen.getByText('Ticket weitergeben', { selector: 'summary' }));
    expect(screen.getByText(/bis Mittwoch, 1\. Juli 2026 um 16:00 Uhr\./)).toBeInTheDocument();
    const [, name] = screen.getAllByLabelText('Vor- und Nachname');
    await user.type(name!, 'Mia Meyer');
    await user.type(screen.getByLabelText('E-Mail-Adresse der neuen Person'), 'mia@example.org');
    await user.click(screen.getByRole('button', { name: 'Ticket verbindlich weitergeben' }));
    expect(await screen.findByText('Zu spät zum Weitergeben.')).toBeInTheDocument();

    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Ticket verbindlich weitergeben' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Ticket weitergegeben' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Weitergegeben an Mia Meyer')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /QR-Code/ })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      name: 'Mia Meyer',
      company: null,
      email: 'mia@example.org',
    });
  });

  it('a link of a ticket passed on (410) says so and shows no code', async () => {
    renderTicket({ status: 410, body: PASSED_ON });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Ticket weitergegeben' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Dieser Link gilt nicht mehr')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /QR-Code/ })).not.toBeInTheDocument();
  });

  it('no transfer form once the ticket cannot be passed on', async () => {
    const user = userEvent.setup();
    renderTicket({ body: { ...ticket, transferable: false, transferUntil: null } });
    await screen.findByRole('heading', { level: 1, name: ticket.eventName });
    await user.click(screen.getByText('Ticket weitergeben', { selector: 'summary' }));
    expect(screen.getByText(/kann nicht mehr weitergegeben werden/)).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Ticket verbindlich weitergeben' }),
    ).not.toBeInTheDocument();
  });
});
