import { generateKeyPairSync } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, ConfigError } from '../../src/config/config.js';
import { PaymentsPort } from '../../src/orders/payments/payments.port.js';
import {
  createTestApp,
  createTestDatabase,
  FakeCatalog,
  inject,
} from '../support/checkout-test-app.js';

jest.setTimeout(30_000);

const SIGNING_KEY = generateKeyPairSync('ed25519')
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

/** The internal test pages' data, which the public must not read in production. */
const INTERNAL = [
  { method: 'GET', url: '/api/checkout/webhook/events' },
  { method: 'GET', url: '/api/waitlist/counts' },
  { method: 'POST', url: '/api/checkout/webhook/test' },
  { method: 'GET', url: '/api/webhooks/woocommerce/events' },
];

/** The test mailbox: buyers' mails with their ticket links, never public in production. */
const MAILBOX = [
  { method: 'GET', url: '/api/mail-test' },
  { method: 'GET', url: '/api/mail-test/messages' },
];

describe('payments only on purpose', () => {
  let db: { url: string; drop(): Promise<void> };
  let app: NestFastifyApplication | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  afterAll(async () => {
    await db.drop();
  });

  it('a production environment without a Stripe key is refused, naming STRIPE_SECRET_KEY and PAYMENT_PROVIDER=test', () => {
    const env = { NODE_ENV: 'production', TICKET_SIGNING_KEY: SIGNING_KEY, MODULES: 'checkout' };
    expect(() => AppConfig.fromEnv(env)).toThrow(ConfigError);
    expect(() => AppConfig.fromEnv(env)).toThrow(/STRIPE_SECRET_KEY.*PAYMENT_PROVIDER=test/);
  });

  it('a staging site (production, PAYMENT_PROVIDER=test) runs the test provider and its internal pages tell the public nothing', async () => {
    app = await createTestApp({
      databaseUrl: db.url,
      catalog: new FakeCatalog(),
      env: { NODE_ENV: 'production', PAYMENT_PROVIDER: 'test', TICKET_SIGNING_KEY: SIGNING_KEY },
    });
    expect(app.get(PaymentsPort).name).toBe('test');
    for (const request of INTERNAL) {
      const res = await inject(app, request);
      expect({ ...request, status: res.statusCode }).toEqual({ ...request, status: 404 });
      expect(res.json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: 'Diese interne Testseite ist im Produktivbetrieb abgeschaltet.',
      });
      expect(res.body).not.toMatch(/"mode"|test"|stripe/i);
    }
    for (const request of MAILBOX) {
      const res = await inject(app, request);
      expect({ ...request, status: res.statusCode }).toEqual({ ...request, status: 404 });
      expect(res.json().message).toMatch(/Testpostfach/);
    }
  });

  it('outside production the internal pages show the mode, the events and the waiting lists', async () => {
    app = await createTestApp({ databaseUrl: db.url, catalog: new FakeCatalog() });
    const events = await inject(app, INTERNAL[0]!);
    expect(events.statusCode).toBe(200);
    expect(events.json()).toMatchObject({ mode: 'test', events: expect.any(Array) });
    expect((await inject(app, INTERNAL[1]!)).statusCode).toBe(200);
    const sent = await inject(app, INTERNAL[2]!);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ received: true, outcome: 'test' });
    const shop = await inject(app, INTERNAL[3]!);
    expect(shop.statusCode).toBe(200);
    expect(shop.json()).toEqual({ events: [], sweep: null });
    for (const request of MAILBOX) expect((await inject(app, request)).statusCode).toBe(200);
  });
});
