import { render } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { RouteError } from '@/app/error-page';
import { BotContext } from '@/lib/bot';
import { SiteOriginContext } from '@/lib/site-origin';
import { useRouteMeta } from '@/lib/page-head';

/** What the app's shell does for a page: its head from `handle.meta`, errors as error pages. */
function PageFrame() {
  useRouteMeta();
  return <Outlet />;
}

/** Renders routes in a memory router, as the app does in the browser after hydration. */
export function renderRoutes(
  routes: RouteObject[],
  path = '/',
  options: { bot?: boolean; origin?: string } = {},
) {
  const router = createMemoryRouter(
    [{ element: <PageFrame />, errorElement: <RouteError />, children: routes }],
    { initialEntries: [path] },
  );
  return {
    router,
    ...render(
      <BotContext value={options.bot ?? false}>
        <SiteOriginContext value={options.origin ?? ''}>
          <RouterProvider router={router} />
        </SiteOriginContext>
      </BotContext>,
    ),
  };
}

type Reply = { status?: number; body: unknown };

/** A fetch stand-in answering by "METHOD path"; unknown calls fail loudly. */
export function mockFetch(replies: Record<string, Reply | ((body: unknown) => Reply)>) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  const fn = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input.toString();
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body });
    const entry = replies[`${method} ${url}`];
    if (!entry) throw new Error(`unexpected fetch ${method} ${url}`);
    const reply = typeof entry === 'function' ? entry(body) : entry;
    const status = reply.status ?? 200;
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: '',
      text: async () => JSON.stringify(reply.body),
    } as Response;
  });
  globalThis.fetch = fn as unknown as typeof fetch;
  return { fn, calls };
}
