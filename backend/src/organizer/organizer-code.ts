import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/config.js';
import { newDoorCode, normalizeDoorCode } from '../door/door-code.js';
import { SettingsRepository } from '../store/store.port.js';

/** The store's key for the embedded organizer code (rules "The organizer"). */
export const ORGANIZER_CODE_SETTING = 'organizer-code';

/** Longer input is wrong anyway; it is not even hashed. */
const MAX_PRESENTED_LENGTH = 200;

function digest(code: string): Buffer {
  return createHash('sha256').update(normalizeDoorCode(code), 'utf8').digest();
}

/**
 * The code that opens /veranstalter on a site without WooCommerce (rules "The organizer"):
 * ORGANIZER_CODE, or by default one generated once and kept in the store, where every
 * process finds the same one. It is made and read as the door code is (the same alphabet,
 * size and spelling rules: case, spaces and dashes do not count), under a key of its own, so
 * the door staff's code never opens the sales figures. Never logged; outside production the
 * start-up line shows the embedded one, in production `npm run organizer-code` reads it.
 */
@Injectable()
export class OrganizerCode implements OnModuleInit {
  private code: Promise<{ value: string; digest: Buffer; embedded: boolean }> | null = null;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(SettingsRepository) private readonly settings: SettingsRepository,
  ) {}

  /** Only where the organizer signs in with the code: with WooCommerce nothing is generated. */
  get inUse(): boolean {
    return this.config.woocommerce === null;
  }

  async onModuleInit(): Promise<void> {
    if (this.inUse) await this.load();
  }

  /** Compares hashes of equal length in constant time. */
  async matches(presented: string): Promise<boolean> {
    if (!this.inUse) return false;
    const { digest: expected } = await this.load();
    if (presented.length > MAX_PRESENTED_LENGTH) return false;
    return timingSafeEqual(digest(presented), expected);
  }

  /** The code's SHA-256 (normalised): code sessions are bound to it, never to the code. */
  async digest(): Promise<Buffer> {
    return (await this.load()).digest;
  }

  /** The embedded default (start-up line, /mail-test); null when ORGANIZER_CODE is set or unused. */
  async embeddedCode(): Promise<string | null> {
    if (!this.inUse) return null;
    const code = await this.load();
    return code.embedded ? code.value : null;
  }

  private load() {
    this.code ??= (async () => {
      const configured = this.config.organizerCode ?? null;
      const value = configured ?? (await embeddedOrganizerCode(this.settings));
      return { value, digest: digest(value), embedded: configured === null };
    })();
    // A failed read (store briefly down) is tried again by the next request.
    this.code.catch(() => (this.code = null));
    return this.code;
  }
}

/**
 * The generated organizer code kept in the store (the site and `npm run organizer-code`).
 * Insert-if-absent, then read: processes starting together agree on the first code written.
 */
export async function embeddedOrganizerCode(settings: SettingsRepository): Promise<string> {
  const stored = await settings.get(ORGANIZER_CODE_SETTING);
  if (stored) return stored;
  return settings.putIfAbsent(ORGANIZER_CODE_SETTING, newDoorCode(), Date.now());
}
