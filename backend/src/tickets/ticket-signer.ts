import {
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  createPrivateKey,
} from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { calculateJwkThumbprint, CompactSign, compactVerify, exportJWK, type JWK } from 'jose';
import { z } from 'zod';
import { AppConfig } from '../config/config.js';
import { SettingsRepository } from '../store/store.port.js';

/** The store's key for the embedded signing key (rules "Tickets and the door"). */
export const SIGNING_KEY_SETTING = 'ticket-signing-key';

/**
 * The token's payload: one-letter keys and the ticket's short id keep the compact JWS
 * near 150 characters, a QR code a phone reads from a screen at arm's length.
 */
const payloadSchema = z.object({
  t: z.string().min(1).max(64),
  e: z.number().int(),
  s: z.number().int().min(1),
  /** rules "Named tickets": the ticket's generation, absent in its first token. */
  g: z.number().int().min(1).optional(),
});
export type TicketClaims = z.infer<typeof payloadSchema>;

// "EdDSA" rather than jose's newer "Ed25519": door scanners and older JOSE libraries know it.
const ALG = 'EdDSA';

/**
 * Signs and verifies ticket tokens (Ed25519 compact JWS, rules "Tickets and the door"),
 * so the door checks a ticket without the server. The key comes from TICKET_SIGNING_KEY
 * or, by default, is generated once and kept in the store, where every process finds the
 * same one.
 */
@Injectable()
export class TicketSigner implements OnModuleInit {
  private readonly logger = new Logger('Tickets');
  private keys: { privateKey: KeyObject; publicKey: KeyObject; jwk: JWK } | null = null;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(SettingsRepository) private readonly settings: SettingsRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.load();
  }

  async sign(claims: TicketClaims): Promise<string> {
    const { privateKey } = await this.load();
    return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: ALG })
      .sign(privateKey);
  }

  /** The claims of a token this site signed; null for anything else (forged, altered, garbage). */
  async verify(token: string): Promise<TicketClaims | null> {
    if (token.length > 1000) return null;
    const { publicKey } = await this.load();
    try {
      const { payload } = await compactVerify(token, publicKey, { algorithms: [ALG] });
      const parsed = payloadSchema.safeParse(JSON.parse(new TextDecoder().decode(payload)));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  /** GET /api/tickets/public-key: what the door needs to verify offline. */
  async publicJwk(): Promise<JWK> {
    return (await this.load()).jwk;
  }

  private async load() {
    if (this.keys) return this.keys;
    const privateKey = this.config.ticketSigningKey ?? (await this.embeddedKey());
    const publicKey = createPublicKey(privateKey);
    const exported = await exportJWK(publicKey);
    const jwk: JWK = {
      ...exported,
      alg: ALG,
      use: 'sig',
      kid: await calculateJwkThumbprint(exported),
    };
    this.keys = { privateKey, publicKey, jwk };
    return this.keys;
  }

  /** Insert-if-absent, then read: processes starting together agree on the first key written. */
  private async embeddedKey(): Promise<KeyObject> {
    const stored = await this.settings.get(SIGNING_KEY_SETTING);
    if (stored) return createPrivateKey(stored);
    const fresh = generateKeyPairSync('ed25519').privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    const kept = await this.settings.putIfAbsent(SIGNING_KEY_SETTING, fresh, Date.now());
    this.logger.warn(
      'TICKET_SIGNING_KEY is not set: tickets are signed with a key generated once and kept in the store',
    );
    return createPrivateKey(kept);
  }
}
