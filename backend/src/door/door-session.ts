import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { berlinParts, berlinWallTimeToInstant } from '@awhh/machines';
import { SettingsRepository } from '../store/store.port.js';
import { DoorCode } from './door-code.js';

/** The store's key for the secret door sessions are signed with (never served anywhere). */
export const DOOR_SESSION_KEY_SETTING = 'checkin-session-key';

/** What a door session grants; part of the signed text, so no other token can pass as one. */
const SCOPE = 'checkin';
/** Every door session starts so: the guard tells it from a door code at a glance. */
export const DOOR_SESSION_PREFIX = 'door.';
const TOKEN = /^door\.([A-Za-z0-9_-]{16})\.(\d{13})\.([A-Za-z0-9_-]{43})$/;

export interface IssuedDoorSession {
  token: string;
  /** ISO 8601: the end of the next day, Berlin time. */
  expiresAt: string;
}

/** Midnight at the end of the day after `now`'s day in Berlin: a door shift and its night. */
export function doorSessionExpiry(now: number): number {
  const today = berlinParts(now);
  return berlinWallTimeToInstant(today.year, today.month, today.day + 2);
}

/**
 * A door session: what a device gets for the right door code, so that the staff type the
 * code once and the phone sends this instead. An HMAC over the scope, a random id and the
 * expiry, keyed by a secret kept in the store and bound to the current door code: a new
 * CHECKIN_CODE ends every session at once (a lost phone is locked out by changing the
 * code). It opens /api/checkin and nothing else: tickets are EdDSA signatures under another
 * key, and no other guard knows this format.
 */
@Injectable()
export class DoorSessions {
  private secret: Promise<Buffer> | null = null;
  private key: { codeDigest: Buffer; key: Buffer } | null = null;

  constructor(
    @Inject(DoorCode) private readonly code: DoorCode,
    @Inject(SettingsRepository) private readonly settings: SettingsRepository,
  ) {}

  async issue(now = Date.now()): Promise<IssuedDoorSession> {
    const id = randomBytes(12).toString('base64url');
    const expires = doorSessionExpiry(now);
    const mac = await this.mac(id, expires);
    return {
      token: `${DOOR_SESSION_PREFIX}${id}.${expires}.${mac.toString('base64url')}`,
      expiresAt: new Date(expires).toISOString(),
    };
  }

  /** True for a session this store issued under the current code that has not run out. */
  async verify(token: string, now = Date.now()): Promise<boolean> {
    const match = TOKEN.exec(token);
    if (!match) return false;
    const [, id, expiresText, macText] = match;
    const expires = Number(expiresText);
    if (!(expires > now)) return false;
    const expected = await this.mac(id!, expires);
    const presented = Buffer.from(macText!, 'base64url');
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  }

  private async mac(id: string, expires: number): Promise<Buffer> {
    const key = await this.sessionKey();
    return createHmac('sha256', key).update(`${SCOPE}.${id}.${expires}`).digest();
  }

  /**
   * The stored secret, bound to the door code's digest: a renewed code (rules "The
   * organizer") gives another key, so every session issued under the old one fails at once.
   */
  private async sessionKey(): Promise<Buffer> {
    this.secret ??= this.settings
      .putIfAbsent(DOOR_SESSION_KEY_SETTING, randomBytes(32).toString('base64url'), Date.now())
      .then((value) => Buffer.from(value, 'base64url'));
    // A failed read (store briefly down) is tried again by the next request.
    this.secret.catch(() => (this.secret = null));
    const [secret, codeDigest] = await Promise.all([this.secret, this.code.digest()]);
    if (!this.key || !this.key.codeDigest.equals(codeDigest)) {
      this.key = {
        codeDigest,
        key: createHmac('sha256', secret).update(codeDigest).digest(),
      };
    }
    return this.key.key;
  }
}
