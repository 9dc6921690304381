import { PassThrough } from 'node:stream';
import type { ReactNode } from 'react';
import type { RenderPage } from '@awhh/machines';
import { renderToPipeableStream } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  isRouteErrorResponse,
  StaticRouterProvider,
  type HydrationState,
  type StaticHandlerContext,
} from 'react-router';
import { routes } from '@/app/router';
import { errorPageMeta } from '@/app/error-page';
import { BotContext } from '@/lib/bot';
import { SiteOriginContext } from '@/lib/site-origin';
import { type DataSource, installDataSource } from '@/lib/data-source';
import { PAGE_DATA_ID, type PageData } from '@/lib/hydration';
import { type PageMeta, pageMeta, SITE_NAME } from '@/lib/page-head';
import { escapeHtml, jsonForScript, renderHead } from '@/server/head';

// The server half of rules "Rendering": the products process imports this bundle
// (vite build --ssr → dist-ssr/entry-server.js) and renders every page from the same route
// table the browser hydrates (main.tsx). One static handler per process: the route table
// and its resolved lazy modules are reused by every request. The contract with the products
// process (RenderRequest, RenderResult) lives in machines/src/render/render.contract.ts.

/** Errors as plain data: route error responses keep the shape isRouteErrorResponse() accepts. */
function serializeErrors(errors: StaticHandlerContext['errors']): HydrationState['errors'] {
  if (!errors) return null;
  return Object.fromEntries(
    Object.entries(errors).map(([id, error]) => [
      id,
      isRouteErrorResponse(error)
        ? {
            status: error.status,
            statusText: error.statusText,
            internal: false,
            data: error.data ?? null,
          }
        : { message: 'Internal Server Error' },
    ]),
  );
}

function toHtml(element: ReactNode, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    let failed: unknown = null;
    const stream = renderToPipeableStream(element, {
      // All data is loaded before rendering; waiting for every boundary (lazy chunks
      // below the fold) and keeping large boundaries in place (React would move them behind
      // inline scripts, which the Content-Security-Policy blocks) makes the HTML complete.
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      onAllReady() {
        if (failed) return;
        const sink = new PassThrough();
        const chunks: Buffer[] = [];
        sink.on('data', (chunk: Buffer) => chunks.push(chunk));
        sink.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        stream.pipe(sink);
      },
      onShellError(error) {
        reject(error);
      },
      onError(error) {
        failed = error;
        reject(error);
      },
    });
    signal?.addEventListener('abort', () => stream.abort(), { once: true });
  });
}

/** A page whose route names no head of its own: the site's name, kept out of the index. */
const DEFAULT_META: PageMeta = {
  title: SITE_NAME,
  description: `${SITE_NAME} – Networking, Music & Drinks in exklusiven Locations.`,
  noindex: true,
};

/** Installs the process's data source and returns the page renderer. */
export function createRenderer(source: DataSource): RenderPage {
  installDataSource(source);
  const handler = createStaticHandler(routes);

  return async function render({ url, origin, bot, signal }) {
    const request = new Request(new URL(url, origin), { signal });
    const context = await handler.query(request);
    if (context instanceof Response) {
      return {
        kind: 'redirect',
        status: context.status,
        location: context.headers.get('location') ?? '/',
      };
    }
    const router = createStaticRouter(handler.dataRoutes, context);
    const html = await toHtml(
      <BotContext value={bot}>
        <SiteOriginContext value={origin}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </SiteOriginContext>
      </BotContext>,
      signal,
    );
    // React writes resource hints for the images it renders (<link rel="preload">) before
    // the markup; they belong into the head, where a whole-document render puts them.
    const leading = /^(?:<link [^>]*>)+/.exec(html)?.[0] ?? '';
    const pathname = context.location.pathname;
    const failed = context.errors ? Object.values(context.errors)[0] : null;
    const meta = failed
      ? errorPageMeta(isRouteErrorResponse(failed) ? failed.status : 500, pathname)
      : (pageMeta(
          context.matches.map((m) => ({
            handle: m.route.handle,
            data: context.loaderData[m.route.id],
          })),
          pathname,
          origin,
        ) ?? DEFAULT_META);
    const image = failed ? null : (meta.lcpImage ?? null);
    // The first screen's image gets its own high-priority hint from the caller.
    const hints = (leading.match(/<link [^>]*>/g) ?? [])
      .filter((link) => !image || !link.includes(`href="${escapeHtml(image)}"`))
      .join('');
    const data: PageData = {
      hydration: {
        loaderData: context.loaderData,
        actionData: context.actionData,
        errors: serializeErrors(context.errors),
      },
      bot,
      origin,
    };
    return {
      kind: 'page',
      status: context.statusCode,
      head: hints ? `${renderHead(meta, origin)}\n    ${hints}` : renderHead(meta, origin),
      html: html.slice(leading.length),
      data: `<script type="application/json" id="${escapeHtml(PAGE_DATA_ID)}">${jsonForScript(data)}</script>`,
      routeIds: context.matches.map((m) => m.route.id),
      image,
    };
  };
}
