import { createPrivateKey, type KeyObject } from 'node:crypto';
import { resolve } from 'node:path';

export type ModuleSelection = 'products' | 'checkout' | 'all';

export interface WooCommerceConfig {
  url: string;
  key: string;
  secret: string;
}

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** Only for tests against a local fake Stripe server ("http://127.0.0.1:12111"). */
  apiBase: string | null;
}

/** DESIGN "E-mail": SMTP when SMTP_URL is set, else the embedded mailbox (/mail-test). */
export interface MailConfig {
  /** `smtp://` or `smtps://user:pass@host:port`; null: mails are kept in the store. */
  smtpUrl: string | null;
  /** The sender, "After Work Hamburg <tickets@…>". */
  from: string;
}

export const DEFAULT_MAIL_FROM = 'After Work Hamburg <tickets@localhost>';

export type DatabaseConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export interface AppConfigShape {
  port: number;
  host: string;
  modules: ModuleSelection;
  publicUrl: string;
  database: DatabaseConfig;
  woocommerce: WooCommerceConfig | null;
  stripe: StripeConfig | null;
  catalogTtlSeconds: number;
  mail: MailConfig;
  /**
   * DESIGN "Tickets and the door": the Ed25519 key tickets are signed with
   * (TICKET_SIGNING_KEY, PKCS#8 PEM); null: generated once and kept in the store.
   */
  ticketSigningKey: KeyObject | null;
  /**
   * DESIGN "Tickets and the door": the door code that unlocks /einlass (CHECKIN_CODE); null:
   * generated once and kept in the store.
   */
  checkinCode: string | null;
  /**
   * DESIGN "Waiting list": how long an offer holds its places for the visitor
   * (WAITLIST_OFFER_HOURS, default 24).
   */
  waitlistOfferHours: number;
  /** Built frontend served by the single-process `npm start`; null when nginx serves it. */
  staticDir: string | null;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /**
   * Which peers may set X-Forwarded-For (per-IP rate limits depend on it): a boolean or
   * proxy-addr names/CIDRs. Default: loopback and private networks, where nginx runs.
   */
  trustProxy: boolean | string;
}

/** Names the variable and what is wrong with it, so ops can fix it without reading code. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

/** The validated configuration, injected everywhere as a Nest provider. */
export class AppConfig implements AppConfigShape {
  readonly port!: number;
  readonly host!: string;
  readonly modules!: ModuleSelection;
  readonly publicUrl!: string;
  readonly database!: DatabaseConfig;
  readonly woocommerce!: WooCommerceConfig | null;
  readonly stripe!: StripeConfig | null;
  readonly catalogTtlSeconds!: number;
  readonly mail!: MailConfig;
  readonly ticketSigningKey!: KeyObject | null;
  readonly checkinCode!: string | null;
  readonly waitlistOfferHours!: number;
  readonly staticDir!: string | null;
  readonly logLevel!: AppConfigShape['logLevel'];
  readonly trustProxy!: boolean | string;

  constructor(shape: AppConfigShape) {
    Object.assign(this, shape);
  }

  static fromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
    return new AppConfig(parseConfig(env));
  }
}

function text(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number) {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return n;
}

function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `must use http or https (got "${url.protocol}")`);
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

export function parseDatabaseUrl(raw: string | undefined): DatabaseConfig {
  const value = raw ?? 'sqlite:./data/awhh.db';
  if (value.startsWith('postgres://') || value.startsWith('postgresql://')) {
    return { kind: 'postgres', url: value };
  }
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length);
    if (path === '') throw new ConfigError('DATABASE_URL', 'needs a file after "sqlite:"');
    return { kind: 'sqlite', path: path === ':memory:' ? path : resolve(path) };
  }
  throw new ConfigError('DATABASE_URL', `must start with postgres:// or sqlite: (got "${value}")`);
}

/** SMTP_URL: smtp:// or smtps:// with a host; the password never appears in the error. */
export function parseSmtpUrl(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('SMTP_URL', 'must be a URL like smtp://user:pass@host:587');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError(
      'SMTP_URL',
      `must start with smtp:// or smtps:// (got "${url.protocol}")`,
    );
  }
  if (!url.hostname) throw new ConfigError('SMTP_URL', 'needs a host (smtp://host:587)');
  return raw;
}

/** MAIL_FROM: an address, optionally with a display name ("After Work Hamburg <tickets@…>"). */
export function parseMailFrom(raw: string | undefined): string {
  const value = raw ?? DEFAULT_MAIL_FROM;
  const address = /<([^<>\s]+)>\s*$/.exec(value)?.[1] ?? value;
  if (!/^[^@\s<>]+@[^@\s<>]+$/.test(address)) {
    throw new ConfigError(
      'MAIL_FROM',
      `must be an e-mail address, optionally "Name <address>" (got "${value}")`,
    );
  }
  return value;
}

/** TICKET_SIGNING_KEY: an Ed25519 private key, PKCS#8 PEM (literal \n accepted, as .env files write it). */
export function parseTicketSigningKey(raw: string | undefined): KeyObject | null {
  if (raw === undefined) return null;
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: raw.replace(/\\n/g, '\n'), format: 'pem' });
  } catch {
    throw new ConfigError(
      'TICKET_SIGNING_KEY',
      'must be a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)',
    );
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new ConfigError(
      'TICKET_SIGNING_KEY',
      `must be an Ed25519 key (got ${key.asymmetricKeyType ?? 'an unknown type'})`,
    );
  }
  return key;
}

/** Shortest door code accepted (as the door compares it: no spaces or dashes, any case). */
export const MIN_CHECKIN_CODE_LENGTH = 8;

/**
 * CHECKIN_CODE: the door staff's shared code. Long enough that the lockout after wrong codes
 * makes guessing hopeless; the value never appears in the error.
 */
export function parseCheckinCode(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  if (raw.replace(/[\s-]+/g, '').length < MIN_CHECKIN_CODE_LENGTH) {
    throw new ConfigError(
      'CHECKIN_CODE',
      `must have at least ${MIN_CHECKIN_CODE_LENGTH} characters besides spaces and dashes`,
    );
  }
  return raw;
}

/** Longest an offer may hold places: a month, far beyond any sensible setting. */
export const MAX_WAITLIST_OFFER_HOURS = 720;

/**
 * WAITLIST_OFFER_HOURS: hours, fractions allowed ("0.5" for half an hour), more than 0 and
 * at most a month. German and English in one message: the organizer may read it too.
 */
export function parseWaitlistOfferHours(raw: string | undefined): number {
  if (raw === undefined) return 24;
  const hours = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(hours > 0 && hours <= MAX_WAITLIST_OFFER_HOURS)) {
    throw new ConfigError(
      'WAITLIST_OFFER_HOURS',
      `must be a number of hours above 0 and at most ${MAX_WAITLIST_OFFER_HOURS} (got "${raw}") / muss eine Stundenzahl über 0 und höchstens ${MAX_WAITLIST_OFFER_HOURS} sein`,
    );
  }
  return hours;
}

export function parseConfig(env: NodeJS.ProcessEnv): AppConfigShape {
  const port = integer(env, 'PORT', 3000, 1, 65535);
  const modules = (text(env, 'MODULES') ?? 'all') as ModuleSelection;
  if (!['products', 'checkout', 'all'].includes(modules)) {
    throw new ConfigError('MODULES', `must be products, checkout or all (got "${modules}")`);
  }

  const wooUrl = text(env, 'WOOCOMMERCE_URL');
  const wooKey = text(env, 'WOOCOMMERCE_KEY');
  const wooSecret = text(env, 'WOOCOMMERCE_SECRET');
  let woocommerce: WooCommerceConfig | null = null;
  if (wooUrl) {
    if (!wooKey)
      throw new ConfigError('WOOCOMMERCE_KEY', 'is required when WOOCOMMERCE_URL is set');
    if (!wooSecret) {
      throw new ConfigError('WOOCOMMERCE_SECRET', 'is required when WOOCOMMERCE_URL is set');
    }
    woocommerce = { url: httpUrl('WOOCOMMERCE_URL', wooUrl), key: wooKey, secret: wooSecret };
  } else if (wooKey || wooSecret) {
    throw new ConfigError(
      'WOOCOMMERCE_URL',
      'is required when WOOCOMMERCE_KEY or WOOCOMMERCE_SECRET is set',
    );
  }

  const stripeKey = text(env, 'STRIPE_SECRET_KEY');
  const stripeWebhook = text(env, 'STRIPE_WEBHOOK_SECRET');
  let stripe: StripeConfig | null = null;
  if (stripeKey) {
    if (!/^(sk|rk)_(test|live)_/.test(stripeKey)) {
      throw new ConfigError('STRIPE_SECRET_KEY', 'must be a Stripe secret key (sk_… or rk_…)');
    }
    if (!stripeWebhook) {
      throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'is required when STRIPE_SECRET_KEY is set');
    }
    const apiBase = text(env, 'STRIPE_API_BASE');
    stripe = {
      secretKey: stripeKey,
      webhookSecret: stripeWebhook,
      apiBase: apiBase ? httpUrl('STRIPE_API_BASE', apiBase) : null,
    };
  } else if (stripeWebhook) {
    throw new ConfigError('STRIPE_SECRET_KEY', 'is required when STRIPE_WEBHOOK_SECRET is set');
  }

  const publicUrl = httpUrl('PUBLIC_URL', text(env, 'PUBLIC_URL') ?? `http://localhost:${port}`);
  const staticDirRaw = text(env, 'STATIC_DIR');
  const logLevel = (text(env, 'LOG_LEVEL') ?? 'info') as AppConfigShape['logLevel'];
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be debug, info, warn or error (got "${logLevel}")`);
  }

  const trustProxyRaw = text(env, 'TRUST_PROXY') ?? 'loopback,uniquelocal';
  const trustProxy =
    trustProxyRaw === 'true' ? true : trustProxyRaw === 'false' ? false : trustProxyRaw;

  return {
    port,
    host: text(env, 'HOST') ?? '0.0.0.0',
    modules,
    publicUrl,
    database: parseDatabaseUrl(text(env, 'DATABASE_URL')),
    woocommerce,
    stripe,
    catalogTtlSeconds: integer(env, 'CATALOG_TTL_SECONDS', 60, 0, 86_400),
    mail: {
      smtpUrl: parseSmtpUrl(text(env, 'SMTP_URL')),
      from: parseMailFrom(text(env, 'MAIL_FROM')),
    },
    ticketSigningKey: parseTicketSigningKey(text(env, 'TICKET_SIGNING_KEY')),
    checkinCode: parseCheckinCode(text(env, 'CHECKIN_CODE')),
    waitlistOfferHours: parseWaitlistOfferHours(text(env, 'WAITLIST_OFFER_HOURS')),
    staticDir: staticDirRaw === 'off' ? null : resolve(staticDirRaw ?? 'frontend/dist'),
    logLevel,
    trustProxy,
  };
}
