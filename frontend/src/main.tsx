import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot, type ErrorInfo } from 'react-dom/client';
import { matchRoutes, RouterProvider } from 'react-router';
import { initInspector } from '@/lib/inspect';
import { BotContext } from '@/lib/bot';
import { SiteOriginContext } from '@/lib/site-origin';
import { readPageData } from '@/lib/hydration';
import { beginHydration, HydrationScope } from '@/lib/use-hydrated';
import { createAppRouter, routes } from '@/app/router';
import '@/styles/tokens.css';
import '@/styles/global.css';

/**
 * The matched pages' chunks, loaded before hydrating: the first render in the browser must
 * produce the server's markup, so no page may still be a pending lazy route (react-router
 * "lazy routes with SSR").
 */
async function loadMatchedRoutes(): Promise<void> {
  const matches = matchRoutes(routes, window.location) ?? [];
  // One at a time, each evaluated in a task of its own; the server's modulepreload links
  // (hydrate.js) have them all on the way already.
  for (const { route } of matches) {
    if (typeof route.lazy !== 'function') continue;
    const module = await route.lazy();
    Object.assign(route, { ...module, lazy: undefined });
    await nextTask();
  }
}

/**
 * Resolves in a new task, so that the browser can paint and handle input in between
 * (Total Blocking Time). A message, unlike setTimeout, is not held back by timer clamping.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/** Hydration mismatches and errors React recovered from: loud, so tests see them. */
function onRecoverableError(error: unknown, info: ErrorInfo) {
  console.error('React hat sich von einem Fehler erholt:', error, info.componentStack ?? '');
}

async function start() {
  // Before any actor exists, so that the inspector sees every one of them.
  await initInspector();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root fehlt in index.html');
  // Every page comes from the server's render (backend/src/site), with its data.
  const page = readPageData();
  if (!page) {
    // Only Vite's dev server (`npm run dev`) sends index.html unrendered: render from
    // scratch there. A literal Vite folds, so production bundles carry none of this.
    if (!import.meta.env.DEV) throw new Error('Seitendaten fehlen im HTML');
    createRoot(root).render(<RouterProvider router={createAppRouter()} />);
    return;
  }
  // The bundle's evaluation was one task; matching the routes (react-router's first run)
  // is the next.
  await nextTask();
  await loadMatchedRoutes();
  const router = createAppRouter(page.hydration);
  await nextTask();
  // rules "Rendering": the server rendered this tree from the same routes and data. As a
  // transition, hydration yields to the browser between slices instead of one long task
  // (Total Blocking Time); the server's HTML stays visible meanwhile.
  beginHydration();
  startTransition(() => {
    hydrateRoot(
      root,
      <StrictMode>
        <HydrationScope>
          <BotContext value={page.bot}>
            <SiteOriginContext value={page.origin}>
              <RouterProvider router={router} />
            </SiteOriginContext>
          </BotContext>
        </HydrationScope>
      </StrictMode>,
      { onRecoverableError },
    );
  });
}

void start();
