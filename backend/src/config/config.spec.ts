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
});
