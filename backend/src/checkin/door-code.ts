import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/config.js';
import { SettingsRepository } from '../store/store.port.js';

/** The store's key for the embedded door code (DESIGN "Tickets and the door"). */
export const CHECKIN_CODE_SETTING = 'checkin-code';

// No 0/O, 1/I/L: the code is read off a screen and typed on a phone at the door.
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const GROUPS = 3;
const GROUP_LENGTH = 4;
/** Longer input is wrong anyway; it is not even hashed. */
const MAX_PRESENTED_LENGTH = 200;

/** "7KQF-M3XD-R9TB": 12 characters of 31, about 59 bits, in groups one can read aloud. */
export function newDoorCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g += 1) {
    let group = '';
    for (let i = 0; i < GROUP_LENGTH; i += 1) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
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

/**
 * The door code that unlocks /einlass (DESIGN "Tickets and the door"): CHECKIN_CODE, or by
 * default one generated once and kept in the store, where every process finds the same one.
 * The code itself is never logged; only the start-up line shows the embedded one.
 */
@Injectable()
export class DoorCode implements OnModuleInit {
  private code: { value: string; digest: Buffer; embedded: boolean } | null = null;

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

  /** The embedded default (start-up line, /mail-test); null when CHECKIN_CODE is set. */
  async embeddedCode(): Promise<string | null> {
    const code = await this.load();
    return code.embedded ? code.value : null;
  }

  private async load() {
    if (this.code) return this.code;
    const configured = this.config.checkinCode;
    const value = configured ?? (await this.embedded());
    this.code = { value, digest: digest(value), embedded: configured === null };
    return this.code;
  }

  /** Insert-if-absent, then read: processes starting together agree on the first code written. */
  private async embedded(): Promise<string> {
    const stored = await this.settings.get(CHECKIN_CODE_SETTING);
    if (stored) return stored;
    return this.settings.putIfAbsent(CHECKIN_CODE_SETTING, newDoorCode(), Date.now());
  }
}
