import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory.js';
import { DoorCode } from './checkin/door-code.js';
import { AppConfig, ConfigError } from './config/config.js';

// Entry point only: tests import createApp from app.factory.ts, which never listens.

/** Reads the environment, fails fast on bad configuration, then listens. */
export async function bootstrap(): Promise<void> {
  let config: AppConfig;
  try {
    config = AppConfig.fromEnv();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const app = await createApp(config);
  await app.listen({ port: config.port, host: config.host });
  new Logger('Bootstrap').log({
    msg: `listening on http://${config.host}:${config.port}`,
    modules: config.modules,
    catalog: config.woocommerce ? 'woocommerce' : 'demo',
  });
  // DESIGN "Tickets and the door": the embedded door code is shown once, here, so whoever
  // started the site can open /einlass; a CHECKIN_CODE is never printed.
  if (config.modules !== 'products') {
    const code = await app.get(DoorCode).embeddedCode();
    if (code) {
      new Logger('Bootstrap').log({
        msg: `Türcode für /einlass (door code; set CHECKIN_CODE to choose one): ${code}`,
      });
    }
  }
}

await bootstrap();
