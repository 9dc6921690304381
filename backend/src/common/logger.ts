import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import type { AppConfig } from '../config/config.js';
import { maskLogValue } from './log-masking.js';
import { logContext } from './request-context.js';

const LEVELS: Record<AppConfig['logLevel'], LogLevel[]> = {
  debug: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
  info: ['fatal', 'error', 'warn', 'log'],
  warn: ['fatal', 'error', 'warn'],
  error: ['fatal', 'error'],
};

/**
 * Every JSON line, the framework's own included, leaves with its tokens, session ids and
 * e-mail addresses masked (common/log-masking.ts): a URL or an error message from a mail
 * server may carry one anywhere. A line written while a request is handled carries its
 * `requestId`, one written by a job its `job` and `jobId` (common/request-context.ts), so
 * the lines of one request can be found together, beside nginx's access log line.
 */
export class MaskingLogger extends ConsoleLogger {
  // The record as written (message, error with its causes, stack, params): masked whole.
  protected override getJsonLogObject(
    message: unknown,
    options: Parameters<ConsoleLogger['getJsonLogObject']>[1],
  ): ReturnType<ConsoleLogger['getJsonLogObject']> {
    const record: Record<string, unknown> = super.getJsonLogObject(message, options);
    const context = logContext();
    if (context) {
      for (const [field, value] of Object.entries(context)) {
        if (value !== undefined && !(field in record)) record[field] = value;
      }
    }
    return maskLogValue(record) as ReturnType<ConsoleLogger['getJsonLogObject']>;
  }
}

/** One JSON object per line, so log shippers need no parsing rules. */
export function createLogger(level: AppConfig['logLevel']): ConsoleLogger {
  return new MaskingLogger({ json: true, logLevels: LEVELS[level] });
}
