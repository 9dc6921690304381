import { generateKeyPairSync } from 'node:crypto';
import { ConfigError, parseConfig, parseDatabase } from './config.js';

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
      trustProxy: false,
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
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@h/db', password: null });
    expect(config.trustProxy).toBe(false);
    expect(config.modules).toBe('checkout');
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toBe('10.0.0.0/8');
  });

  it('takes the PostgreSQL password as given from DATABASE_PASSWORD, beside a URL without one', () => {
    // What `openssl rand -base64` yields: characters a URL would have to encode.
    const password = 'a/b+c=@:% d';
    const env = { DATABASE_URL: 'postgres://awhh@postgres:5432/awhh', DATABASE_PASSWORD: password };
    expect(parseConfig(env).database).toEqual({
      kind: 'postgres',
      url: 'postgres://awhh@postgres:5432/awhh',
      password,
    });
    expect(parseDatabase(env)).toEqual(parseConfig(env).database);
    expect(parseConfig({ ...env, DATABASE_PASSWORD: '' }).database).toMatchObject({
      password: null,
    });
  });

  it.each<[string, NodeJS.ProcessEnv, string]>([
    [
      'a password in both places',
      { DATABASE_URL: 'postgres://u:p@h/db', DATABASE_PASSWORD: 'q' },
      'DATABASE_PASSWORD is set and DATABASE_URL holds a password too: give it in one place',
    ],
    [
      'a password for SQLite',
      { DATABASE_URL: 'sqlite::memory:', DATABASE_PASSWORD: 'q' },
      'DATABASE_PASSWORD is for a postgres:// DATABASE_URL only',
    ],
    [
      'an unencoded password in the URL, never echoed',
      { DATABASE_URL: 'postgres://u:se/cr+et@h/db' },
      'DATABASE_URL is not a valid URL (a password with characters such as / + @ : belongs in DATABASE_PASSWORD, or percent-encoded in the URL)',
    ],
  ])('refuses %s', (_name, env, message) => {
    expect(() => parseConfig(env)).toThrow(`Invalid configuration: ${message}`);
    expect(() => parseDatabase(env)).toThrow(`Invalid configuration: ${message}`);
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
    expect(parseConfig({ CHECKIN_CODE: '28yr-6e4n-Pqqf-7pfd' }).checkinCode).toBe(
      '28yr-6e4n-Pqqf-7pfd',
    );
    expect(() => parseConfig({ CHECKIN_CODE: 'ab-cd-12' })).toThrow(
      /^Invalid configuration: CHECKIN_CODE (?!.*ab-cd-12)/,
    );
    // rules "Tickets and the door": 16 characters of letters and digits, no common word,
    // no repeats, no sequences; the start-up says so in English and German.
    for (const weak of [
      'EINLASS-2026',
      'Einlass Hafen Elbe',
      '2026-1205-1800',
      'ABC-1234-XYZ',
      'aaaaaaaaaaa1',
      'aaaaaaaaaaaaaaa1',
      'Sommerfest2026',
      'Sommerfest-2026-Hamburg',
      'Q7M4-ABCD-X9R2-KP6T',
      'Q7M4-1234-X9R2-KP6T',
      'QWERTZ-7M4X-9R2K-P6T',
      'K7Q2-M4X9-R2K7-Q2M4',
    ]) {
      expect(() => parseConfig({ CHECKIN_CODE: weak })).toThrow(
        /^Invalid configuration: CHECKIN_CODE is too weak \(.*Der Code ist zu schwach/,
      );
    }
    expect(parseConfig({ CHECKIN_CODE: 'k6jp ctvc jc9s ur37' }).checkinCode).toBe(
      'k6jp ctvc jc9s ur37',
    );
  });

  it('trusts no proxy unless TRUST_PROXY names one', () => {
    expect(parseConfig({}).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toBe('127.0.0.1');
  });

  describe('payments and the signing key in production', () => {
    const stripeEnv = { STRIPE_SECRET_KEY: 'sk_live_123', STRIPE_WEBHOOK_SECRET: 'whsec_1' };
    const signingKey = generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const production = { NODE_ENV: 'production', TICKET_SIGNING_KEY: signingKey };

    it('outside production: Stripe with a key, the test provider without one', () => {
      expect(parseConfig({}).paymentProvider).toBe('test');
      expect(parseConfig({ NODE_ENV: 'development' }).paymentProvider).toBe('test');
      expect(parseConfig(stripeEnv).paymentProvider).toBe('stripe');
      expect(parseConfig({ ...stripeEnv, PAYMENT_PROVIDER: 'test' }).paymentProvider).toBe('test');
    });

    it('production without a Stripe key refuses to start, naming STRIPE_SECRET_KEY and PAYMENT_PROVIDER=test', () => {
      expect(() => parseConfig(production)).toThrow(ConfigError);
      expect(() => parseConfig(production)).toThrow(
        /^Invalid configuration: STRIPE_SECRET_KEY is required in production.*PAYMENT_PROVIDER=test/,
      );
    });

    it('production takes Stripe with a key, and the test provider only when named', () => {
      expect(parseConfig({ ...production, ...stripeEnv })).toMatchObject({
        production: true,
        paymentProvider: 'stripe',
      });
      expect(parseConfig({ ...production, PAYMENT_PROVIDER: 'test' })).toMatchObject({
        production: true,
        paymentProvider: 'test',
        stripe: null,
      });
    });

    it.each([
      [
        'Stripe without a key',
        { PAYMENT_PROVIDER: 'stripe' },
        /^Invalid configuration: STRIPE_SECRET_KEY is required when PAYMENT_PROVIDER=stripe/,
      ],
      [
        'an unknown provider',
        { PAYMENT_PROVIDER: 'paypal' },
        /^Invalid configuration: PAYMENT_PROVIDER must be stripe or test/,
      ],
      [
        'Stripe without a key in production',
        { ...production, PAYMENT_PROVIDER: 'stripe' },
        /^Invalid configuration: STRIPE_SECRET_KEY is required when PAYMENT_PROVIDER=stripe/,
      ],
    ])('an impossible choice fails fast: %s', (_name, env, message) => {
      expect(() => parseConfig(env)).toThrow(message);
    });

    it('production requires TICKET_SIGNING_KEY and says how to make one', () => {
      const env = { NODE_ENV: 'production', ...stripeEnv };
      expect(() => parseConfig(env)).toThrow(
        /^Invalid configuration: TICKET_SIGNING_KEY is required in production.*openssl genpkey -algorithm ed25519/,
      );
      expect(() => parseConfig({ ...env, PAYMENT_PROVIDER: 'test' })).toThrow(/TICKET_SIGNING_KEY/);
      expect(
        parseConfig({ ...env, TICKET_SIGNING_KEY: signingKey }).ticketSigningKey,
      ).not.toBeNull();
      // The products process signs no tickets; outside production the key is still
      // generated once into the store.
      expect(parseConfig({ ...env, MODULES: 'products' }).ticketSigningKey).toBeNull();
      expect(() => parseConfig({ ...env, MODULES: 'checkout' })).toThrow(/TICKET_SIGNING_KEY/);
      expect(parseConfig(stripeEnv).ticketSigningKey).toBeNull();
    });
  });

  it('never repeats the SMTP password in an error', () => {
    expect(() => parseConfig({ SMTP_URL: 'http://user:geheim@mail.example' })).toThrow(
      /^Invalid configuration: SMTP_URL (?!.*geheim)/,
    );
  });

  describe('every variable and every rule between them, message for message', () => {
    const signingKey = generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const stripeEnv = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' };
    const wooEnv = { WOOCOMMERCE_KEY: 'ck_1', WOOCOMMERCE_SECRET: 'cs_1' };

    function problem(env: NodeJS.ProcessEnv): string {
      try {
        parseConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message.replace(/^Invalid configuration: /, '');
      }
      throw new Error('no ConfigError');
    }

    const problems: [NodeJS.ProcessEnv, string][] = [
      [{ PORT: 'abc' }, 'PORT must be a whole number from 1 to 65535 (got "abc")'],
      [{ PORT: ' 0 ' }, 'PORT must be a whole number from 1 to 65535 (got "0")'],
      [{ PORT: '1.5' }, 'PORT must be a whole number from 1 to 65535 (got "1.5")'],
      [{ MODULES: 'shop' }, 'MODULES must be products, checkout or all (got "shop")'],
      [
        { WOOCOMMERCE_KEY: 'ck_1' },
        'WOOCOMMERCE_URL is required when WOOCOMMERCE_KEY or WOOCOMMERCE_SECRET is set',
      ],
      [
        { WOOCOMMERCE_SECRET: 'cs_1' },
        'WOOCOMMERCE_URL is required when WOOCOMMERCE_KEY or WOOCOMMERCE_SECRET is set',
      ],
      [
        { WOOCOMMERCE_URL: 'https://shop.example' },
        'WOOCOMMERCE_KEY is required when WOOCOMMERCE_URL is set',
      ],
      [
        { WOOCOMMERCE_URL: 'https://shop.example', WOOCOMMERCE_KEY: 'ck_1' },
        'WOOCOMMERCE_SECRET is required when WOOCOMMERCE_URL is set',
      ],
      [
        { WOOCOMMERCE_WEBHOOK_SECRET: 'wh_1' },
        'WOOCOMMERCE_URL is required when WOOCOMMERCE_WEBHOOK_SECRET is set',
      ],
      [
        { ...wooEnv, WOOCOMMERCE_URL: 'shop.example' },
        'WOOCOMMERCE_URL must be an absolute http(s) URL (got "shop.example")',
      ],
      [
        { ...wooEnv, WOOCOMMERCE_URL: 'ftp://shop.example' },
        'WOOCOMMERCE_URL must use http or https (got "ftp:")',
      ],
      [
        { STRIPE_SECRET_KEY: 'pk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' },
        'STRIPE_SECRET_KEY must be a Stripe secret key (sk_… or rk_…)',
      ],
      [
        { STRIPE_SECRET_KEY: 'sk_test_1' },
        'STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set',
      ],
      [
        { STRIPE_WEBHOOK_SECRET: 'whsec_1' },
        'STRIPE_SECRET_KEY is required when STRIPE_WEBHOOK_SECRET is set',
      ],
      [
        { ...stripeEnv, STRIPE_API_BASE: '127.0.0.1:12111' },
        'STRIPE_API_BASE must be an absolute http(s) URL (got "127.0.0.1:12111")',
      ],
      [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL must be an absolute http(s) URL (got "not a url")'],
      [{ PUBLIC_URL: 'mailto:a@b.example' }, 'PUBLIC_URL must use http or https (got "mailto:")'],
      [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be debug, info, warn or error (got "verbose")'],
      [
        { TICKET_SIGNING_KEY: 'geheim' },
        'TICKET_SIGNING_KEY must be a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)',
      ],
      [{ TICKET_SIGNING_KEY: ecKey }, 'TICKET_SIGNING_KEY must be an Ed25519 key (got ec)'],
      [
        { DATABASE_URL: 'mysql://x' },
        'DATABASE_URL must start with postgres:// or sqlite: (got "mysql://x")',
      ],
      [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL needs a file after "sqlite:"'],
      [{ PAYMENT_PROVIDER: 'paypal' }, 'PAYMENT_PROVIDER must be stripe or test (got "paypal")'],
      [
        { PAYMENT_PROVIDER: 'stripe' },
        'STRIPE_SECRET_KEY is required when PAYMENT_PROVIDER=stripe',
      ],
      [
        { NODE_ENV: 'production', TICKET_SIGNING_KEY: signingKey },
        'STRIPE_SECRET_KEY is required in production (NODE_ENV=production); for a staging site without real payments set PAYMENT_PROVIDER=test',
      ],
      [
        { CATALOG_TTL_SECONDS: '86401' },
        'CATALOG_TTL_SECONDS must be a whole number from 0 to 86400 (got "86401")',
      ],
      [{ SMTP_URL: 'mail.example' }, 'SMTP_URL must be a URL like smtp://user:pass@host:587'],
      [
        { SMTP_URL: 'https://mail.example' },
        'SMTP_URL must start with smtp:// or smtps:// (got "https:")',
      ],
      [{ SMTP_URL: 'smtp://' }, 'SMTP_URL needs a host (smtp://host:587)'],
      [
        { SMTP_URL: 'smtp://mail.example?tls=on' },
        'SMTP_URL accepts no query parameter but "?tls=off" (smtp:// without STARTTLS, for a server on the same host or network only)',
      ],
      [
        { SMTP_URL: 'smtps://mail.example?tls=off' },
        'SMTP_URL cannot turn TLS off for smtps:// (use smtp://…?tls=off)',
      ],
      [
        { MAIL_FROM: 'Tickets <tickets at example>' },
        'MAIL_FROM must be an e-mail address, optionally "Name <address>" (got "Tickets <tickets at example>")',
      ],
      [
        { NODE_ENV: 'production', PAYMENT_PROVIDER: 'test' },
        'TICKET_SIGNING_KEY is required in production (NODE_ENV=production); make one with `openssl genpkey -algorithm ed25519` and set the PEM text (newlines as \\n)',
      ],
      [
        { CHECKIN_CODE: 'EINLASS-2026' },
        'CHECKIN_CODE is too weak (fewer than 16 characters, too few different characters, a common word): it needs at least 16 characters besides spaces and dashes, letters and digits, no words, repeats or sequences. Der Code ist zu schwach: mindestens 16 Zeichen aus Buchstaben und Ziffern, ohne Wörter, Wiederholungen oder Folgen. (make one with: npm run door-code -- --new)',
      ],
      [
        { WAITLIST_OFFER_HOURS: '1e2' },
        'WAITLIST_OFFER_HOURS must be a number of hours above 0 and at most 720 (got "1e2") / muss eine Stundenzahl über 0 und höchstens 720 sein',
      ],
      [
        { TICKET_TRANSFER_UNTIL_HOURS: '-1' },
        'TICKET_TRANSFER_UNTIL_HOURS must be a number of hours from 0 to 720 (got "-1") / muss eine Stundenzahl von 0 bis 720 sein',
      ],
      [
        { PERSONAL_DATA_DAYS_AFTER_EVENT: '0' },
        'PERSONAL_DATA_DAYS_AFTER_EVENT must be a whole number from 1 to 3650 (got "0")',
      ],
      [
        { MAX_TICKETS_PER_ORDER: '21' },
        'MAX_TICKETS_PER_ORDER must be a whole number from 1 to 20 (got "21")',
      ],
    ];
    it.each(problems.map(([env, message]) => [message, env] as const))('%s', (message, env) => {
      expect(problem(env)).toBe(message);
    });

    // With several problems the first in this order is reported: PORT, MODULES, the shop's
    // trio, Stripe's pair, PUBLIC_URL, LOG_LEVEL, TICKET_SIGNING_KEY, DATABASE_URL, the
    // payment provider, CATALOG_TTL_SECONDS, SMTP_URL, MAIL_FROM, the production signing key,
    // CHECKIN_CODE, WAITLIST_OFFER_HOURS, PERSONAL_DATA_DAYS_AFTER_EVENT, MAX_TICKETS_PER_ORDER.
    it.each<[string, NodeJS.ProcessEnv, string]>([
      ['PORT before the shop', { PORT: 'x', WOOCOMMERCE_KEY: 'ck_1' }, 'PORT'],
      [
        'the shop before PUBLIC_URL',
        { WOOCOMMERCE_KEY: 'ck_1', PUBLIC_URL: 'x' },
        'WOOCOMMERCE_URL',
      ],
      [
        'a missing key before the URL',
        { WOOCOMMERCE_URL: 'ftp://shop.example' },
        'WOOCOMMERCE_KEY',
      ],
      [
        'Stripe before LOG_LEVEL',
        { STRIPE_SECRET_KEY: 'sk_test_1', LOG_LEVEL: 'x', STRIPE_API_BASE: 'x' },
        'STRIPE_WEBHOOK_SECRET',
      ],
      [
        'LOG_LEVEL before the provider',
        { LOG_LEVEL: 'x', PAYMENT_PROVIDER: 'stripe' },
        'LOG_LEVEL',
      ],
      [
        'the provider before CATALOG_TTL_SECONDS',
        { PAYMENT_PROVIDER: 'stripe', CATALOG_TTL_SECONDS: 'x' },
        'STRIPE_SECRET_KEY',
      ],
      [
        'the provider before a weak door code in production',
        { NODE_ENV: 'production', CHECKIN_CODE: 'EINLASS-2026' },
        'STRIPE_SECRET_KEY',
      ],
      [
        'MAIL_FROM before the production signing key',
        { NODE_ENV: 'production', PAYMENT_PROVIDER: 'test', MAIL_FROM: 'x' },
        'MAIL_FROM',
      ],
      [
        'the production signing key before CHECKIN_CODE',
        { NODE_ENV: 'production', PAYMENT_PROVIDER: 'test', CHECKIN_CODE: 'x' },
        'TICKET_SIGNING_KEY',
      ],
      [
        'a bad signing key before DATABASE_URL',
        { TICKET_SIGNING_KEY: 'x', DATABASE_URL: 'x' },
        'TICKET_SIGNING_KEY',
      ],
    ])('the first problem wins: %s', (_name, env, variable) => {
      expect(problem(env)).toMatch(new RegExp(`^${variable} `));
    });
  });

  it('reads trimmed values, takes an empty one for unset, and derives what follows from them', () => {
    const config = parseConfig({
      PORT: ' 8080 ',
      HOST: ' ',
      MODULES: ' checkout ',
      LOG_LEVEL: '',
      PAYMENT_PROVIDER: ' ',
      STATIC_DIR: 'off',
      TRUST_PROXY: 'true',
      // Read only beside a Stripe key.
      STRIPE_API_BASE: 'not a url',
      WAITLIST_OFFER_HOURS: '0.5',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      modules: 'checkout',
      logLevel: 'info',
      paymentProvider: 'test',
      publicUrl: 'http://localhost:8080',
      staticDir: null,
      trustProxy: true,
      stripe: null,
      waitlistOfferHours: 0.5,
    });
    expect(parseConfig({}).staticDir).toMatch(/frontend\/dist$/);
    // A ticket's page is rendered with its ticket: one process asks itself, the products
    // process asks CHECKOUT_URL, and without it the browser asks after hydration.
    expect(parseConfig({ PORT: '8080' }).checkoutUrl).toBe('http://127.0.0.1:8080');
    expect(parseConfig({ MODULES: 'products' }).checkoutUrl).toBeNull();
    expect(
      parseConfig({ MODULES: 'products', CHECKOUT_URL: 'http://checkout:3000/' }).checkoutUrl,
    ).toBe('http://checkout:3000');
    expect(() => parseConfig({ CHECKOUT_URL: 'checkout:3000' })).toThrow(ConfigError);
    // docs/operations.md "WooCommerce webhooks": the webhooks' secret is optional beside the shop.
    const shop = {
      WOOCOMMERCE_URL: 'https://shop.example',
      WOOCOMMERCE_KEY: 'ck_1',
      WOOCOMMERCE_SECRET: 'cs_1',
    };
    expect(parseConfig(shop).woocommerce).toMatchObject({ webhookSecret: null, restock: true });
    expect(parseConfig({ ...shop, SHOP_RESTOCK: 'off' }).woocommerce).toMatchObject({
      restock: false,
    });
    // docs/ledger.md: WooCommerce reads API keys only over HTTPS; plain HTTP is refused at
    // start with the reason, loopback (a shop on this machine, the tests) excepted.
    expect(() => parseConfig({ ...shop, WOOCOMMERCE_URL: 'http://shop.example' })).toThrow(
      /WOOCOMMERCE_URL must start with https:\/\/.*NODE_EXTRA_CA_CERTS.*muss mit https:\/\/ beginnen/,
    );
    expect(
      parseConfig({ ...shop, WOOCOMMERCE_URL: 'http://127.0.0.1:8080' }).woocommerce?.url,
    ).toBe('http://127.0.0.1:8080');
    expect(parseConfig({ ...shop, WOOCOMMERCE_WEBHOOK_SECRET: ' ' }).woocommerce).toMatchObject({
      webhookSecret: null,
    });
    expect(
      parseConfig({ ...shop, WOOCOMMERCE_WEBHOOK_SECRET: ' s3cr3t ' }).woocommerce,
    ).toMatchObject({ webhookSecret: 's3cr3t' });
    expect(
      parseConfig({
        PUBLIC_URL: 'https://afterwork.example/hamburg/',
        WOOCOMMERCE_URL: 'https://shop.example/',
        WOOCOMMERCE_KEY: 'ck_1',
        WOOCOMMERCE_SECRET: 'cs_1',
        STRIPE_SECRET_KEY: 'rk_live_1',
        STRIPE_WEBHOOK_SECRET: 'whsec_1',
        STRIPE_API_BASE: 'http://127.0.0.1:12111/',
        DATABASE_URL: 'sqlite::memory:',
      }),
    ).toMatchObject({
      publicUrl: 'https://afterwork.example/hamburg',
      woocommerce: { url: 'https://shop.example', key: 'ck_1', secret: 'cs_1' },
      stripe: {
        secretKey: 'rk_live_1',
        webhookSecret: 'whsec_1',
        apiBase: 'http://127.0.0.1:12111',
      },
      paymentProvider: 'stripe',
      database: { kind: 'sqlite', path: ':memory:' },
    });
  });

  it('rules "Named tickets": TICKET_TRANSFER_UNTIL_HOURS, 2 by default, 0 up to the start', () => {
    expect(parseConfig({}).ticketTransferUntilHours).toBe(2);
    expect(parseConfig({ TICKET_TRANSFER_UNTIL_HOURS: '0' }).ticketTransferUntilHours).toBe(0);
    expect(parseConfig({ TICKET_TRANSFER_UNTIL_HOURS: '1.5' }).ticketTransferUntilHours).toBe(1.5);
    expect(() => parseConfig({ TICKET_TRANSFER_UNTIL_HOURS: '721' })).toThrow(
      'TICKET_TRANSFER_UNTIL_HOURS must be a number of hours from 0 to 720',
    );
  });

  it('rules "Giving a ticket back": TICKET_RETURNS on by default, until 24 hours before, no fee; a fee in euros with a comma or a point', () => {
    expect(parseConfig({}).ticketReturns).toEqual({ enabled: true, untilHours: 24, feeCents: 0 });
    expect(
      parseConfig({
        TICKET_RETURNS: 'off',
        TICKET_RETURN_UNTIL_HOURS: '48',
        TICKET_RETURN_FEE_EUR: '2,50',
      }).ticketReturns,
    ).toEqual({ enabled: false, untilHours: 48, feeCents: 250 });
    expect(parseConfig({ TICKET_RETURN_FEE_EUR: '3.05' }).ticketReturns?.feeCents).toBe(305);
    expect(() => parseConfig({ TICKET_RETURNS: 'yes' })).toThrow(
      'TICKET_RETURNS must be waitlist or off',
    );
    for (const bad of ['-1', '2.505', 'zwei']) {
      expect(() => parseConfig({ TICKET_RETURN_FEE_EUR: bad })).toThrow(
        'TICKET_RETURN_FEE_EUR must be an amount in euros',
      );
    }
    expect(() => parseConfig({ TICKET_RETURN_UNTIL_HOURS: '721' })).toThrow(
      'TICKET_RETURN_UNTIL_HOURS must be a number of hours from 0 to 720',
    );
  });

  it('rules "Reminders": REMINDER_HOURS_BEFORE, 24 by default, fractions allowed, never 0', () => {
    expect(parseConfig({}).reminderHoursBefore).toBe(24);
    expect(parseConfig({ REMINDER_HOURS_BEFORE: '2.5' }).reminderHoursBefore).toBe(2.5);
    for (const bad of ['0', '-3', '721', 'morgen']) {
      expect(() => parseConfig({ REMINDER_HOURS_BEFORE: bad })).toThrow(
        `REMINDER_HOURS_BEFORE must be a number of hours above 0 and at most 720 (got "${bad}")`,
      );
    }
  });
});
