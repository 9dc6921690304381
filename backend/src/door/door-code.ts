import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { codeWeakness } from '../config/code-strength.js';
import { AppConfig } from '../config/config.js';
import { SettingsRepository } from '../store/store.port.js';

/** The store's key for the embedded door code (rules "Tickets and the door"). */
export const CHECKIN_CODE_SETTING = 'checkin-code';

// No 0/O, 1/I/L: the code is read off a screen and typed on a phone at the door.
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 4;
/** Longer input is wrong anyway; it is not even hashed. */
const MAX_PRESENTED_LENGTH = 200;

/**
 * "7KQF-M3XD-R9TB-2HNP": 16 characters of 31, about 79 bits, in groups one can read aloud.
 * The lockout stops one address; the code's size stops many: at a thousand guesses a
 * second, finding it would take billions of years.
 */
export function newDoorCode(): string {
  for (;;) {
    const groups: string[] = [];
    for (let g = 0; g < GROUPS; g += 1) {
      let group = '';
      for (let i = 0; i < GROUP_LENGTH; i += 1) group += ALPHABET[randomInt(ALPHABET.length)];
      groups.push(group);
    }
    const code = groups.join('-');
    // A few random codes lack a digit or draw a run such as "ABCD": a code made by
    // `npm run door-code -- --new` must pass the rule CHECKIN_CODE is held to.
    if (codeWeakness(code) === null) return code;
  }
}

/**
 * Phones capitalise and people add or drop the dashes: case, spaces and dashes do not count,
 * for the embedded code and CHECKIN_CODE alike.
 */
export function normalizeDoorCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toUpperCase();
}

function digest(code: string): Buffer {
  return createHash('sha256').update(normalizeDoorCode(code), 'utf8').digest();
}

/** Renewing is impossible while CHECKIN_CODE fixes the code (rules "The organizer"). */
export class DoorCodeFixedError extends Error {
  constructor() {
    super('CHECKIN_CODE is set');
    this.name = 'DoorCodeFixedError';
  }
}

interface LoadedCode {
  value: string;
  digest: Buffer;
  embedded: boolean;
}

/**
 * The door code that unlocks /einlass (rules "Tickets and the door"): CHECKIN_CODE, or by
 * default one generated once and kept in the store, where every process finds the same one.
 * The organizer can renew the embedded one (rules "The organizer"), so it is read from the
 * store on every use (one row by its key): a renewal in any process ends the old code and
 * every door session bound to it at the next request, everywhere.
 * The code itself is never logged; outside production the start-up line shows the embedded
 * one, in production `npm run door-code` reads it from the store.
 */
@Injectable()
export class DoorCode implements OnModuleInit {
  private configured: LoadedCode | null = null;
  /** The last embedded code read, so its digest is not computed per request. */
  private lastEmbedded: LoadedCode | null = null;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(SettingsRepository) private readonly settings: SettingsRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.load();
  }

  /**
   * Compares hashes of equal length in constant time, so the answer's timing tells nothing
   * about how much of the code was right.
   */
  async matches(presented: string): Promise<boolean> {
    const { digest: expected } = await this.load();
    if (presented.length > MAX_PRESENTED_LENGTH) return false;
    return timingSafeEqual(digest(presented), expected);
  }

  /** The code's SHA-256 (normalised): door sessions are bound to it, never to the code. */
  async digest(): Promise<Buffer> {
    return (await this.load()).digest;
  }

  /** The embedded default (start-up line, /mail-test); null when CHECKIN_CODE is set. */
  async embeddedCode(): Promise<string | null> {
    const code = await this.load();
    return code.embedded ? code.value : null;
  }

  /** The code in force and whether it can be renewed (not while CHECKIN_CODE is set). */
  async current(): Promise<{ code: string; renewable: boolean }> {
    const code = await this.load();
    return { code: code.value, renewable: code.embedded };
  }

  /**
   * rules "The organizer": a new embedded code; the old one and every door session stop
   * working at once. Throws `DoorCodeFixedError` while CHECKIN_CODE is set.
   */
  async renew(now = Date.now()): Promise<string> {
    if (this.config.checkinCode !== null) throw new DoorCodeFixedError();
    const value = newDoorCode();
    await this.settings.put(CHECKIN_CODE_SETTING, value, now);
    this.lastEmbedded = { value, digest: digest(value), embedded: true };
    return value;
  }

  private async load(): Promise<LoadedCode> {
    const configured = this.config.checkinCode;
    if (configured !== null) {
      this.configured ??= { value: configured, digest: digest(configured), embedded: false };
      return this.configured;
    }
    const value = await embeddedDoorCode(this.settings);
    if (this.lastEmbedded?.value !== value) {
      this.lastEmbedded = { value, digest: digest(value), embedded: true };
    }
    return this.lastEmbedded;
  }
}

/**
 * The generated door code kept in the store (the site and `npm run door-code`).
 * Insert-if-absent, then read: processes starting together agree on the first code written.
 */
export async function embeddedDoorCode(settings: SettingsRepository): Promise<string> {
  const stored = await settings.get(CHECKIN_CODE_SETTING);
  if (stored) return stored;
  return settings.putIfAbsent(CHECKIN_CODE_SETTING, newDoorCode(), Date.now());
}
