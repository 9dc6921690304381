import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { OrganizerSignInMethod } from '@awhh/machines';
import { AppConfig } from '../config/config.js';
import { SettingsRepository } from '../store/store.port.js';
import { OrganizerCode } from './organizer-code.js';

/** The store's key for the secret organizer sessions are signed with (never served anywhere). */
export const ORGANIZER_SESSION_KEY_SETTING = 'organizer-session-key';

/** The cookie that carries the session (rules "The organizer"). */
export const ORGANIZER_COOKIE = 'awhh_organizer';

/** An evening and its preparation: 12 hours, then the organizer signs in again. */
export const ORGANIZER_SESSION_MS = 12 * 3_600_000;

/** Longest display name kept in the session (WordPress allows 250 characters). */
const MAX_NAME_LENGTH = 80;

/** Longest account address kept in the session (an e-mail address has 254 characters at most). */
const MAX_EMAIL_LENGTH = 254;

// The account's address is an optional segment before the MAC (sessions issued without
// one keep working).
const TOKEN =
  /^v1\.(code|wordpress)\.([A-Za-z0-9_-]{16})\.(\d{13})\.([A-Za-z0-9_-]{0,120})\.(?:([A-Za-z0-9_-]{1,340})\.)?([A-Za-z0-9_-]{43})$/;

export interface OrganizerSession {
  method: OrganizerSignInMethod;
  /** The WordPress account's display name; null for the code. */
  name: string | null;
  /** The WordPress account's address ("an mich testen"); null for the code. */
  email: string | null;
  /** Epoch ms. */
  expiresAt: number;
}

/**
 * The organizer's session: an HMAC over the sign-in method, a random id, the expiry and the
 * display name, keyed by a secret kept in the store. The key is bound to what was signed in
 * with: the organizer code's digest (a new ORGANIZER_CODE ends every code session) or the
 * shop's address (a site moved to another shop ends every account session). The
 * application password is never part of it, nor stored anywhere: it is checked once against
 * WordPress and forgotten. It opens /api/organizer and nothing else.
 */
@Injectable()
export class OrganizerSessions {
  private secret: Promise<Buffer> | null = null;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(OrganizerCode) private readonly code: OrganizerCode,
    @Inject(SettingsRepository) private readonly settings: SettingsRepository,
  ) {}

  /** How the organizer signs in on this site: WordPress with WooCommerce, else the code. */
  get method(): OrganizerSignInMethod {
    return this.config.woocommerce ? 'wordpress' : 'code';
  }

  async issue(
    name: string | null,
    email: string | null = null,
    now = Date.now(),
  ): Promise<{ token: string; maxAgeSeconds: number }> {
    const method = this.method;
    const id = randomBytes(12).toString('base64url');
    const expires = now + ORGANIZER_SESSION_MS;
    const shown = name
      ? Buffer.from(name.slice(0, MAX_NAME_LENGTH), 'utf8').toString('base64url')
      : '';
    const address =
      email && email.length <= MAX_EMAIL_LENGTH
        ? Buffer.from(email, 'utf8').toString('base64url')
        : '';
    const mac = await this.mac(method, id, expires, shown, address);
    return {
      token: `v1.${method}.${id}.${expires}.${shown}.${address ? `${address}.` : ''}${mac.toString('base64url')}`,
      maxAgeSeconds: ORGANIZER_SESSION_MS / 1000,
    };
  }

  /** The session this store issued under the current key and method, until it runs out. */
  async verify(token: string, now = Date.now()): Promise<OrganizerSession | null> {
    const match = TOKEN.exec(token);
    if (!match) return null;
    const [, method, id, expiresText, shown, address = '', macText] = match;
    if (method !== this.method) return null;
    const expires = Number(expiresText);
    if (!(expires > now) || expires > now + ORGANIZER_SESSION_MS) return null;
    const expected = await this.mac(method, id!, expires, shown!, address);
    const presented = Buffer.from(macText!, 'base64url');
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return null;
    return {
      method,
      name: shown ? Buffer.from(shown, 'base64url').toString('utf8') : null,
      email: address ? Buffer.from(address, 'base64url').toString('utf8') : null,
      expiresAt: expires,
    };
  }

  private async mac(
    method: string,
    id: string,
    expires: number,
    shown: string,
    address: string,
  ): Promise<Buffer> {
    const key = createHmac('sha256', await this.storedSecret())
      .update(
        method === 'code'
          ? await this.code.digest()
          : `wordpress:${this.config.woocommerce?.url ?? ''}`,
      )
      .digest();
    return createHmac('sha256', key)
      .update(`organizer.${method}.${id}.${expires}.${shown}${address ? `.${address}` : ''}`)
      .digest();
  }

  private storedSecret(): Promise<Buffer> {
    this.secret ??= this.settings
      .putIfAbsent(ORGANIZER_SESSION_KEY_SETTING, randomBytes(32).toString('base64url'), Date.now())
      .then((value) => Buffer.from(value, 'base64url'));
    // A failed read (store briefly down) is tried again by the next request.
    this.secret.catch(() => (this.secret = null));
    return this.secret;
  }
}

/** The session cookie's value from a Cookie header; every `awhh_organizer` pair, first first. */
export function organizerCookies(header: string | undefined): string[] {
  if (!header) return [];
  const found: string[] = [];
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    if (pair.slice(0, at).trim() !== ORGANIZER_COOKIE) continue;
    found.push(pair.slice(at + 1).trim());
  }
  return found;
}

/**
 * The Set-Cookie header: HttpOnly (no script reads it), SameSite=Strict (no other site's
 * request carries it), Secure on https, for the whole site (the page asks with it).
 */
export function organizerCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${ORGANIZER_COOKIE}=${token}`,
    `Max-Age=${maxAgeSeconds}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
