import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OrganizerSignInMethod } from '@awhh/machines';
import { AppConfig } from '../config/config.js';
import { OrganizerCode } from './organizer-code.js';
import { OrganizerSessionRepository } from './organizer-session.repository.js';
import { ORGANIZER_ROLES, WordPressAccounts } from './wordpress-accounts.js';

/** The cookie that carries the session (rules "The organizer"). */
export const ORGANIZER_COOKIE = 'awhh_organizer';

/** An evening and its preparation: 12 hours, then the organizer signs in again. */
export const ORGANIZER_SESSION_MS = 12 * 3_600_000;

/**
 * A WordPress account is asked again after this much time: an application password revoked
 * or a role taken away there ends the session within it.
 */
export const ORGANIZER_RECHECK_MS = 15 * 60_000;

/** Longest display name kept in the session (WordPress allows 250 characters). */
const MAX_NAME_LENGTH = 80;

/** Longest account address kept in the session (an e-mail address has 254 characters at most). */
const MAX_EMAIL_LENGTH = 254;

/** The cookie: a version and 32 random bytes. */
const TOKEN = /^v2\.([A-Za-z0-9_-]{43})$/;

export interface OrganizerSession {
  method: OrganizerSignInMethod;
  /** The WordPress account's display name; null for the code. */
  name: string | null;
  /** The WordPress account's address ("an mich testen"); null for the code. */
  email: string | null;
  /** Epoch ms. */
  expiresAt: number;
}

/** What a WordPress sign-in leaves for asking WordPress again. */
export interface AccountCredentials {
  username: string;
  applicationPassword: string;
}

/**
 * The organizer's sessions (rules "The organizer", docs/decisions/0022-organizer-sessions-that-end.md):
 * the cookie carries 32 random bytes, the store a row under their SHA-256, so any checkout
 * process finds the session, signing out deletes it everywhere, and a copy of the store (a
 * backup) holds nothing a cookie can be made from. The row is bound to what was signed in
 * with (the code's digest, or the shop's address): a new ORGANIZER_CODE or another shop
 * ends the sessions at once. A WordPress account is asked again every 15 minutes of use;
 * for that the row keeps the application password sealed (AES-256-GCM) with a key derived
 * from the cookie's secret, which the store never sees.
 */
@Injectable()
export class OrganizerSessions {
  private readonly logger = new Logger('Organizer');
  private readonly endedListeners = new Set<() => void>();

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(OrganizerCode) private readonly code: OrganizerCode,
    @Inject(OrganizerSessionRepository) private readonly store: OrganizerSessionRepository,
    @Inject(WordPressAccounts) private readonly accounts: WordPressAccounts,
  ) {}

  /** How the organizer signs in on this site: WordPress with WooCommerce, else the code. */
  get method(): OrganizerSignInMethod {
    return this.config.woocommerce ? 'wordpress' : 'code';
  }

  async issue(
    name: string | null,
    email: string | null = null,
    credentials: AccountCredentials | null = null,
    now = Date.now(),
  ): Promise<{ token: string; maxAgeSeconds: number }> {
    const method = this.method;
    const secret = randomBytes(32);
    await this.store.purge(now);
    await this.store.add({
      idHash: digest(secret),
      method,
      binding: await this.binding(method),
      name: name ? name.slice(0, MAX_NAME_LENGTH) : null,
      email: email && email.length <= MAX_EMAIL_LENGTH ? email : null,
      username: credentials?.username ?? null,
      sealedPassword: credentials ? seal(secret, credentials.applicationPassword) : null,
      checkedAt: now,
      createdAt: now,
      expiresAt: now + ORGANIZER_SESSION_MS,
    });
    return {
      token: `v2.${secret.toString('base64url')}`,
      maxAgeSeconds: ORGANIZER_SESSION_MS / 1000,
    };
  }

  /** The session this cookie names, while it is current; WordPress asked again when due. */
  async verify(token: string, now = Date.now()): Promise<OrganizerSession | null> {
    const secret = secretOf(token);
    if (!secret) return null;
    const idHash = digest(secret);
    const stored = await this.store.find(idHash);
    if (!stored || stored.method !== this.method || !(stored.expiresAt > now)) return null;
    if (stored.binding !== (await this.binding(stored.method))) return null;
    if (stored.method === 'wordpress' && now - stored.checkedAt >= ORGANIZER_RECHECK_MS) {
      if (!(await this.stillAllowed(secret, stored.username, stored.sealedPassword))) {
        await this.store.end(idHash);
        this.logger.log({ msg: 'organizer session ended: WordPress no longer allows it' });
        return null;
      }
      await this.store.checked(idHash, now);
    }
    return {
      method: stored.method,
      name: stored.name,
      email: stored.email,
      expiresAt: stored.expiresAt,
    };
  }

  /** Signing out: the session ends for every copy of its cookie. */
  async end(token: string): Promise<boolean> {
    const secret = secretOf(token);
    const ended = secret ? await this.store.end(digest(secret)) : false;
    if (ended) this.tellEnded();
    return ended;
  }

  /** "Alle Sitzungen beenden": every organizer session ends, this one too. */
  async endAll(): Promise<number> {
    const ended = await this.store.endAll();
    this.logger.log({ msg: 'every organizer session ended', ended });
    this.tellEnded();
    return ended;
  }

  /**
   * Called whenever this process ended sessions: open live streams check theirs at once
   * (streams of other processes check at their next heartbeat). Returns the unsubscribe.
   */
  onEnded(listener: () => void): () => void {
    this.endedListeners.add(listener);
    return () => this.endedListeners.delete(listener);
  }

  private tellEnded(): void {
    for (const listener of [...this.endedListeners]) listener();
  }

  /**
   * WordPress asked again with the sealed application password. A shop that does not answer
   * keeps the session (the next request asks again); a revoked password, a changed one or
   * a role taken away ends it.
   */
  private async stillAllowed(
    secret: Buffer,
    username: string | null,
    sealed: string | null,
  ): Promise<boolean> {
    const password = username && sealed ? unseal(secret, sealed) : null;
    if (!username || password === null) return false;
    const account = await this.accounts.check(username, password);
    switch (account.kind) {
      case 'account':
        return account.roles.some((role) => (ORGANIZER_ROLES as readonly string[]).includes(role));
      case 'unreachable':
      case 'notReceived':
        this.logger.warn({ msg: 'organizer session not re-checked: WordPress did not answer' });
        return true;
      default:
        return false;
    }
  }

  private async binding(method: OrganizerSignInMethod): Promise<string> {
    const bound =
      method === 'code'
        ? `code:${(await this.code.digest()).toString('base64url')}`
        : `wordpress:${this.config.woocommerce?.url ?? ''}`;
    return createHash('sha256').update(bound).digest('base64url');
  }
}

function secretOf(token: string): Buffer | null {
  const match = TOKEN.exec(token);
  return match ? Buffer.from(match[1]!, 'base64url') : null;
}

function digest(secret: Buffer): string {
  return createHash('sha256').update(secret).digest('base64url');
}

function sealingKey(secret: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'awhh-organizer-session', 'wordpress', 32));
}

/** AES-256-GCM under a key from the cookie's secret: `iv.tag.ciphertext`, base64url. */
function seal(secret: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secret), iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

function unseal(secret: Buffer, sealed: string): string | null {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(secret), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return null;
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
