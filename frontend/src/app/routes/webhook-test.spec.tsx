/** @jest-environment ./test/jsdom-env.cjs */
import { screen } from '@testing-library/react';
import { mockFetch, renderRoutes } from '../../../test/helpers';
import { Component, handle } from './webhook-test';

const CLOSED = 'Diese interne Testseite ist im Produktivbetrieb abgeschaltet.';

function renderPage(replies: Parameters<typeof mockFetch>[0]) {
  mockFetch(replies);
  renderRoutes([{ path: '/webhook-test', Component, handle }], '/webhook-test');
}

describe('webhook test page', () => {
  it('in production it explains in German that the data stay with the server, and offers nothing to send', async () => {
    const closed = { status: 404, body: { statusCode: 404, error: 'Not Found', message: CLOSED } };
    renderPage({
      'GET /api/checkout/webhook/events': closed,
      'GET /api/waitlist/counts': closed,
    });
    expect(await screen.findByText(new RegExp(CLOSED))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Test-Ereignis senden' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Wartelisten' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Erneut/ })).toBeNull();
  });

  it('on a test site it lists the events and offers a test event', async () => {
    renderPage({
      'GET /api/checkout/webhook/events': {
        body: {
          mode: 'test',
          events: [
            { type: 'awhh.webhook_test', receivedAt: '2026-05-01T10:00:00.000Z', outcome: 'test' },
          ],
        },
      },
      'GET /api/waitlist/counts': { body: { rows: [] } },
      'GET /api/webhooks/woocommerce/events': {
        body: {
          events: [
            {
              type: 'order.updated',
              receivedAt: '2026-05-01T10:01:00.000Z',
              outcome: 'canceled',
            },
          ],
        },
      },
    });
    expect(await screen.findByText('awhh.webhook_test')).toBeInTheDocument();
    // rules "WooCommerce webhooks": the shop's deliveries in their own section.
    expect(screen.getByRole('heading', { name: 'WooCommerce' })).toBeInTheDocument();
    expect(await screen.findByText('order.updated')).toBeInTheDocument();
    expect(screen.getByText('canceled')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Test-Ereignis senden' })).toBeInTheDocument();
    expect(screen.queryByText(new RegExp(CLOSED))).toBeNull();
  });

  it('rules "Hand-off refused": lists the orders WooCommerce refused with its message, and in test mode a retry', async () => {
    renderPage({
      'GET /api/checkout/webhook/events': { body: { mode: 'test', events: [] } },
      'GET /api/waitlist/counts': { body: { rows: [] } },
      'GET /api/webhooks/woocommerce/events': { body: { events: [] } },
      'GET /api/checkout/handoffs/refused': {
        body: {
          orders: [
            {
              orderId: 'ord_abc',
              state: 'Übergabe fehlgeschlagen',
              reason: 'Coupon "abgelaufen" has expired.',
              at: '2026-05-01T10:02:00.000Z',
            },
          ],
        },
      },
    });
    expect(await screen.findByText('ord_abc')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Übergaben an den Shop' })).toBeInTheDocument();
    expect(screen.getByText('Übergabe fehlgeschlagen')).toBeInTheDocument();
    expect(screen.getByText('Coupon "abgelaufen" has expired.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Übergabe wiederholen' })).toBeInTheDocument();
  });

  it('rules "Orders made in the shop": shows the sweep\'s last run, what it read and applied, and its changes among the deliveries', async () => {
    renderPage({
      'GET /api/checkout/webhook/events': { body: { mode: 'test', events: [] } },
      'GET /api/waitlist/counts': { body: { rows: [] } },
      'GET /api/checkout/handoffs/refused': { body: { orders: [] } },
      'GET /api/webhooks/woocommerce/events': {
        body: {
          events: [
            { type: 'sweep', receivedAt: '2026-05-01T10:05:00.000Z', outcome: 'tickets_revoked' },
          ],
          sweep: {
            lastRunAt: '2026-05-01T10:05:00.000Z',
            readUpTo: '2026-05-01T10:04:12.000Z',
            read: 3,
            applied: 1,
            error: null,
          },
        },
      },
    });
    expect(
      await screen.findByRole('heading', { name: 'Abgleich mit dem Shop' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Abgleich')).toBeInTheDocument();
    expect(screen.getByText('tickets_revoked')).toBeInTheDocument();
    expect(screen.getByText('3 Bestellungen')).toBeInTheDocument();
    expect(screen.getByText('1 Änderung')).toBeInTheDocument();
    // Berlin time, German format.
    expect(screen.getAllByText('01.05.26, 12:05:00').length).toBeGreaterThan(0);
    expect(screen.queryByText('Der letzte Abgleich ist fehlgeschlagen')).toBeNull();
  });

  it('rules "Orders made in the shop": a failed sweep says so with its reason', async () => {
    renderPage({
      'GET /api/checkout/webhook/events': { body: { mode: 'test', events: [] } },
      'GET /api/waitlist/counts': { body: { rows: [] } },
      'GET /api/checkout/handoffs/refused': { body: { orders: [] } },
      'GET /api/webhooks/woocommerce/events': {
        body: {
          events: [],
          sweep: {
            lastRunAt: '2026-05-01T10:05:00.000Z',
            readUpTo: null,
            read: 0,
            applied: 0,
            error: 'WooCommerce: GET /wp-json/wc/v3/orders failed with 503',
          },
        },
      },
    });
    expect(await screen.findByText('Der letzte Abgleich ist fehlgeschlagen')).toBeInTheDocument();
    expect(
      screen.getByText('WooCommerce: GET /wp-json/wc/v3/orders failed with 503'),
    ).toBeInTheDocument();
  });
});
