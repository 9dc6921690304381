/** @jest-environment ./test/jsdom-env.cjs */
import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MailMessage, MailSummary } from '@awhh/machines';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { mailDocument, MailboxView, UNAVAILABLE_TEXT } from './mailbox-view';

const pdf = { filename: 'ticket-1-von-2.pdf', contentType: 'application/pdf', size: 48_213 };
const summaries: MailSummary[] = [
  {
    id: 'm2',
    to: 'erika@example.org',
    subject: 'Deine Tickets für Sommer-Afterwork auf der MS Hamburg',
    createdAt: '2026-11-23T05:03:00.000Z',
    attachments: [
      pdf,
      { ...pdf, filename: 'ticket-2-von-2.pdf' },
      { filename: 'event.ics', contentType: 'text/calendar; charset=utf-8', size: 812 },
    ],
  },
  {
    id: 'm1',
    to: 'max@example.org',
    subject: 'Deine Tickets für Jazz im Hafen',
    createdAt: '2026-11-22T18:30:00.000Z',
    attachments: [],
  },
];
const message = (summary: MailSummary): MailMessage => ({
  ...summary,
  from: 'After Work Hamburg <tickets@awhh.example>',
  html: `<html><head><title>x</title></head><body><h1>${summary.subject}</h1><script>alert(1)</script></body></html>`,
  text: `Hallo!\n\n${summary.subject}`,
});

function Harness() {
  const [selected, setSelected] = useState<string | null>(null);
  return <MailboxView selectedId={selected} onSelect={setSelected} />;
}

function renderMailbox(replies: Parameters<typeof mockFetch>[0]) {
  const fetchMock = mockFetch(replies);
  renderRoutes([{ path: '*', element: <Harness /> }]);
  return fetchMock;
}

describe('/mail-test, the embedded mailbox (rules "Tickets and the door")', () => {
  it('lists recipient, subject, time and attachments, and opens the newest mail sandboxed', async () => {
    renderMailbox({
      'GET /api/mail-test/messages': { body: summaries },
      'GET /api/mail-test/messages/m2': { body: message(summaries[0]!) },
      'GET /api/mail-test/messages/m1': { body: message(summaries[1]!) },
    });
    const list = await screen.findByRole('navigation', { name: 'Mails' });
    const items = within(list).getAllByRole('button');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Deine Tickets für Sommer-Afterwork auf der MS Hamburg');
    expect(items[0]).toHaveTextContent('An erika@example.org');
    expect(items[0]).toHaveTextContent('23. Nov. 2026, 06:03 Uhr · 3 Anhänge');
    expect(items[0]).toHaveAttribute('aria-current', 'true');

    const frame = await screen.findByTitle(
      'Inhalt der Mail „Deine Tickets für Sommer-Afterwork auf der MS Hamburg“',
    );
    // No scripts, no same origin: the mail cannot reach the page or its storage.
    expect(frame).toHaveAttribute('sandbox', 'allow-popups allow-popups-to-escape-sandbox');
    expect(frame.getAttribute('srcdoc')).toContain('<head><base target="_blank"><title>');

    const links = screen.getAllByRole('link');
    expect(links.map((a) => a.textContent)).toEqual([
      'ticket-1-von-2.pdf',
      'ticket-2-von-2.pdf',
      'event.ics',
    ]);
    expect(links[1]).toHaveAttribute('href', '/api/mail-test/messages/m2/attachments/1');
    expect(screen.getAllByText('application/pdf · 47,1 KB')).toHaveLength(2);
    expect(screen.getByText('text/calendar · 812 B')).toBeInTheDocument();
    expect(screen.getByText('Textfassung')).toBeInTheDocument();

    await userEvent.setup().click(items[1]!);
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Deine Tickets für Jazz im Hafen' }),
    ).toBeInTheDocument();
    expect(within(list).getAllByRole('button')[1]).toHaveAttribute('aria-current', 'true');
  });

  it('says "Noch keine Mails" when the mailbox is empty', async () => {
    renderMailbox({ 'GET /api/mail-test/messages': { body: [] } });
    expect(await screen.findByRole('heading', { name: 'Noch keine Mails' })).toBeInTheDocument();
  });

  it('explains a 404 from the API: the mailbox exists only in test mode', async () => {
    renderMailbox({
      'GET /api/mail-test/messages': {
        status: 404,
        body: { statusCode: 404, error: 'Not Found', message: 'Nicht gefunden.' },
      },
    });
    expect(await screen.findByText(UNAVAILABLE_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Aktualisieren' })).not.toBeInTheDocument();
  });

  it('shows an error with retry when the server fails', async () => {
    let calls = 0;
    renderMailbox({
      'GET /api/mail-test/messages': () => {
        calls += 1;
        return calls === 1
          ? {
              status: 500,
              body: { statusCode: 500, error: 'Internal Server Error', message: 'Kaputt.' },
            }
          : { body: [] };
      },
    });
    expect(await screen.findByText('Kaputt.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Noch keine Mails')).toBeInTheDocument();
  });

  it('refreshes on demand and picks up a new mail', async () => {
    let list: MailSummary[] = [];
    renderMailbox({
      'GET /api/mail-test/messages': () => ({ body: list }),
      'GET /api/mail-test/messages/m1': { body: message(summaries[1]!) },
    });
    expect(await screen.findByText('Noch keine Mails')).toBeInTheDocument();
    list = [summaries[1]!];
    await userEvent.setup().click(screen.getByRole('button', { name: 'Aktualisieren' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Deine Tickets für Jazz im Hafen' }),
    ).toBeInTheDocument();
  });

  it('wraps a fragment in a document whose links open outside the frame', () => {
    expect(mailDocument('<p>Hallo</p>')).toBe(
      '<!doctype html><html><head><meta charset="utf-8"><base target="_blank"></head><body><p>Hallo</p></body></html>',
    );
  });
});
