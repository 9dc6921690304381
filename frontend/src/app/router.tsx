import { createBrowserRouter, data, type HydrationState, type RouteObject } from 'react-router';
import { withReloadGuard } from '@/lib/reload-guard';
import { ErrorPage, RouteError } from './error-page';
import { RootError } from './root-error';
import { Shell, ShellFrame } from './shell/shell';

// Every page is its own chunk (rules §2: pages load on demand); a failed chunk load goes through the guard.
// The same table renders on the server (entry-server.tsx) and hydrates in the browser
// (main.tsx). A page's id names its module (src/app/routes/{id}.tsx): the server preloads
// the chunks of the matched pages with the HTML.
const page = withReloadGuard;

export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <Shell />,
    errorElement: (
      <ShellFrame>
        <RootError />
      </ShellFrame>
    ),
    children: [
      {
        id: 'pages',
        errorElement: <RouteError />,
        children: [
          { id: 'home', index: true, lazy: page(() => import('./routes/home')) },
          { id: 'event', path: 'events/:slug', lazy: page(() => import('./routes/event')) },
          { id: 'merch', path: 'merch/:slug', lazy: page(() => import('./routes/merch')) },
          { id: 'next', path: 'next', lazy: page(() => import('./routes/next')) },
          { id: 'cart', path: 'cart', lazy: page(() => import('./routes/cart')) },
          { id: 'checkout', path: 'checkout', lazy: page(() => import('./routes/checkout')) },
          { id: 'success', path: 'success', lazy: page(() => import('./routes/success')) },
          { id: 'blog', path: 'blog', lazy: page(() => import('./routes/blog')) },
          { id: 'blog-post', path: 'blog/:slug', lazy: page(() => import('./routes/blog-post')) },
          { id: 'faq', path: 'faq', lazy: page(() => import('./routes/faq')) },
          { id: 'contact', path: 'contact', lazy: page(() => import('./routes/contact')) },
          { id: 'impressum', path: 'impressum', lazy: page(() => import('./routes/impressum')) },
          {
            id: 'datenschutz',
            path: 'datenschutz',
            lazy: page(() => import('./routes/datenschutz')),
          },
          {
            id: 'coupon-test',
            path: 'coupon-test',
            lazy: page(() => import('./routes/coupon-test')),
          },
          {
            id: 'webhook-test',
            path: 'webhook-test',
            lazy: page(() => import('./routes/webhook-test')),
          },
          {
            id: 'apple-pay-test',
            path: 'apple-pay-test',
            lazy: page(() => import('./routes/apple-pay-test')),
          },
          { id: 'ticket', path: 'tickets/:token', lazy: page(() => import('./routes/ticket')) },
          { id: 'mail-test', path: 'mail-test', lazy: page(() => import('./routes/mail-test')) },
          {
            id: 'waitlist-confirm',
            path: 'waitlist/confirm/:token',
            lazy: page(() => import('./routes/waitlist-confirm')),
          },
          {
            id: 'waitlist-offer',
            path: 'waitlist/offer/:token',
            lazy: page(() => import('./routes/waitlist-offer')),
          },
          {
            id: 'waitlist-unsubscribe',
            path: 'waitlist/unsubscribe/:token',
            lazy: page(() => import('./routes/waitlist-unsubscribe')),
          },
          {
            id: 'einlass',
            path: 'einlass',
            lazy: page(() => import('./routes/einlass')),
          },
          {
            id: 'veranstalter',
            path: 'veranstalter',
            lazy: page(() => import('./routes/veranstalter')),
          },
          {
            id: 'not-found',
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

export function createAppRouter(hydrationData?: HydrationState) {
  return createBrowserRouter(routes, { hydrationData });
}
