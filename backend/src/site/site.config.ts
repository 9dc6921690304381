import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../config/config.js';

export interface SiteSettings {
  /** Apple Pay merchant domain association file, served under /.well-known/ when set. */
  applePayDomainAssociation: string | null;
}

/** Settings only the site reads; validated at start-up like the rest (fail fast, name the variable). */
export function parseSiteSettings(env: NodeJS.ProcessEnv = process.env): SiteSettings {
  const raw = env.APPLE_PAY_DOMAIN_ASSOCIATION?.trim();
  if (!raw) return { applePayDomainAssociation: null };
  const path = resolve(raw);
  try {
    accessSync(path, constants.R_OK);
  } catch {
    throw new ConfigError(
      'APPLE_PAY_DOMAIN_ASSOCIATION',
      `must name a readable file (got "${raw}")`,
    );
  }
  return { applePayDomainAssociation: path };
}
