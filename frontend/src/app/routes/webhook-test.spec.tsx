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
});
