import { createHmac, randomBytes } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { SettingsRepository } from '../store/store.port.js';

/** The secret the keys are made with: generated once, shared by every process. */
const CLIENT_KEY_SETTING = 'client-key-secret';

/**
 * The address a per-client limit counts: an IPv4 address as it is, an IPv6 address by
 * its /64 network, since one connection is handed a whole /64 and could otherwise
 * rotate through 2^64 addresses.
 */
export function addressGroup(ip: string): string {
  const address = ip.trim().toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv4(address) || !address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const before = groups(head);
  const after = address.includes('::') ? groups(tail) : [];
  const all = [
    ...before,
    ...Array<string>(Math.max(0, 8 - before.length - after.length)).fill('0'),
    ...after,
  ];
  return `${all
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/**
 * Keys for per-client limits that outlast a request (open checkouts, a coupon's uses per
 * buyer): a keyed hash of the client's address group or the buyer's e-mail address, so the
 * store never holds the address itself and the key says nothing without the secret.
 */
@Injectable()
export class ClientKeys {
  private secret: Promise<Buffer> | null = null;

  constructor(@Inject(SettingsRepository) private readonly settings: SettingsRepository) {}

  async of(ip: string): Promise<string> {
    return this.keyOf(addressGroup(ip));
  }

  /**
   * rules "Coupons": the buyer of a coupon's per-buyer limit, as an open checkout holds its
   * use: the address in lower case, keyed apart from the client addresses' keys.
   */
  async ofEmail(email: string): Promise<string> {
    return this.keyOf(`email:${email.trim().toLowerCase()}`);
  }

  private async keyOf(value: string): Promise<string> {
    this.secret ??= this.load().catch((err: unknown) => {
      this.secret = null;
      throw err;
    });
    const secret = await this.secret;
    return createHmac('sha256', secret).update(value).digest('base64url').slice(0, 32);
  }

  private async load(): Promise<Buffer> {
    const stored =
      (await this.settings.get(CLIENT_KEY_SETTING)) ??
      (await this.settings.putIfAbsent(
        CLIENT_KEY_SETTING,
        randomBytes(32).toString('base64url'),
        Date.now(),
      ));
    return Buffer.from(stored, 'base64url');
  }
}
