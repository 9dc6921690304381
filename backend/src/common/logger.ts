import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import type { AppConfig } from '../config/config.js';
import { maskLogValue } from './log-masking.js';

const LEVELS: Record<AppConfig['logLevel'], LogLevel[]> = {
  debug: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
  info: ['fatal', 'error', 'warn', 'log'],
  warn: ['fatal', 'error', 'warn'],
  error: ['fatal', 'error'],
};

/**
 * Every JSON line, the framework's own included, leaves with its tokens, session ids and
 * e-mail addresses masked (common/log-masking.ts): a URL or an error message from a mail
 * server may carry one anywhere.
 */
export class MaskingLogger extends ConsoleLogger {
  // The record as written (message, error with its causes, stack, params): masked whole.
  protected override getJsonLogObject(
    message: unknown,
    options: Parameters<ConsoleLogger['getJsonLogObject']>[1],
  ): ReturnType<ConsoleLogger['getJsonLogObject']> {
    const record = super.getJsonLogObject(message, options);
    return maskLogValue(record) as typeof record;
  }
}

/** One JSON object per line, so log shippers need no parsing rules. */
export function createLogger(level: AppConfig['logLevel']): ConsoleLogger {
  return new MaskingLogger({ json: true, logLevels: LEVELS[level] });
}
