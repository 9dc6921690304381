/** @jest-environment ./test/jsdom-env.cjs */
import { screen, waitFor, within } from '@testing-library/react';
// The route loads the merch cards lazily; compiled once here, the chunk is at hand at once.
import '@/features/merch/merch-card';
import { mug, shirt, simpleEvent, tieredEvent } from '../../../test/catalog-fixtures';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { Component, loader } from './home';

const soldOutCap = {
  ...mug,
  id: 203,
  slug: 'awhh-cap-moin',
  name: 'AWHH Cap „Moin“',
  price: 24.9,
  regularPrice: 24.9,
  availability: 'sold_out' as const,
  available: 0,
};

function renderHome(merch: { status?: number; body: unknown }) {
  mockFetch({
    'GET /api/events': { body: [tieredEvent, simpleEvent] },
    'GET /api/merch': merch,
    'GET /api/blog': { body: [] },
  });
  return renderRoutes([{ path: '/', loader, Component, HydrateFallback: () => null }], '/');
}

const card = (name: string) => screen.getByRole('link', { name }).closest('article')!;

describe('/ with events and merch (rules "Everything the shop sells")', () => {
  it('says "ab" only for events whose tiers cost different amounts, and strikes a regular price', async () => {
    renderHome({ body: [] });
    await screen.findByRole('heading', { name: 'Kommende Events' });
    const tiered = await screen.findByRole('link', { name: tieredEvent.name });
    expect(tiered).toHaveAttribute('href', '/events/sommer-afterwork-ms-hamburg');
    expect(within(card(tieredEvent.name)).getByText(/^ab 35,00\s€$/)).toBeVisible();

    const simple = within(card(simpleEvent.name));
    expect(simple.queryByText(/^ab /)).not.toBeInTheDocument();
    expect(simple.getByText('statt').closest('s')).toHaveTextContent('statt 24,90 €');
  });

  it('lists merch with links, prices, sale prices and the sold-out state', async () => {
    renderHome({ body: [shirt, mug, soldOutCap] });
    const shirtLink = await screen.findByRole('link', { name: 'AWHH T-Shirt' });
    expect(shirtLink).toHaveAttribute('href', '/merch/awhh-t-shirt');
    const section = screen.getByRole('region', { name: 'Merch' });
    // Every size costs the same: no "ab".
    expect(within(card('AWHH T-Shirt')).getByText(/^25,00\s€$/)).toBeVisible();

    const mugCard = within(card('AWHH Emaille-Becher'));
    expect(mugCard.getByText('statt').closest('s')).toHaveTextContent('statt 12,00 €');
    expect(mugCard.getByText('Nur noch 6 verfügbar')).toBeVisible();

    expect(within(card('AWHH Cap „Moin“')).getByText('Ausverkauft')).toBeVisible();
    expect(within(section).getAllByRole('listitem')).toHaveLength(3);
  });

  it('leaves the section out when there is no merch', async () => {
    renderHome({ body: [] });
    await screen.findByRole('link', { name: tieredEvent.name });
    await waitFor(() => expect(screen.queryByText('Merch wird geladen')).not.toBeInTheDocument());
    expect(screen.queryByRole('heading', { name: 'Merch' })).not.toBeInTheDocument();
  });

  it("shows the server's message and a retry when merch cannot be loaded", async () => {
    renderHome({
      status: 503,
      body: { statusCode: 503, error: 'Service Unavailable', message: 'Der Shop schläft gerade.' },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Der Shop schläft gerade.');
    const section = alert.closest('section')!;
    expect(within(section).getByRole('heading', { name: 'Merch' })).toBeVisible();
    expect(within(section).getByRole('button', { name: 'Erneut versuchen' })).toBeEnabled();
  });
});

describe('/ links the calendar of all evenings (rules "Calendar of all evenings")', () => {
  it('offers "Alle Termine abonnieren" as webcal:// on the site\'s public host', async () => {
    mockFetch({
      'GET /api/events': { body: [tieredEvent, simpleEvent] },
      'GET /api/merch': { body: [] },
      'GET /api/blog': { body: [] },
    });
    renderRoutes([{ path: '/', loader, Component, HydrateFallback: () => null }], '/', {
      origin: 'https://afterwork.example:8443',
    });
    const link = await screen.findByRole('link', { name: 'Alle Termine abonnieren' });
    expect(link).toHaveAttribute('href', 'webcal://afterwork.example:8443/events.ics');
  });
});
