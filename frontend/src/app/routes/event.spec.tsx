/** @jest-environment ./test/jsdom-env.cjs */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EventDetail } from '@awhh/machines';
import { getCartActor } from '@/features/cart/cart-actor';
import { simpleEvent, tieredEvent } from '../../../test/catalog-fixtures';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { Component, handle, loader } from './event';

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
    [{ path: '/events/:slug', loader, Component, handle, HydrateFallback: () => null }],
    `/events/${slug}`,
  );
}

const cartItems = () => getCartActor().getSnapshot().context.items;

beforeEach(() => {
  localStorage.clear();
  act(() => getCartActor().send({ type: 'cart.clear' }));
});

describe('event page with ticket tiers (DESIGN "Everything the shop sells")', () => {
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
      },
    ]);

    await user.click(screen.getByRole('radio', { name: 'Regulär' }));
    await user.click(screen.getByRole('button', { name: 'In den Warenkorb' }));
    expect(cartItems().map((i) => [i.id, i.name, i.price, i.quantity])).toEqual([
      ['109:1093', 'Sommer-Afterwork auf der MS Hamburg – VIP', 49, 4],
      ['109:1092', 'Sommer-Afterwork auf der MS Hamburg – Regulär', 35, 4],
    ]);
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
