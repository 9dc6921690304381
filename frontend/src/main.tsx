import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { initInspector } from '@/lib/inspect';
import { createAppRouter } from '@/app/router';
import '@/styles/tokens.css';
import '@/styles/global.css';

async function start() {
  // Before any actor exists, so that the inspector sees every one of them.
  await initInspector();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root fehlt in index.html');
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={createAppRouter()} />
    </StrictMode>,
  );
}

void start();
