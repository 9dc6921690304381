import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app.factory.js';
import { AppConfig, parseConfig } from '../../src/config/config.js';

/** Environment for an API-only test process: no static site, quiet logs, products side. */
export function testEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    MODULES: 'products',
    STATIC_DIR: 'off',
    LOG_LEVEL: 'error',
    DATABASE_URL: 'sqlite::memory:',
    // The tests stand in for nginx: X-Forwarded-For names the client.
    TRUST_PROXY: 'loopback',
    ...extra,
  };
}

export function testConfig(extra: Record<string, string> = {}): AppConfig {
  return new AppConfig(parseConfig(testEnv(extra)));
}

/** The real application (createApp), ready for `app.inject(...)` or `listen(0)`. */
export async function createTestApp(
  extra: Record<string, string> = {},
): Promise<NestFastifyApplication> {
  return createApp(testConfig(extra), { accessLog: false });
}

/** WOOCOMMERCE_* variables pointing at a fake server. */
export function wooEnv(fake: { url: string; key: string; secret: string }): Record<string, string> {
  return { WOOCOMMERCE_URL: fake.url, WOOCOMMERCE_KEY: fake.key, WOOCOMMERCE_SECRET: fake.secret };
}
