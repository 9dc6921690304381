import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import type { AppConfig } from '../config/config.js';

const LEVELS: Record<AppConfig['logLevel'], LogLevel[]> = {
  debug: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
  info: ['fatal', 'error', 'warn', 'log'],
  warn: ['fatal', 'error', 'warn'],
  error: ['fatal', 'error'],
};

/** One JSON object per line, so log shippers need no parsing rules. */
export function createLogger(level: AppConfig['logLevel']): ConsoleLogger {
  return new ConsoleLogger({ json: true, logLevels: LEVELS[level] });
}
