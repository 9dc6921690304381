import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/config.js';

/** WordPress's roles that open /veranstalter (rules "The organizer"). */
export const ORGANIZER_ROLES = ['administrator', 'shop_manager'] as const;

/** How long the shop may take to answer a sign-in. */
const TIMEOUT_MS = 10_000;

/** WordPress's answer to a user name and application password, in the site's terms. */
export type AccountCheck =
  | { kind: 'account'; id: number; name: string; email: string | null; roles: string[] }
  /** Unknown user name or address, or a password that is none of its application passwords. */
  | { kind: 'wrong' }
  /** Application passwords are switched off for the site or for this account. */
  | { kind: 'passwordsOff' }
  /**
   * WordPress saw no credentials at all: application passwords are unavailable (WordPress
   * offers them over https only) or the web server drops the Authorization header.
   */
  | { kind: 'notReceived' }
  /** No usable answer: down, slow, or not WordPress. */
  | { kind: 'unreachable' };

/** The error codes WordPress answers a wrong user name or application password with. */
const WRONG_CREDENTIALS = new Set([
  'incorrect_password',
  'invalid_username',
  'invalid_email',
  'empty_username',
  'empty_password',
]);

/**
 * The shop's WordPress accounts (rules "The organizer"): `GET /wp-json/wp/v2/users/me` with
 * `context=edit` (the account's roles) and HTTP Basic auth of the user name and an
 * application password. The password goes to WordPress and nowhere else: it is neither
 * kept nor logged, and nothing of the request but its outcome is logged.
 */
@Injectable()
export class WordPressAccounts {
  private readonly logger = new Logger('Organizer');

  constructor(@Inject(AppConfig) private readonly config: AppConfig) {}

  async check(username: string, applicationPassword: string): Promise<AccountCheck> {
    const shop = this.config.woocommerce;
    if (!shop) return { kind: 'unreachable' };
    const credentials = Buffer.from(`${username}:${applicationPassword}`, 'utf8').toString(
      'base64',
    );
    let response: Response;
    let body: unknown;
    try {
      response = await fetch(`${shop.url}/wp-json/wp/v2/users/me?context=edit`, {
        headers: { authorization: `Basic ${credentials}`, accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      body = await response.json().catch(() => null);
    } catch (err) {
      this.logger.warn({ msg: 'WordPress sign-in check failed', reason: errorName(err) });
      return { kind: 'unreachable' };
    }
    const code = isRecord(body) && typeof body.code === 'string' ? body.code : null;
    if (response.status === 200 && isRecord(body) && typeof body.id === 'number') {
      return {
        kind: 'account',
        id: body.id,
        name: typeof body.name === 'string' ? body.name : '',
        // The account's address (context=edit): "an mich testen" sends there.
        email:
          typeof body.email === 'string' && /^[^\s@]{1,64}@[^\s@]{1,190}$/.test(body.email)
            ? body.email
            : null,
        roles: Array.isArray(body.roles)
          ? body.roles.filter((r): r is string => typeof r === 'string')
          : [],
      };
    }
    if (response.status === 401 || response.status === 403) {
      if (code && WRONG_CREDENTIALS.has(code)) return { kind: 'wrong' };
      if (code === 'application_passwords_disabled') return { kind: 'passwordsOff' };
      if (code === 'application_passwords_disabled_for_user') return { kind: 'passwordsOff' };
      if (code === 'rest_not_logged_in') return { kind: 'notReceived' };
    }
    this.logger.warn({
      msg: 'WordPress answered the sign-in check unexpectedly',
      status: response.status,
      code,
    });
    return { kind: 'unreachable' };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorName(err: unknown): string {
  return err instanceof Error ? err.name : 'unknown';
}
