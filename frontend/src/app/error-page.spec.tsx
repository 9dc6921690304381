/** @jest-environment ./test/jsdom-env.cjs */
import { screen } from '@testing-library/react';
import { mockFetch, renderRoutes } from '../../test/helpers';
import { RouteError } from './error-page';
import { routes } from './router';

beforeEach(() => {
  mockFetch({ 'GET /api/woocommerce/products': { body: [] } });
  jest.spyOn(console, 'error').mockImplementation(() => {});
  jest.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  jest.restoreAllMocks();
});

function failingRoutes() {
  return [
    {
      path: '/',
      errorElement: <RouteError />,
      loader: () => {
        throw new Error('boom');
      },
      element: <p>nie sichtbar</p>,
    },
  ];
}

describe('error pages (rules §2, §8)', () => {
  it('answers an unknown route with "Page Not Found" and the path', async () => {
    renderRoutes(routes, '/gibt-es-nicht');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Page Not Found' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Page not found: /gibt-es-nicht')).toBeInTheDocument();
    // Inside the shell: header and footer stay.
    expect(screen.getByRole('link', { name: /Warenkorb/ })).toBeInTheDocument();
    expect(document.title).toContain('Page Not Found');
  });

  it('shows "Internal Server Error" for any other fatal error', async () => {
    renderRoutes(failingRoutes());
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Internal Server Error' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('nie sichtbar')).not.toBeInTheDocument();
  });

  it('renders no error page for a bot user agent', async () => {
    // The server decided (isbot, per request) and handed the answer over with the page's data.
    const { router } = renderRoutes(routes, '/gibt-es-nicht', { bot: true });
    await screen.findByRole('link', { name: /Warenkorb/ });
    await new Promise((r) => setTimeout(r, 0));
    expect(router.state.errors).not.toBeNull();
    expect(screen.queryByText('Page Not Found')).not.toBeInTheDocument();
    expect(screen.queryByText(/Page not found/)).not.toBeInTheDocument();

    renderRoutes(failingRoutes(), '/', { bot: true });
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.queryByText('Internal Server Error')).not.toBeInTheDocument();
  });
});
