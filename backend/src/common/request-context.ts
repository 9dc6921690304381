import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * What every log line written meanwhile carries (common/logger.ts): the request being
 * handled, or the job being run. Ids only, never personal data.
 */
export interface LogContext {
  requestId?: string;
  job?: string;
  jobId?: number;
  [field: string]: string | number | undefined;
}

const storage = new AsyncLocalStorage<LogContext>();

/**
 * An X-Request-Id from the caller (nginx's `$request_id`, 32 hex digits; another process
 * of the site) is kept only in this shape: it goes into every log line and back into a
 * response header, so nothing else a client sends may pass.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9-]{8,64}$/;

/** The caller's request id when it has the shape above, else a fresh one. */
export function acceptRequestId(incoming: unknown): string {
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming)
    ? incoming
    : randomUUID();
}

/** Runs `fn` (and everything it starts) with `context` on its log lines. */
export function runWithLogContext<T>(context: LogContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The context of the request or job this code runs for; undefined outside both. */
export function logContext(): LogContext | undefined {
  return storage.getStore();
}

/** The id of the request being handled, to pass on to another process of the site. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
