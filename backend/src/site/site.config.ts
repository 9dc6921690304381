import { accessSync, constants } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../config/config.js';

export interface SiteSettings {
  /** Apple Pay merchant domain association file, served under /.well-known/ when set. */
  applePayDomainAssociation: string | null;
  /**
   * The built server renderer (`SSR_ENTRY`; default: dist-ssr/entry-server.js beside the
   * static directory, as `npm run build -w frontend` writes it).
   */
  ssrEntry: string;
}

/** Settings only the site reads; validated at start-up like the rest (fail fast, name the variable). */
export function parseSiteSettings(
  staticDir: string,
  env: NodeJS.ProcessEnv = process.env,
): SiteSettings {
  const ssrEntry = resolve(
    env.SSR_ENTRY?.trim() || join(staticDir, '..', 'dist-ssr', 'entry-server.js'),
  );
  const raw = env.APPLE_PAY_DOMAIN_ASSOCIATION?.trim();
  if (!raw) return { applePayDomainAssociation: null, ssrEntry };
  const path = resolve(raw);
  try {
    accessSync(path, constants.R_OK);
  } catch {
    throw new ConfigError(
      'APPLE_PAY_DOMAIN_ASSOCIATION',
      `must name a readable file (got "${raw}")`,
    );
  }
  return { applePayDomainAssociation: path, ssrEntry };
}
