import { pathToFileURL } from 'node:url';
import type { PageDataSource, PageRendererModule, RenderPage } from '@awhh/machines';

// The frontend's server entry (frontend/src/entry-server.tsx, built by `vite build --ssr`
// into frontend/dist-ssr/). rules "Rendering": every page is rendered from the same React
// route modules the browser hydrates; the backend only feeds the loaders and wraps the
// result into the built index.html. The contract between the two lives in machines
// (render/render.contract.ts), because nothing here imports the frontend's sources (imports
// flow one way, docs/architecture.md).

/** Imports the built server entry once per process and installs the data source in it. */
export async function loadPageRenderer(
  entryPath: string,
  source: PageDataSource,
): Promise<RenderPage> {
  const module = (await import(pathToFileURL(entryPath).href)) as Partial<PageRendererModule>;
  if (typeof module.createRenderer !== 'function') {
    throw new Error(`${entryPath} exports no createRenderer`);
  }
  return module.createRenderer(source);
}
