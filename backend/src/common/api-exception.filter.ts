import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import type { LoggerService } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  apiErrorBody,
  type ApiErrorBody,
  defaultMessage,
  isPublicError,
  reasonPhrase,
} from './api-error.js';

export const INVALID_JSON_MESSAGE = 'Der Inhalt der Anfrage ist kein gültiges JSON.';

interface ErrorLike {
  statusCode?: unknown;
  code?: unknown;
  name?: unknown;
  message?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Nest's own exceptions carry English texts ("Cannot GET /api/x", "Not Found"); those are
 * replaced by the German default. A message a developer passed deliberately is kept.
 */
function isFrameworkMessage(statusCode: number, message: unknown): boolean {
  if (typeof message !== 'string' || message.trim() === '') return true;
  if (message === reasonPhrase(statusCode)) return true;
  return statusCode === 404 && /^Cannot [A-Z]+ /.test(message);
}

function fromHttpException(exception: HttpException): ApiErrorBody {
  const statusCode = exception.getStatus();
  const response = exception.getResponse();
  if (typeof response === 'string') {
    return apiErrorBody(
      statusCode,
      isFrameworkMessage(statusCode, response) ? defaultMessage(statusCode) : response,
    );
  }
  if (!isRecord(response)) return apiErrorBody(statusCode, defaultMessage(statusCode));
  const { statusCode: _s, error: _e, message, ...extra } = response;
  const text = Array.isArray(message) ? message[0] : message;
  return apiErrorBody(
    statusCode,
    isFrameworkMessage(statusCode, text) ? defaultMessage(statusCode) : String(text),
    extra,
  );
}

/** Fastify's own errors (body parsing, limits, content type) before a handler runs. */
function fromFastifyError(error: ErrorLike): ApiErrorBody | null {
  const statusCode = typeof error.statusCode === 'number' ? error.statusCode : null;
  const code = typeof error.code === 'string' ? error.code : '';
  if (statusCode === null || statusCode < 400 || statusCode >= 500) return null;
  if (
    code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    (statusCode === 400 && error.name === 'SyntaxError')
  ) {
    return apiErrorBody(400, INVALID_JSON_MESSAGE);
  }
  return apiErrorBody(statusCode, defaultMessage(statusCode));
}

/** Turns anything thrown into `{ statusCode, error, message, ...extra }`. */
export function toApiErrorBody(exception: unknown): ApiErrorBody {
  if (exception instanceof HttpException) {
    // Nest wraps Fastify's parser errors (invalid JSON, too large, media type) as
    // HttpExceptions with English texts; the original error says which one it was.
    if (isRecord(exception.cause)) {
      const body = fromFastifyError(exception.cause as ErrorLike);
      if (body) return body;
    }
    return fromHttpException(exception);
  }
  if (isPublicError(exception)) {
    return apiErrorBody(exception.publicStatus, exception.publicMessage);
  }
  if (isRecord(exception)) {
    const body = fromFastifyError(exception as ErrorLike);
    if (body) return body;
  }
  return apiErrorBody(500, defaultMessage(500));
}

interface RequestLike {
  id?: string;
  method?: string;
  url?: string;
}

/**
 * Global filter (rules "Errors"): every error leaves the API as JSON with a German
 * message. Unexpected errors are logged with the request id; the client never sees a stack.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly logger: LoggerService,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const body = toApiErrorBody(exception);
    logServerError(this.logger, http.getRequest<RequestLike>(), body, exception);
    this.adapterHost.httpAdapter.reply(http.getResponse(), body, body.statusCode);
  }
}

/** Unexpected errors are logged with the request id; the client never sees a stack. */
function logServerError(
  logger: LoggerService,
  request: RequestLike | undefined,
  body: ApiErrorBody,
  exception: unknown,
): void {
  if (body.statusCode < 500) return;
  const err = exception instanceof Error ? exception : new Error(String(exception));
  logger.error(
    {
      msg: 'request failed',
      reqId: request?.id,
      method: request?.method,
      url: request?.url,
      statusCode: body.statusCode,
      err: err.message,
    },
    err.stack,
    'ApiExceptionFilter',
  );
}

/**
 * Fastify's error handler, the same answer as the filter's. Nest installs its own only at
 * the end of init, and a route keeps the handler that was current when Fastify loaded it:
 * a plugin awaited during init (the site's pages and files) loads every route added so far,
 * and those would answer body errors (413, 415, bad JSON) in Fastify's English. Given to
 * every route as it is added (an onRoute hook installed when the adapter is made), it holds
 * for all of them.
 */
export function apiErrorHandler(logger: LoggerService) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): void => {
    const body = toApiErrorBody(error);
    logServerError(logger, request, body, error);
    void reply.status(body.statusCode).send(body);
  };
}
