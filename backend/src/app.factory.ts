import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NestFactory, HttpAdapterHost } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import {
  ApiExceptionFilter,
  apiErrorHandler,
  toApiErrorBody,
} from './common/api-exception.filter.js';
import { API_PREFIX, apiPrefixExclusions } from './common/api-prefix.js';
import { createLogger } from './common/logger.js';
import { registerLingeringClose } from './common/lingering-close.js';
import { isApiPath, pageFallback } from './common/page-fallback.js';
import { registerRateLimit } from './common/rate-limit.js';
import { acceptRequestId, runWithLogContext } from './common/request-context.js';
import { securityHeaders } from './common/security-headers.js';
import type { AppConfig } from './config/config.js';
import { dueJobs } from './jobs/job.repository.js';
import { MetricsRegistry } from './ops/dependency-metrics.js';
import { AppMetrics, registerHttpMetrics } from './ops/metrics.js';
import { storeFigures } from './ops/store-figures.js';
import { StoreDatabase } from './store/store.database.js';

/** Largest accepted request body; checkout and contact bodies are a few KB. */
export const BODY_LIMIT_BYTES = 100 * 1024;

/** Keeps a caller's X-Request-Id (nginx, the products process) when sane, else makes one. */
function requestId(req: IncomingMessage): string {
  return acceptRequestId(req.headers['x-request-id']);
}

export interface CreateAppOptions {
  /** Access log lines per request; off by default in tests. */
  accessLog?: boolean;
}

/**
 * Fastify as the app runs it: body limit, proxy trust, request ids, German JSON for
 * Fastify's own errors.
 */
export function createFastifyAdapter(config: AppConfig): FastifyAdapter {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    genReqId: requestId,
    // A ticket's signed token (about 150 characters) is a path parameter: /api/tickets/{token}
    // (rules "Tickets and the door"). Fastify's default stops at 100.
    routerOptions: { maxParamLength: 500 },
    // Errors Fastify raises before routing (bad URL encoding, overlong parameters)
    // never reach Nest's filters; they get the same JSON shape here.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      // No hook runs before these: the security headers are set here.
      void reply.headers(securityHeaders(request.raw?.url ?? '/', request.protocol === 'https'));
      const body = toApiErrorBody(error);
      const render = isApiPath(request.raw?.url) ? null : pageFallback(request.server);
      if (!render || body.statusCode >= 500) {
        void reply.status(body.statusCode).send(body);
        return;
      }
      // A page path that cannot even be decoded names no page: the site's 404 page.
      render(request.raw?.url ?? '/', request.headers['user-agent']).then(
        (page) => void reply.status(404).headers(page.headers).send(page.body),
        () => void reply.status(body.statusCode).send(body),
      );
    },
    // Nest's JSON logger writes the log lines; Fastify's pino logger stays off.
    logger: false,
  });
  // Every route carries the handler itself (see apiErrorHandler): set on the instance, Nest's
  // own later setErrorHandler would override it in the same scope, which Fastify warns about.
  const errorHandler = apiErrorHandler(createLogger(config.logLevel));
  adapter.getInstance().addHook('onRoute', (route) => {
    route.errorHandler ??= errorHandler;
  });
  return adapter;
}

/** Nest's options for the app (NestFactory.create or a testing module's createNestApplication). */
export function nestAppOptions(config: AppConfig) {
  return {
    // The Stripe webhook verifies its signature over the exact bytes received.
    rawBody: true,
    logger: createLogger(config.logLevel),
    bufferLogs: false,
    // Throw instead of process.exit so tests and bootstrap() see the real error.
    abortOnError: false,
  };
}

/** Builds the Nest application without listening; tests use `app.inject` or `listen(0)`. */
export async function createApp(
  config: AppConfig,
  options: CreateAppOptions = {},
): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config),
    createFastifyAdapter(config),
    nestAppOptions(config),
  );
  return configureApp(app, config, options);
}

/**
 * Everything after the module graph: rate limits, the /api prefix, the error filter,
 * request ids and the access log, then init. Tests that replace providers (a fake
 * catalog, short timings) build their module and pass the app through here, so they run
 * the same HTTP stack as production.
 */
export async function configureApp(
  app: NestFastifyApplication,
  config: AppConfig,
  options: CreateAppOptions = {},
): Promise<NestFastifyApplication> {
  const logger = createLogger(config.logLevel);
  const fastify = app.getHttpAdapter().getInstance();
  // First of all hooks: every log line written while the request is handled carries its id
  // (common/request-context.ts). Entered again before validation, as the body is read on
  // the socket's callbacks, outside the context the first hook entered.
  fastify.addHook('onRequest', (request, _reply, done) => {
    runWithLogContext({ requestId: request.id }, done);
  });
  fastify.addHook('preValidation', (request, _reply, done) => {
    runWithLogContext({ requestId: request.id }, done);
  });
  // Before init: the plugin hooks the routes as Nest adds them.
  await registerRateLimit(app);
  app.setGlobalPrefix(API_PREFIX, { exclude: apiPrefixExclusions() });
  app.useGlobalFilters(new ApiExceptionFilter(app.get(HttpAdapterHost), logger));
  app.enableShutdownHooks();

  registerLingeringClose(fastify);
  // Set before the handler runs, so errors and 404s carry them too. A synchronous hook:
  // this runs on every request of the hot feed path.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // Names the serving process behind nginx (routing tests, ops debugging scaled containers).
    reply.header('x-served-by', config.modules);
    // https as the visitor used it: behind a trusted proxy its X-Forwarded-Proto says so.
    reply.headers(securityHeaders(request.url, request.protocol === 'https'));
    done();
  });
  // Requests by route template, the jobs queue and, where the checkout side runs, the
  // store's orders, tickets and waiting list, on the registry the modules added their
  // metrics to; served apart by serveMetrics (main.ts).
  const store = app.get(StoreDatabase, { strict: false });
  const metrics = new AppMetrics(app.get(MetricsRegistry, { strict: false }).registry, {
    dueJobs: (now) => dueJobs(store.db, now),
    storeFigures: config.modules === 'products' ? undefined : () => storeFigures(store.db),
  });
  registerHttpMetrics(app, fastify, metrics);
  const accessLog =
    (options.accessLog ?? true) && config.logLevel !== 'warn' && config.logLevel !== 'error';
  if (accessLog) {
    fastify.addHook('onResponse', (request, reply, done) => {
      // The response may finish outside the request's context: its id is given here.
      runWithLogContext({ requestId: request.id }, () =>
        logger.log(
          {
            msg: 'request',
            method: request.method,
            url: request.url,
            statusCode: reply.statusCode,
            ms: Math.round(reply.elapsedTime * 10) / 10,
          },
          'HTTP',
        ),
      );
      done();
    });
  }
  await app.init();
  await fastify.ready();
  return app;
}
