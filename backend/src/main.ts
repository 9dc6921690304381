import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory.js';
import { DoorCode } from './door/door-code.js';
import { OrganizerCode } from './organizer/organizer-code.js';
import { AppConfig, ConfigError } from './config/config.js';
import { appMetrics, metricsPort, serveMetrics } from './ops/metrics.js';

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
    payments: config.paymentProvider,
  });
  // Prometheus metrics on their own port, never through nginx (docs/operations.md "Metriken"). A port
  // taken by another process costs the metrics, not the shop: logged as an error.
  if (config.metrics) {
    try {
      const server = await serveMetrics(appMetrics(app), config.metrics);
      app.getHttpServer().once('close', () => server.close());
      new Logger('Bootstrap').log({
        msg: `metrics on http://${config.metrics.host}:${metricsPort(server)}/metrics`,
      });
    } catch (err) {
      new Logger('Bootstrap').error({
        msg: `metrics not served on ${config.metrics.host}:${config.metrics.port} (METRICS_PORT): ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  }
  // A test site must never pass for the live shop: said at start-up (a warning, so it shows
  // at every LOG_LEVEL but error) and on every page.
  if (config.paymentProvider === 'test') {
    new Logger('Bootstrap').warn({
      msg: 'Testmodus: this is a test site, payments go through the built-in test provider and nobody pays real money (set STRIPE_SECRET_KEY for the live shop)',
    });
  }
  // The embedded door code is shown here so that whoever tries the site out can open
  // /einlass; a CHECKIN_CODE is never printed. In production logs travel further than the
  // door staff (log shippers, support tickets): `npm run door-code` reads it from the store.
  if (config.modules !== 'products') {
    const code = await app.get(DoorCode).embeddedCode();
    if (code && !config.production) {
      new Logger('Bootstrap').log({
        msg: `Türcode für /einlass (door code; set CHECKIN_CODE to choose one): ${code}`,
      });
    } else if (code) {
      new Logger('Bootstrap').log({
        msg: 'Türcode für /einlass: generated and kept in the store; `npm run door-code` shows it (or set CHECKIN_CODE)',
      });
    }
  }
  // rules "The organizer": the same for the organizer code of /veranstalter on a site
  // without WooCommerce (with WooCommerce WordPress accounts sign in, and there is no code).
  if (config.modules !== 'products') {
    const code = await app.get(OrganizerCode).embeddedCode();
    if (code && !config.production) {
      new Logger('Bootstrap').log({
        msg: `Veranstaltercode für /veranstalter (organizer code; set ORGANIZER_CODE to choose one): ${code}`,
      });
    } else if (code) {
      new Logger('Bootstrap').log({
        msg: 'Veranstaltercode für /veranstalter: generated and kept in the store; `npm run organizer-code` shows it (or set ORGANIZER_CODE)',
      });
    }
  }
}

await bootstrap();
