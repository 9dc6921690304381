import { generateKeyPairSync } from 'node:crypto';
import { ConfigError, parseConfig } from './config.js';

describe('configuration from the environment', () => {
  it('runs on the embedded defaults with no configuration', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      modules: 'all',
      publicUrl: 'http://localhost:3000',
      woocommerce: null,
      stripe: null,
      catalogTtlSeconds: 60,
      trustProxy: 'loopback,uniquelocal',
    });
    expect(config.database).toMatchObject({ kind: 'sqlite' });
    expect(config.database.kind === 'sqlite' && config.database.path).toMatch(/data\/awhh\.db$/);
  });

  it.each([
    [{ WOOCOMMERCE_URL: 'https://shop.example' }, 'WOOCOMMERCE_KEY'],
    [{ WOOCOMMERCE_URL: 'https://shop.example', WOOCOMMERCE_KEY: 'ck_x' }, 'WOOCOMMERCE_SECRET'],
    [{ WOOCOMMERCE_KEY: 'ck_x' }, 'WOOCOMMERCE_URL'],
    [
      { WOOCOMMERCE_URL: 'ftp://shop', WOOCOMMERCE_KEY: 'a', WOOCOMMERCE_SECRET: 'b' },
      'WOOCOMMERCE_URL',
    ],
    [{ STRIPE_SECRET_KEY: 'sk_test_123' }, 'STRIPE_WEBHOOK_SECRET'],
    [{ STRIPE_SECRET_KEY: 'pk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_1' }, 'STRIPE_SECRET_KEY'],
    [{ STRIPE_WEBHOOK_SECRET: 'whsec_1' }, 'STRIPE_SECRET_KEY'],
    [{ PORT: 'abc' }, 'PORT'],
    [{ MODULES: 'shop' }, 'MODULES'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ SMTP_URL: 'http://mail.example' }, 'SMTP_URL'],
    [{ SMTP_URL: 'smtp://' }, 'SMTP_URL'],
    [{ MAIL_FROM: 'After Work Hamburg' }, 'MAIL_FROM'],
    [{ TICKET_SIGNING_KEY: 'geheim' }, 'TICKET_SIGNING_KEY'],
    [
      {
        TICKET_SIGNING_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' })
          .privateKey.export({ type: 'pkcs8', format: 'pem' })
          .toString(),
      },
      'TICKET_SIGNING_KEY',
    ],
  ])('fails fast naming the bad variable (%o → %s)', (env, variable) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('selects PostgreSQL by DATABASE_URL and parses the proxy trust setting', () => {
    const config = parseConfig({
      DATABASE_URL: 'postgres://u@h/db',
      TRUST_PROXY: 'false',
      MODULES: 'checkout',
    });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@h/db' });
    expect(config.trustProxy).toBe(false);
    expect(config.modules).toBe('checkout');
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toBe('10.0.0.0/8');
  });

  it('mail and ticket signing: embedded defaults, or SMTP_URL, MAIL_FROM and an Ed25519 key', () => {
    expect(parseConfig({})).toMatchObject({
      mail: { smtpUrl: null, from: 'After Work Hamburg <tickets@localhost>' },
      ticketSigningKey: null,
    });
    const pem = generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const config = parseConfig({
      SMTP_URL: 'smtps://user:pass@mail.example:465',
      MAIL_FROM: 'tickets@afterwork.example',
      // As a one-line .env value.
      TICKET_SIGNING_KEY: pem.replace(/\n/g, '\\n'),
    });
    expect(config.mail).toEqual({
      smtpUrl: 'smtps://user:pass@mail.example:465',
      from: 'tickets@afterwork.example',
    });
    expect(config.ticketSigningKey?.asymmetricKeyType).toBe('ed25519');
  });

  it('the door code: embedded by default, CHECKIN_CODE when set, never echoed in an error', () => {
    expect(parseConfig({}).checkinCode).toBeNull();
    expect(parseConfig({ CHECKIN_CODE: 'Tuer-2026-Hafen' }).checkinCode).toBe('Tuer-2026-Hafen');
    expect(() => parseConfig({ CHECKIN_CODE: 'ab-cd-12' })).toThrow(
      /^Invalid configuration: CHECKIN_CODE (?!.*ab-cd-12)/,
    );
  });

  it('never repeats the SMTP password in an error', () => {
    expect(() => parseConfig({ SMTP_URL: 'http://user:geheim@mail.example' })).toThrow(
      /^Invalid configuration: SMTP_URL (?!.*geheim)/,
    );
  });
});
