/** @jest-environment ./test/jsdom-env.cjs */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EventDetail } from '@awhh/machines';
import { getCartActor } from '@/features/cart/cart-actor';
import { simpleEvent, tieredEvent } from '../../../test/catalog-fixtures';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { action, Component, handle, loader } from './event';

function renderEvent(event: EventDetail | null, slug = event?.slug ?? 'gibt-es-nicht') {
  mockFetch({
    [`GET /api/events/${slug}`]: event
      ? { body: event }
      : {
          status: 404,
          body: { statusCode: 404, error: 'Not Found', message: 'Event nicht gefunden.' },
        },
  });
  return renderRoutes(
    [{ path: '/events/:slug', loader, action, Component, handle, HydrateFallback: () => null }],
    `/events/${slug}`,
  );
}

const cartItems = () => getCartActor().getSnapshot().context.items;

beforeEach(() => {
  localStorage.clear();
  act(() => getCartActor().send({ type: 'cart.clear' }));
});

describe('event page with ticket tiers (rules "Everything the shop sells")', () => {
  it('offers the tiers as a radio group: sold out disabled, the first open tier chosen, sale struck', async () => {
    renderEvent(tieredEvent);
    const group = await screen.findByRole('group', { name: 'Ticket wählen' });
    expect(within(group).getAllByRole('radio')).toHaveLength(3);

    const earlyBird = within(group).getByRole('radio', { name: 'Early Bird' });
    expect(earlyBird).toBeDisabled();
    expect(earlyBird).toHaveAccessibleDescription(/^25,00\s€ Ausverkauft$/);

    const regular = within(group).getByRole('radio', { name: 'Regulär' });
    expect(regular).toBeChecked();
    expect(regular).toHaveAccessibleDescription(/^35,00\s€ Verfügbar$/);

    const vip = within(group).getByRole('radio', { name: 'VIP' });
    expect(vip).toBeEnabled();
    expect(vip).toHaveAccessibleDescription(/^49,00\s€ statt 59,00\s€ Nur noch 4 verfügbar$/);
    // The struck regular price is marked up as such, with words for screen readers.
    expect(within(vip.closest('label')!).getByText('59,00 €').closest('s')).toHaveTextContent(
      'statt 59,00 €',
    );
  });

  it("adds the chosen tier as its own line: id productId:variationId, the tier's name and price", async () => {
    const user = userEvent.setup();
    renderEvent(tieredEvent);
    await user.click(await screen.findByRole('radio', { name: 'VIP' }));
    const tickets = screen.getByRole('complementary', { name: 'Tickets' });
    expect(within(tickets).getAllByText('Nur noch 4 verfügbar').length).toBeGreaterThan(0);

    const more = screen.getByRole('button', { name: 'Mehr' });
    for (let i = 0; i < 5; i++) if (!(more as HTMLButtonElement).disabled) await user.click(more);
    // At most what the tier has left.
    expect(screen.getByRole('spinbutton', { name: 'Anzahl Tickets' })).toHaveValue(4);
    expect(more).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'In den Warenkorb' }));
    expect(
      await screen.findByText(/4 Tickets „VIP“ wurden in den Warenkorb gelegt\./),
    ).toBeVisible();
    expect(cartItems()).toEqual([
      {
        id: '109:1093',
        productId: 109,
        variationId: 1093,
        name: 'Sommer-Afterwork auf der MS Hamburg – VIP',
        price: 49,
        quantity: 4,
        currency: 'eur',
        image: '/media/demo/event-ms-hamburg.svg',
        maxPerOrder: 10,
      },
    ]);

    await user.click(screen.getByRole('radio', { name: 'Regulär' }));
    await user.click(screen.getByRole('button', { name: 'In den Warenkorb' }));
    expect(cartItems().map((i) => [i.id, i.name, i.price, i.quantity])).toEqual([
      ['109:1093', 'Sommer-Afterwork auf der MS Hamburg – VIP', 49, 4],
      ['109:1092', 'Sommer-Afterwork auf der MS Hamburg – Regulär', 35, 4],
    ]);
  });

  it("stops at the server's limit per order over all tiers, and says so", async () => {
    const user = userEvent.setup();
    renderEvent({ ...tieredEvent, maxPerOrder: 6 });
    await screen.findByRole('radio', { name: 'Regulär' });
    const more = screen.getByRole('button', { name: 'Mehr' });
    for (let i = 0; i < 8; i++) if (!(more as HTMLButtonElement).disabled) await user.click(more);
    expect(screen.getByRole('spinbutton', { name: 'Anzahl Tickets' })).toHaveValue(6);
    expect(more).toBeDisabled();
    expect(screen.getByText('Höchstens 6 pro Bestellung.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'In den Warenkorb' }));
    expect(await screen.findByText(/6 Tickets „Regulär“ wurden/)).toBeVisible();

    // The VIP tier shares the event's limit: the cart takes nothing more and says so.
    await user.click(screen.getByRole('radio', { name: 'VIP' }));
    await user.click(screen.getByRole('button', { name: 'In den Warenkorb' }));
    expect(
      await screen.findByText(
        'Mehr davon passt nicht in eine Bestellung – dein Warenkorb ist am Limit.',
      ),
    ).toBeVisible();
    expect(cartItems().map((i) => [i.id, i.quantity])).toEqual([['109:1092', 6]]);
  });

  it('lowers the quantity to what a newly chosen tier has left', async () => {
    const user = userEvent.setup();
    renderEvent(tieredEvent);
    const quantity = await screen.findByRole('spinbutton', { name: 'Anzahl Tickets' });
    for (let i = 1; i < 7; i++) await user.click(screen.getByRole('button', { name: 'Mehr' }));
    expect(quantity).toHaveValue(7);
    await user.click(screen.getByRole('radio', { name: 'VIP' }));
    expect(quantity).toHaveValue(4);
  });

  it('cannot book an event whose tiers are all sold out', async () => {
    renderEvent({
      ...tieredEvent,
      availability: 'sold_out',
      available: 0,
      variants: tieredEvent.variants.map((v) => ({ ...v, availability: 'sold_out', available: 0 })),
    });
    expect(await screen.findByRole('button', { name: 'Ausverkauft' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'In den Warenkorb' })).not.toBeInTheDocument();
  });
});

describe('event page of a simple event', () => {
  it('shows the sale price with the regular price struck and adds the product as before', async () => {
    const user = userEvent.setup();
    renderEvent(simpleEvent);
    const tickets = await screen.findByRole('complementary', { name: 'Tickets' });
    expect(within(tickets).getByText('statt').closest('s')).toHaveTextContent('statt 24,90 €');
    expect(within(tickets).getByText(/19,90 €/)).toBeInTheDocument();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'In den Warenkorb' }));
    expect(await screen.findByText(/^1 Ticket wurde in den Warenkorb gelegt\./)).toBeVisible();
    expect(cartItems()).toEqual([
      expect.objectContaining({ id: '101', productId: 101, name: simpleEvent.name, price: 19.9 }),
    ]);
    expect(cartItems()[0]).not.toHaveProperty('variationId');
  });

  it('shows the 404 page for an unknown event', async () => {
    renderEvent(null);
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
  });
});

describe('waiting list on the event page (docs/features.md "Waiting list")', () => {
  it('a join refused because places are on sale says so in German and shows the places again', async () => {
    const user = userEvent.setup();
    const message = `Für „${simpleEvent.name}“ sind noch Plätze frei – du kannst sie direkt buchen. Auf die Warteliste kommst du, sobald alles vergeben ist.`;
    let asked = 0;
    const { calls } = mockFetch({
      [`GET /api/events/${simpleEvent.slug}`]: { body: simpleEvent },
      // Held by open checkouts when the page opened; one lapsed before the visitor joined.
      [`GET /api/waitlist/availability/${simpleEvent.id}`]: () => {
        asked += 1;
        return { body: { productId: simpleEvent.id, free: asked === 1 ? 0 : 2, variants: [] } };
      },
      'POST /api/waitlist': {
        status: 409,
        body: { statusCode: 409, error: 'Conflict', message },
      },
    });
    renderRoutes(
      [{ path: '/events/:slug', loader, action, Component, handle, HydrateFallback: () => null }],
      `/events/${simpleEvent.slug}`,
    );
    const waitlist = await screen.findByRole('region', { name: 'Warteliste' });
    await user.click(within(waitlist).getByRole('button', { name: 'Auf die Warteliste' }));
    await user.type(within(waitlist).getByRole('textbox', { name: 'E-Mail' }), 'a@example.org');
    await user.click(within(waitlist).getByLabelText(/Datenschutzerklärung/));
    await user.click(within(waitlist).getByRole('button', { name: 'Auf die Warteliste' }));

    const status = await within(waitlist).findByRole('status');
    expect(status).toHaveTextContent('Noch Plätze frei');
    expect(status).toHaveTextContent(message);
    expect(within(waitlist).queryByText('Nicht eingetragen')).toBeNull();
    await user.click(within(status).getByRole('button', { name: 'Freie Plätze anzeigen' }));
    expect(await screen.findByRole('button', { name: 'In den Warenkorb' })).toBeEnabled();
    expect(screen.queryByRole('region', { name: 'Warteliste' })).toBeNull();
    expect(calls.filter((c) => c.url.includes('/availability/'))).toHaveLength(2);
  });
});
