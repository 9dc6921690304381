import { createBrowserRouter, data, type RouteObject } from 'react-router';
import { withReloadGuard } from '@/lib/reload-guard';
import { ErrorPage, RouteError } from './error-page';
import { RootError } from './root-error';
import { Shell, ShellFrame } from './shell/shell';
import { BootFallback } from './boot-fallback';

// Every page is its own chunk (SPEC §2: pages load on demand); a failed chunk load goes through the guard.
const page = withReloadGuard;

export const routes: RouteObject[] = [
  {
    element: <Shell />,
    hydrateFallbackElement: <BootFallback />,
    errorElement: (
      <ShellFrame>
        <RootError />
      </ShellFrame>
    ),
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, lazy: page(() => import('./routes/home')) },
          { path: 'events/:slug', lazy: page(() => import('./routes/event')) },
          { path: 'merch/:slug', lazy: page(() => import('./routes/merch')) },
          { path: 'next', lazy: page(() => import('./routes/next')) },
          { path: 'cart', lazy: page(() => import('./routes/cart')) },
          { path: 'checkout', lazy: page(() => import('./routes/checkout')) },
          { path: 'success', lazy: page(() => import('./routes/success')) },
          { path: 'blog', lazy: page(() => import('./routes/blog')) },
          { path: 'blog/:slug', lazy: page(() => import('./routes/blog-post')) },
          { path: 'faq', lazy: page(() => import('./routes/faq')) },
          { path: 'contact', lazy: page(() => import('./routes/contact')) },
          { path: 'impressum', lazy: page(() => import('./routes/impressum')) },
          { path: 'datenschutz', lazy: page(() => import('./routes/datenschutz')) },
          { path: 'coupon-test', lazy: page(() => import('./routes/coupon-test')) },
          { path: 'webhook-test', lazy: page(() => import('./routes/webhook-test')) },
          { path: 'apple-pay-test', lazy: page(() => import('./routes/apple-pay-test')) },
          { path: 'tickets/:token', lazy: page(() => import('./routes/ticket')) },
          { path: 'mail-test', lazy: page(() => import('./routes/mail-test')) },
          { path: 'einlass', lazy: page(() => import('./routes/einlass')) },
          {
            path: '*',
            // The loader answers first; the element only keeps the router from warning.
            element: <ErrorPage status={404} />,
            loader: () => {
              throw data('Not Found', { status: 404 });
            },
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
