import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { constants as zlib } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { apiErrorBody, defaultMessage } from '../common/api-error.js';
import type { SiteSettings } from './site.config.js';
import type { SiteResponse, SiteService } from './site.service.js';

/** Hashed bundles never change under their name (Vite puts the content hash in it). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Other public files (images, favicon, fonts without hash) may change on a deploy. */
export const PUBLIC_FILE = 'public, max-age=3600';

/** /einlass's service worker (rules "Tickets and the door"), scoped to that page. */
const DOOR_SERVICE_WORKER = 'einlass-sw.js';
/** The ticket pages' service worker (scope /tickets/). */
const TICKET_SERVICE_WORKER = join('tickets', 'sw.js');

/** Served by the routes below, never as raw files from the build output. */
const GENERATED = new Set(['index.html', 'robots.txt', 'sitemap.xml']);

function send(reply: FastifyReply, response: SiteResponse) {
  return reply.status(response.status).headers(response.headers).send(response.body);
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/**
 * The built frontend for the single-process `npm start` and for HTML requests that nginx
 * forwards (it serves the files itself). Registered as an encapsulated plugin so the
 * compression stays with these routes and the API keeps its own behaviour.
 */
export function siteRoutes(site: SiteService, staticDir: string, settings: SiteSettings) {
  return async function plugin(scope: FastifyInstance): Promise<void> {
    await scope.register(fastifyCompress, {
      global: true,
      threshold: 1024,
      encodings: ['br', 'gzip'],
      // Quality 11 (the default) costs tens of ms per bundle; 5 compresses almost as well.
      brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } },
    });

    await scope.register(fastifyStatic, {
      root: staticDir,
      prefix: '/',
      // One route per built file; anything else falls through to the page handler.
      wildcard: false,
      index: false,
      cacheControl: false,
      preCompressed: true,
      globIgnore: [...GENERATED],
      setHeaders: (reply, filePath) => {
        reply.header(
          'cache-control',
          filePath.startsWith(join(staticDir, 'assets') + sep)
            ? IMMUTABLE
            : // The door's service worker is always revalidated (nginx says the same).
              filePath === join(staticDir, DOOR_SERVICE_WORKER) ||
                filePath === join(staticDir, TICKET_SERVICE_WORKER)
              ? 'no-cache'
              : PUBLIC_FILE,
        );
      },
    });

    // The page lives at /, with its meta; the raw template is never served.
    scope.get('/index.html', async (_request, reply) => reply.redirect('/', 301));

    scope.get('/robots.txt', async (_request, reply) =>
      reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', PUBLIC_FILE)
        .send(site.robots()),
    );

    scope.get('/sitemap.xml', async (_request, reply) =>
      reply
        .header('content-type', 'application/xml; charset=utf-8')
        .header('cache-control', 'public, max-age=600')
        .send(await site.sitemap()),
    );

    const association = settings.applePayDomainAssociation;
    scope.get('/.well-known/apple-developer-merchantid-domain-association', async (_r, reply) => {
      // Read per request: ops may replace the file without a restart.
      if (!association || !existsSync(association)) {
        return reply
          .status(404)
          .header('content-type', 'text/plain; charset=utf-8')
          .send('Nicht gefunden.');
      }
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', PUBLIC_FILE)
        .send(readFileSync(association));
    });

    scope.get('/*', async (request, reply) => {
      const path = pathOf(request.url);
      // Unknown API routes and missing bundles must never get HTML with status 200.
      if (path === '/api' || path.startsWith('/api/')) {
        return reply.status(404).send(apiErrorBody(404, defaultMessage(404)));
      }
      if (path.startsWith('/assets/') || path.startsWith('/.well-known/')) {
        return reply
          .status(404)
          .header('content-type', 'text/plain; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send('Nicht gefunden.');
      }
      // Path and query: the page renders what the browser will hydrate (/success?session_id=…).
      return send(reply, await site.page(request.url, request.headers['user-agent']));
    });
    scope.get('/', async (request, reply) =>
      send(reply, await site.page(request.url, request.headers['user-agent'])),
    );
  };
}
