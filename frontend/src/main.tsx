import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { initInspector } from '@/lib/inspect';
import { createAppRouter } from '@/app/router';
import { firstLoadDone } from '@/lib/first-load';
import '@/styles/tokens.css';
import '@/styles/global.css';

async function start() {
  // Before any actor exists, so that the inspector sees every one of them.
  await initInspector();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root fehlt in index.html');
  const router = createAppRouter();
  // The server's HTML already shows the header (backend/src/site/shell-snapshot.ts). Rendering
  // once the first route's chunk is in replaces it with the full page in one commit, instead
  // of blanking it with the boot fallback in between.
  if (!router.state.initialized) {
    await new Promise<void>((resolve) => {
      const unsubscribe = router.subscribe((state) => {
        if (!state.initialized) return;
        unsubscribe();
        resolve();
      });
    });
  }
  firstLoadDone();
  // A transition renders in slices that yield to the browser, so the first render is no
  // single long task (Total Blocking Time); the header snapshot stays until commit.
  const reactRoot = createRoot(root);
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    );
  });
}

void start();
