import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { z } from 'zod';
import {
  DEFAULT_PERSONAL_DATA_DAYS_AFTER_EVENT,
  MAX_PERSONAL_DATA_DAYS_AFTER_EVENT,
  MAX_UNITS_PER_ORDER,
} from '@awhh/machines';
import {
  applePassTypeId,
  appleTeamId,
  backupDir,
  backupKeep,
  backupPassphrase,
  checkinCode,
  databasePassword,
  databaseUrl,
  googleWalletIssuerId,
  googleWalletServiceAccount,
  httpUrl,
  logLevel,
  mailFrom,
  modules,
  organizerCode,
  organizerEmail,
  paymentProvider,
  pemCertificate,
  pemPrivateKey,
  smtpUrl,
  staticDir,
  stripeSecretKey,
  text,
  ticketSigningKey,
  trustProxy,
  metricsPort,
  variable,
  ticketTransferUntilHours,
  ticketReturns,
  shopRestock,
  ticketReturnUntilHours,
  ticketReturnFeeEur,
  reminderHoursBefore,
  waitlistOfferHours,
  wholeNumber,
} from './variables.js';

export {
  DEFAULT_MAIL_FROM,
  MAX_WAITLIST_OFFER_HOURS,
  MIN_CHECKIN_CODE_LENGTH,
} from './variables.js';

export type ModuleSelection = 'products' | 'checkout' | 'all';

export interface WooCommerceConfig {
  url: string;
  key: string;
  secret: string;
  /**
   * WOOCOMMERCE_WEBHOOK_SECRET, the secret of the shop's webhooks (rules "WooCommerce
   * webhooks"). Unset, the webhook endpoint is closed (503) and the site hears of the
   * shop's changes only through its own reads.
   */
  webhookSecret?: string | null;
  /**
   * SHOP_RESTOCK (`on`, the default, or `off`): whether the site puts back into the shop's
   * stock the places of an order refunded or trashed in the shop, which WooCommerce keeps
   * out (docs/ledger.md). Off, the organizer does that in the shop.
   */
  restock?: boolean;
}

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** Only for tests against a local fake Stripe server ("http://127.0.0.1:12111"). */
  apiBase: string | null;
}

/** SMTP when SMTP_URL is set, else the embedded mailbox on /mail-test (rules: "E-mail"). */
export interface MailConfig {
  /** `smtp://` or `smtps://user:pass@host:port`; null: mails are kept in the store. */
  smtpUrl: string | null;
  /** The sender, "After Work Hamburg <tickets@…>". */
  from: string;
}

/**
 * Who takes the payments: Stripe, or the built-in test provider, whose page lets anyone
 * "pay" and therefore must never run a live shop by accident.
 */
export type PaymentProvider = 'stripe' | 'test';

/**
 * rules "Wallet passes": what signs an Apple Wallet pass. The key is read once with its
 * passphrase (APPLE_PASS_KEY_PASSPHRASE) and kept unencrypted in memory, like the ticket
 * signing key, so a pass is signed without a key derivation each time.
 */
export interface AppleWalletConfig {
  passTypeId: string;
  teamId: string;
  /** PEM: the pass type certificate, its private key and Apple's WWDR intermediate. */
  certificate: string;
  privateKey: string;
  wwdrCertificate: string;
}

/** rules "Wallet passes": the issuer and the service account that signs Google save links. */
export interface GoogleWalletConfig {
  issuerId: string;
  clientEmail: string;
  privateKey: KeyObject;
  keyId: string | null;
}

/** Each wallet is offered only when configured (null: its button is not shown). */
export interface WalletConfig {
  apple: AppleWalletConfig | null;
  google: GoogleWalletConfig | null;
}

/** Where a process serves its Prometheus metrics (METRICS_PORT, METRICS_HOST). */
export interface MetricsEndpoint {
  port: number;
  host: string;
}

/**
 * The store. PostgreSQL's password is DATABASE_PASSWORD when set (null: the one in the URL,
 * if any); it never has to be encoded into the URL.
 */
export type DatabaseConfig =
  { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; password: string | null };

export interface AppConfigShape {
  /**
   * NODE_ENV=production (the images set it): the site takes real orders, so whatever is
   * only for trying it out (test payments, printed codes, internal pages) must be asked for.
   */
  production: boolean;
  port: number;
  host: string;
  modules: ModuleSelection;
  publicUrl: string;
  database: DatabaseConfig;
  woocommerce: WooCommerceConfig | null;
  stripe: StripeConfig | null;
  /**
   * PAYMENT_PROVIDER; by default Stripe when STRIPE_SECRET_KEY is set, else the test
   * provider, which production (NODE_ENV=production) accepts only when asked for by name.
   */
  paymentProvider: PaymentProvider;
  catalogTtlSeconds: number;
  mail: MailConfig;
  /**
   * The Ed25519 key tickets are signed with (TICKET_SIGNING_KEY, PKCS#8 PEM); null:
   * generated once and kept in the store (rules: "Tickets and the door").
   */
  ticketSigningKey: KeyObject | null;
  /**
   * The door code that unlocks /einlass (CHECKIN_CODE); null: generated once and kept in
   * the store (rules: "Tickets and the door").
   */
  checkinCode: string | null;
  /**
   * How long an offer holds its places for the visitor (WAITLIST_OFFER_HOURS, default 24;
   * rules: "Waiting list").
   */
  waitlistOfferHours: number;
  /**
   * Days after an order's last event until its buyer, ticket holders, the scans' device
   * names and the stored mails are erased (PERSONAL_DATA_DAYS_AFTER_EVENT, default 90;
   * docs/privacy.md).
   */
  personalDataDaysAfterEvent: number;
  /**
   * Most tickets of one event (all its tiers together) in one checkout
   * (MAX_TICKETS_PER_ORDER, default 10, at most MAX_UNITS_PER_ORDER).
   */
  maxTicketsPerOrder: number;
  /** Built frontend served by the single-process `npm start`; null when nginx serves it. */
  staticDir: string | null;
  /**
   * Where the products process reaches the checkout side's tickets API (CHECKOUT_URL), so
   * /tickets/{token} is complete in its server HTML. Default: this process with
   * MODULES=all, otherwise null (the page then asks the API from the browser).
   */
  checkoutUrl: string | null;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /**
   * Which peers may set X-Forwarded-For (per-IP rate limits and the door's lockout depend
   * on it): a boolean or proxy-addr names/CIDRs. Default: none, as `npm start` serves
   * visitors directly; the stack and compose name their nginx.
   */
  trustProxy: boolean | string;
  /** ORGANIZER_EMAIL: the organizer's address for what needs a hand; null: a warning log. */
  organizerEmail?: string | null;
  /**
   * The code that opens /veranstalter on a site without WooCommerce (ORGANIZER_CODE); null:
   * generated once and kept in the store. With WooCommerce the organizer signs in with a
   * WordPress account instead (rules "The organizer").
   */
  organizerCode?: string | null;
  /**
   * Hours before an event's start until which a ticket can be passed on
   * (TICKET_TRANSFER_UNTIL_HOURS, default 2; rules "Named tickets").
   */
  ticketTransferUntilHours?: number;
  /**
   * rules "Giving a ticket back": TICKET_RETURNS (`waitlist` or `off`), the hours before the
   * start until which a ticket can be given back (TICKET_RETURN_UNTIL_HOURS, 24) and what
   * the guest pays for it in cents (TICKET_RETURN_FEE_EUR, 0). Absent: the defaults.
   */
  ticketReturns?: { enabled: boolean; untilHours: number; feeCents: number };
  /** Hours before the start the reminder goes out (REMINDER_HOURS_BEFORE, default 24; rules "Reminders"). */
  reminderHoursBefore?: number;
  /** Apple and Google Wallet (rules "Wallet passes"); absent or null: not offered. */
  wallet?: WalletConfig;
  /**
   * Prometheus metrics on a port of their own (METRICS_PORT, default 9464; METRICS_HOST,
   * default 127.0.0.1); absent or null ("0" or "off"): not served.
   */
  metrics?: MetricsEndpoint | null;
}

/** Names the variable and what is wrong with it, so ops can fix it without reading code. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

/** The validated configuration, injected everywhere as a Nest provider. */
export class AppConfig implements AppConfigShape {
  readonly production!: boolean;
  readonly port!: number;
  readonly host!: string;
  readonly modules!: ModuleSelection;
  readonly publicUrl!: string;
  readonly database!: DatabaseConfig;
  readonly woocommerce!: WooCommerceConfig | null;
  readonly stripe!: StripeConfig | null;
  readonly paymentProvider!: PaymentProvider;
  readonly catalogTtlSeconds!: number;
  readonly mail!: MailConfig;
  readonly ticketSigningKey!: KeyObject | null;
  readonly checkinCode!: string | null;
  readonly waitlistOfferHours!: number;
  readonly personalDataDaysAfterEvent!: number;
  readonly maxTicketsPerOrder!: number;
  readonly staticDir!: string | null;
  readonly checkoutUrl!: string | null;
  readonly logLevel!: AppConfigShape['logLevel'];
  readonly trustProxy!: boolean | string;
  readonly organizerEmail?: string | null;
  readonly organizerCode?: string | null;
  readonly ticketTransferUntilHours?: number;
  readonly ticketReturns?: { enabled: boolean; untilHours: number; feeCents: number };
  readonly reminderHoursBefore?: number;
  readonly wallet?: WalletConfig;
  readonly metrics?: MetricsEndpoint | null;

  constructor(shape: AppConfigShape) {
    Object.assign(this, shape);
  }

  static fromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
    return new AppConfig(parseConfig(env));
  }
}

/** Runs one variable's schema; its first problem becomes the ConfigError naming it. */
function readVariable<T>(variable: string, schema: z.ZodType<T>, raw: string | undefined): T {
  const result = schema.safeParse(raw);
  if (!result.success) throw new ConfigError(variable, result.error.issues[0]!.message);
  return result.data;
}

/** The shop: all three variables or none. */
/** Hosts a plain-HTTP WOOCOMMERCE_URL may name: a shop on the same machine (tests, a tunnel). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function wooCommerceConfig(vars: {
  WOOCOMMERCE_URL?: string;
  WOOCOMMERCE_KEY?: string;
  WOOCOMMERCE_SECRET?: string;
  WOOCOMMERCE_WEBHOOK_SECRET?: string;
  SHOP_RESTOCK?: 'on' | 'off';
}): WooCommerceConfig | null {
  const { WOOCOMMERCE_URL: url, WOOCOMMERCE_KEY: key, WOOCOMMERCE_SECRET: secret } = vars;
  if (!url) {
    if (key || secret) {
      throw new ConfigError(
        'WOOCOMMERCE_URL',
        'is required when WOOCOMMERCE_KEY or WOOCOMMERCE_SECRET is set',
      );
    }
    if (vars.WOOCOMMERCE_WEBHOOK_SECRET) {
      throw new ConfigError(
        'WOOCOMMERCE_URL',
        'is required when WOOCOMMERCE_WEBHOOK_SECRET is set',
      );
    }
    return null;
  }
  if (!key) throw new ConfigError('WOOCOMMERCE_KEY', 'is required when WOOCOMMERCE_URL is set');
  if (!secret) {
    throw new ConfigError('WOOCOMMERCE_SECRET', 'is required when WOOCOMMERCE_URL is set');
  }
  const checked = readVariable('WOOCOMMERCE_URL', httpUrl, url);
  const { protocol, hostname } = new URL(checked);
  // WooCommerce takes API keys as basic auth only over HTTPS; over plain HTTP it wants
  // OAuth signatures and answers 401, which would read as wrong keys. Loopback is for tests.
  if (protocol !== 'https:' && !LOOPBACK_HOSTS.has(hostname)) {
    throw new ConfigError(
      'WOOCOMMERCE_URL',
      'must start with https:// – WooCommerce accepts API keys only over HTTPS (a shop with its own CA: NODE_EXTRA_CA_CERTS) / muss mit https:// beginnen – WooCommerce nimmt die API-Schlüssel nur über HTTPS an (ein Shop mit eigener CA: NODE_EXTRA_CA_CERTS)',
    );
  }
  return {
    url: checked,
    key,
    secret,
    webhookSecret: vars.WOOCOMMERCE_WEBHOOK_SECRET ?? null,
    restock: vars.SHOP_RESTOCK !== 'off',
  };
}

/** Stripe: the secret key and its webhook secret together; STRIPE_API_BASE only beside them. */
function stripeConfig(vars: {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE?: string;
}): StripeConfig | null {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret } = vars;
  if (!secretKey) {
    if (webhookSecret) {
      throw new ConfigError('STRIPE_SECRET_KEY', 'is required when STRIPE_WEBHOOK_SECRET is set');
    }
    return null;
  }
  if (!webhookSecret) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'is required when STRIPE_SECRET_KEY is set');
  }
  const apiBase = vars.STRIPE_API_BASE;
  return {
    secretKey,
    webhookSecret,
    apiBase: apiBase ? readVariable('STRIPE_API_BASE', httpUrl, apiBase) : null,
  };
}

/**
 * PAYMENT_PROVIDER (`stripe` or `test`). Unset, Stripe runs when it has a key, and the
 * test provider otherwise, except in production: a deploy whose `.env` lost its Stripe key
 * would let anyone "pay" on the test page and get real tickets, so production names the
 * test provider explicitly (a staging site) or does not start.
 */
function choosePaymentProvider(
  raw: string | undefined,
  stripeConfigured: boolean,
  production: boolean,
): PaymentProvider {
  const provider =
    readVariable('PAYMENT_PROVIDER', paymentProvider, raw) ??
    (stripeConfigured ? 'stripe' : production ? null : 'test');
  if (provider === null) {
    throw new ConfigError(
      'STRIPE_SECRET_KEY',
      'is required in production (NODE_ENV=production); for a staging site without real payments set PAYMENT_PROVIDER=test',
    );
  }
  if (provider === 'stripe' && !stripeConfigured) {
    throw new ConfigError('STRIPE_SECRET_KEY', 'is required when PAYMENT_PROVIDER=stripe');
  }
  return provider;
}

export function parsePaymentProvider(
  raw: string | undefined,
  stripe: StripeConfig | null,
  production: boolean,
): PaymentProvider {
  return choosePaymentProvider(raw, stripe !== null, production);
}

/**
 * In production the ticket signing key is configured, not generated into the store, where
 * it would sit beside the data it protects and change with a new database. Only the
 * checkout side signs tickets; the products process needs no key.
 */
function requireSigningKeyInProduction(
  keySet: boolean,
  production: boolean,
  modules: ModuleSelection,
) {
  if (production && modules !== 'products' && !keySet) {
    throw new ConfigError(
      'TICKET_SIGNING_KEY',
      'is required in production (NODE_ENV=production); make one with `openssl genpkey -algorithm ed25519` and set the PEM text (newlines as \\n)',
    );
  }
}

export function requireProductionSigningKey(
  key: KeyObject | null,
  production: boolean,
  modules: ModuleSelection,
) {
  requireSigningKeyInProduction(key !== null, production, modules);
  return key;
}

/**
 * ORGANIZER_CODE only where the organizer signs in with it: with WooCommerce the shop's
 * WordPress accounts sign in (rules "The organizer"), and a code set beside them would be a
 * second, weaker key nobody asked for. Never the door code: the door staff know that one,
 * and it would open sales and revenue to them.
 */
function organizerCodeUse(vars: {
  ORGANIZER_CODE?: string;
  CHECKIN_CODE?: string;
  WOOCOMMERCE_URL?: string;
}) {
  if (!vars.ORGANIZER_CODE) return;
  if (vars.WOOCOMMERCE_URL) {
    throw new ConfigError(
      'ORGANIZER_CODE',
      'is for a site without WooCommerce; with WOOCOMMERCE_URL the organizer signs in with a WordPress account (shop manager or administrator) and an application password',
    );
  }
  const normalized = (code: string) => code.replace(/[\s-]+/g, '').toUpperCase();
  if (vars.CHECKIN_CODE && normalized(vars.CHECKIN_CODE) === normalized(vars.ORGANIZER_CODE)) {
    throw new ConfigError('ORGANIZER_CODE', 'must differ from CHECKIN_CODE');
  }
}

const APPLE_WALLET_VARIABLES = [
  'APPLE_PASS_TYPE_ID',
  'APPLE_TEAM_ID',
  'APPLE_PASS_CERT',
  'APPLE_PASS_KEY',
  'APPLE_WWDR_CERT',
] as const;

/**
 * Apple Wallet (rules "Wallet passes"): all five variables or none, the passphrase only
 * beside a key. The key must open with the passphrase, be RSA (what Apple issues) and
 * belong to the certificate: a wrong pair would sign passes no iPhone accepts.
 */
function appleWalletConfig(
  vars: Partial<
    Record<(typeof APPLE_WALLET_VARIABLES)[number] | 'APPLE_PASS_KEY_PASSPHRASE', string>
  >,
): AppleWalletConfig | null {
  const set = APPLE_WALLET_VARIABLES.filter((name) => vars[name]);
  const passphrase = vars.APPLE_PASS_KEY_PASSPHRASE;
  if (set.length === 0) {
    if (passphrase) {
      throw new ConfigError('APPLE_PASS_KEY', 'is required when APPLE_PASS_KEY_PASSPHRASE is set');
    }
    return null;
  }
  const missing = APPLE_WALLET_VARIABLES.find((name) => !vars[name]);
  if (missing) {
    throw new ConfigError(
      missing,
      `is required when ${set[0]} is set (Apple Wallet needs ${APPLE_WALLET_VARIABLES.join(', ')})`,
    );
  }
  const passTypeId = readVariable('APPLE_PASS_TYPE_ID', applePassTypeId, vars.APPLE_PASS_TYPE_ID);
  const teamId = readVariable('APPLE_TEAM_ID', appleTeamId, vars.APPLE_TEAM_ID);
  const certificate = readVariable('APPLE_PASS_CERT', pemCertificate, vars.APPLE_PASS_CERT);
  const wwdrCertificate = readVariable('APPLE_WWDR_CERT', pemCertificate, vars.APPLE_WWDR_CERT);
  const keyPem = readVariable('APPLE_PASS_KEY', pemPrivateKey, vars.APPLE_PASS_KEY);
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: keyPem, format: 'pem', passphrase });
  } catch {
    throw new ConfigError(
      'APPLE_PASS_KEY',
      passphrase
        ? 'cannot be opened with APPLE_PASS_KEY_PASSPHRASE (a PEM private key and its passphrase)'
        : 'must be a PEM private key (-----BEGIN PRIVATE KEY-----; an encrypted one needs APPLE_PASS_KEY_PASSPHRASE)',
    );
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new ConfigError(
      'APPLE_PASS_KEY',
      `must be an RSA key, as Apple issues them (got ${key.asymmetricKeyType ?? 'another type'})`,
    );
  }
  if (!new X509Certificate(certificate).checkPrivateKey(key)) {
    throw new ConfigError(
      'APPLE_PASS_KEY',
      'does not belong to the certificate in APPLE_PASS_CERT',
    );
  }
  return {
    passTypeId,
    teamId,
    certificate,
    privateKey: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
    wwdrCertificate,
  };
}

/** Google Wallet (rules "Wallet passes"): the issuer and its service account together. */
function googleWalletConfig(vars: {
  GOOGLE_WALLET_ISSUER_ID?: string;
  GOOGLE_WALLET_SERVICE_ACCOUNT?: string;
}): GoogleWalletConfig | null {
  const { GOOGLE_WALLET_ISSUER_ID: issuer, GOOGLE_WALLET_SERVICE_ACCOUNT: account } = vars;
  if (!issuer && !account) return null;
  if (!issuer) {
    throw new ConfigError(
      'GOOGLE_WALLET_ISSUER_ID',
      'is required when GOOGLE_WALLET_SERVICE_ACCOUNT is set',
    );
  }
  if (!account) {
    throw new ConfigError(
      'GOOGLE_WALLET_SERVICE_ACCOUNT',
      'is required when GOOGLE_WALLET_ISSUER_ID is set',
    );
  }
  return {
    issuerId: readVariable('GOOGLE_WALLET_ISSUER_ID', googleWalletIssuerId, issuer),
    ...readVariable('GOOGLE_WALLET_SERVICE_ACCOUNT', googleWalletServiceAccount, account),
  };
}

/** A rule between variables as a step of the schema: its ConfigError becomes an issue in place. */
function rule<I, O>(check: (vars: I) => O) {
  return (vars: I, ctx: z.RefinementCtx): O => {
    try {
      return check(vars);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      ctx.addIssue({ code: 'custom', path: [err.variable], message: err.problem });
      return z.NEVER;
    }
  };
}

/** The entries below that hold a rule between variables; each reads the whole environment. */
const RULES = [
  'woocommerce',
  'database',
  'stripe',
  'paymentProvider',
  'productionSigningKey',
  'organizerCodeUse',
  'appleWallet',
  'googleWallet',
] as const;

/**
 * The environment: every variable with its own rule and default, and the rules between
 * variables, in the order problems are reported (the first one stops the start). A rule
 * reads the variables it ties together; those that come before it have passed their own
 * rules by the time it counts, so it may take a set STRIPE_SECRET_KEY for a working Stripe.
 */
const environment = z.preprocess(
  (env) => ({
    ...(env as NodeJS.ProcessEnv),
    ...Object.fromEntries(RULES.map((name) => [name, env])),
  }),
  z.object({
    NODE_ENV: variable(text),
    PORT: variable(wholeNumber(3000, 1, 65535)),
    HOST: variable(z.string().default('0.0.0.0')),
    MODULES: variable(modules),
    woocommerce: z
      .object({
        WOOCOMMERCE_URL: variable(text),
        WOOCOMMERCE_KEY: variable(text),
        WOOCOMMERCE_SECRET: variable(text),
        WOOCOMMERCE_WEBHOOK_SECRET: variable(text),
        SHOP_RESTOCK: variable(shopRestock),
      })
      .transform(rule(wooCommerceConfig)),
    stripe: z
      .object({
        STRIPE_SECRET_KEY: variable(stripeSecretKey),
        STRIPE_WEBHOOK_SECRET: variable(text),
        STRIPE_API_BASE: variable(text),
      })
      .transform(rule(stripeConfig)),
    PUBLIC_URL: variable(httpUrl.optional()),
    STATIC_DIR: variable(staticDir),
    CHECKOUT_URL: variable(httpUrl.optional()),
    LOG_LEVEL: variable(logLevel),
    TRUST_PROXY: variable(trustProxy),
    METRICS_PORT: variable(metricsPort),
    METRICS_HOST: variable(z.string().default('127.0.0.1')),
    TICKET_SIGNING_KEY: variable(ticketSigningKey),
    DATABASE_URL: variable(databaseUrl),
    database: z
      .object({ DATABASE_URL: variable(text), DATABASE_PASSWORD: text })
      .transform(rule((vars) => databaseConfig(vars.DATABASE_URL, vars.DATABASE_PASSWORD))),
    paymentProvider: z
      .object({
        PAYMENT_PROVIDER: variable(text),
        STRIPE_SECRET_KEY: variable(text),
        NODE_ENV: variable(text),
      })
      .transform(
        rule((vars) =>
          choosePaymentProvider(
            vars.PAYMENT_PROVIDER,
            vars.STRIPE_SECRET_KEY !== undefined,
            vars.NODE_ENV === 'production',
          ),
        ),
      ),
    CATALOG_TTL_SECONDS: variable(wholeNumber(60, 0, 86_400)),
    SMTP_URL: variable(smtpUrl),
    MAIL_FROM: variable(mailFrom),
    ORGANIZER_EMAIL: variable(organizerEmail),
    productionSigningKey: z
      .object({
        TICKET_SIGNING_KEY: variable(text),
        NODE_ENV: variable(text),
        MODULES: variable(modules),
      })
      .transform(
        rule((vars) =>
          requireSigningKeyInProduction(
            // Set is enough here: its own rule above has read it.
            vars.TICKET_SIGNING_KEY !== undefined,
            vars.NODE_ENV === 'production',
            vars.MODULES,
          ),
        ),
      ),
    CHECKIN_CODE: variable(checkinCode),
    WAITLIST_OFFER_HOURS: variable(waitlistOfferHours),
    TICKET_TRANSFER_UNTIL_HOURS: variable(ticketTransferUntilHours),
    TICKET_RETURNS: variable(ticketReturns),
    TICKET_RETURN_UNTIL_HOURS: variable(ticketReturnUntilHours),
    TICKET_RETURN_FEE_EUR: variable(ticketReturnFeeEur),
    REMINDER_HOURS_BEFORE: variable(reminderHoursBefore),
    PERSONAL_DATA_DAYS_AFTER_EVENT: variable(
      wholeNumber(DEFAULT_PERSONAL_DATA_DAYS_AFTER_EVENT, 1, MAX_PERSONAL_DATA_DAYS_AFTER_EVENT),
    ),
    MAX_TICKETS_PER_ORDER: variable(wholeNumber(10, 1, MAX_UNITS_PER_ORDER)),
    ORGANIZER_CODE: variable(organizerCode),
    organizerCodeUse: z
      .object({
        ORGANIZER_CODE: variable(text),
        CHECKIN_CODE: variable(text),
        WOOCOMMERCE_URL: variable(text),
      })
      .transform(rule(organizerCodeUse)),
    appleWallet: z
      .object({
        APPLE_PASS_TYPE_ID: variable(text),
        APPLE_TEAM_ID: variable(text),
        APPLE_PASS_CERT: variable(text),
        APPLE_PASS_KEY: variable(text),
        APPLE_PASS_KEY_PASSPHRASE: variable(text),
        APPLE_WWDR_CERT: variable(text),
      })
      .transform(rule(appleWalletConfig)),
    googleWallet: z
      .object({
        GOOGLE_WALLET_ISSUER_ID: variable(text),
        GOOGLE_WALLET_SERVICE_ACCOUNT: variable(text),
      })
      .transform(rule(googleWalletConfig)),
  }),
);

/**
 * Every variable the environment's schema reads, its own or in a rule between variables:
 * what docker-compose.yml has to pass on (tests/stack/infra.spec.ts checks it does).
 */
export const CONFIG_VARIABLES: readonly string[] = [
  ...new Set(
    Object.entries(environment.out.shape).flatMap(([key, schema]) =>
      RULES.includes(key as (typeof RULES)[number])
        ? Object.keys((schema as unknown as { in: z.ZodObject }).in.shape)
        : [key],
    ),
  ),
].sort();

export function parseDatabaseUrl(raw: string | undefined): DatabaseConfig {
  return readVariable('DATABASE_URL', databaseUrl, raw);
}

/** DATABASE_URL with DATABASE_PASSWORD beside it (the CLIs read just these two). */
export function parseDatabase(env: NodeJS.ProcessEnv): DatabaseConfig {
  return databaseConfig(env.DATABASE_URL?.trim() || undefined, env.DATABASE_PASSWORD);
}

function databaseConfig(url: string | undefined, rawPassword: string | undefined): DatabaseConfig {
  const database = parseDatabaseUrl(url);
  const password = readVariable('DATABASE_PASSWORD', databasePassword, rawPassword);
  if (password === null) return database;
  if (database.kind !== 'postgres') {
    throw new ConfigError('DATABASE_PASSWORD', 'is for a postgres:// DATABASE_URL only');
  }
  if (new URL(database.url).password !== '') {
    throw new ConfigError(
      'DATABASE_PASSWORD',
      'is set and DATABASE_URL holds a password too: give it in one place',
    );
  }
  return { ...database, password };
}

export function parseSmtpUrl(raw: string | undefined): string | null {
  return readVariable('SMTP_URL', smtpUrl, raw);
}

export function parseMailFrom(raw: string | undefined): string {
  return readVariable('MAIL_FROM', mailFrom, raw);
}

export function parseTicketSigningKey(raw: string | undefined): KeyObject | null {
  return readVariable('TICKET_SIGNING_KEY', ticketSigningKey, raw);
}

export function parseCheckinCode(raw: string | undefined): string | null {
  return readVariable('CHECKIN_CODE', checkinCode, raw);
}

export function parseOrganizerCode(raw: string | undefined): string | null {
  return readVariable('ORGANIZER_CODE', organizerCode, raw);
}

export function parseWaitlistOfferHours(raw: string | undefined): number {
  return readVariable('WAITLIST_OFFER_HOURS', waitlistOfferHours, raw);
}

export interface BackupConfig {
  dir: string;
  keep: number;
  passphrase: string | null;
}

/** `npm run backup` and `npm run restore`: BACKUP_DIR, BACKUP_KEEP, BACKUP_PASSPHRASE. */
export function parseBackupConfig(env: NodeJS.ProcessEnv): BackupConfig {
  const value = (name: string) => env[name]?.trim() || undefined;
  return {
    dir: readVariable('BACKUP_DIR', backupDir, value('BACKUP_DIR')),
    keep: readVariable('BACKUP_KEEP', backupKeep, value('BACKUP_KEEP')),
    // The passphrase as given: spaces may be part of it.
    passphrase: readVariable(
      'BACKUP_PASSPHRASE',
      backupPassphrase,
      env.BACKUP_PASSPHRASE || undefined,
    ),
  };
}

export function parseConfig(env: NodeJS.ProcessEnv): AppConfigShape {
  const result = environment.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(String(issue.path.at(-1)), issue.message);
  }
  const vars = result.data;
  return {
    production: vars.NODE_ENV === 'production',
    port: vars.PORT,
    host: vars.HOST,
    modules: vars.MODULES,
    publicUrl: vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`,
    database: vars.database,
    woocommerce: vars.woocommerce,
    stripe: vars.stripe,
    paymentProvider: vars.paymentProvider,
    catalogTtlSeconds: vars.CATALOG_TTL_SECONDS,
    mail: { smtpUrl: vars.SMTP_URL, from: vars.MAIL_FROM },
    ticketSigningKey: vars.TICKET_SIGNING_KEY,
    checkinCode: vars.CHECKIN_CODE,
    waitlistOfferHours: vars.WAITLIST_OFFER_HOURS,
    ticketTransferUntilHours: vars.TICKET_TRANSFER_UNTIL_HOURS,
    ticketReturns: {
      enabled: vars.TICKET_RETURNS === 'waitlist',
      untilHours: vars.TICKET_RETURN_UNTIL_HOURS,
      feeCents: vars.TICKET_RETURN_FEE_EUR,
    },
    reminderHoursBefore: vars.REMINDER_HOURS_BEFORE,
    personalDataDaysAfterEvent: vars.PERSONAL_DATA_DAYS_AFTER_EVENT,
    maxTicketsPerOrder: vars.MAX_TICKETS_PER_ORDER,
    staticDir: vars.STATIC_DIR,
    checkoutUrl:
      vars.CHECKOUT_URL ?? (vars.MODULES === 'all' ? `http://127.0.0.1:${vars.PORT}` : null),
    logLevel: vars.LOG_LEVEL,
    trustProxy: vars.TRUST_PROXY,
    organizerEmail: vars.ORGANIZER_EMAIL,
    organizerCode: vars.ORGANIZER_CODE,
    wallet: { apple: vars.appleWallet, google: vars.googleWallet },
    metrics:
      vars.METRICS_PORT === null ? null : { port: vars.METRICS_PORT, host: vars.METRICS_HOST },
  };
}
