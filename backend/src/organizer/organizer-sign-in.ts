import { Inject, Injectable, Logger } from '@nestjs/common';
import { organizerAccountSignInSchema, organizerCodeSignInSchema } from '@awhh/machines';
import { apiError } from '../common/api-error.js';
import { parseBody } from '../common/validation.js';
import { OrganizerCode } from './organizer-code.js';
import { OrganizerLockout } from './organizer-lockout.js';
import { type AccountCredentials, OrganizerSessions } from './organizer-session.js';
import { ORGANIZER_ROLES, WordPressAccounts } from './wordpress-accounts.js';

export const WRONG_CODE_MESSAGE = 'Der Veranstaltercode stimmt nicht.';
export const WRONG_ACCOUNT_MESSAGE =
  'Benutzername oder Anwendungspasswort stimmt nicht. Nötig ist ein Anwendungspasswort aus WordPress, nicht das Passwort, mit dem du dich dort anmeldest.';
export const NO_PERMISSION_MESSAGE =
  'Dieses Konto hat keine Berechtigung für den Veranstalterbereich (nötig: Shop-Manager oder Administrator).';
export const PASSWORDS_OFF_MESSAGE =
  'Anwendungspasswörter sind in diesem WordPress für dieses Konto abgeschaltet. Bitte wende dich an die Administration des Shops.';
export const NOT_RECEIVED_MESSAGE =
  'WordPress hat die Anmeldung nicht erhalten: Anwendungspasswörter gibt es dort nur über HTTPS, oder der Webserver reicht die Anmeldung nicht weiter.';
export const SHOP_UNREACHABLE_MESSAGE =
  'Der Shop antwortet gerade nicht, deshalb können wir die Anmeldung nicht prüfen. Bitte versuche es gleich noch einmal.';
export const LOCKED_OUT_MESSAGE =
  'Zu viele fehlgeschlagene Anmeldungen aus diesem Netz. Bitte warte eine Viertelstunde und versuche es dann erneut.';

/**
 * Sign-in to /veranstalter (rules "The organizer"). With WooCommerce the shop's WordPress
 * decides: a user name with one of its application passwords, from an account whose role is
 * shop manager or administrator. Without it (the demo shop) the organizer code.
 *
 * Wrong sign-ins count against the address as wrong door codes do (`OrganizerLockout`). As
 * at the door, a locked-out address's sign-ins are not evaluated at all: the right code gets
 * the same 429, and an account is not even asked of WordPress, so this page can never be
 * used to try codes, or passwords against the shop, past the limit. A right password from an account without the role, a
 * WordPress that refuses application passwords, or a shop that does not answer are no
 * guesses and are not counted. Unknown user names and wrong passwords get one answer, so
 * nobody learns here which accounts exist.
 */
@Injectable()
export class OrganizerSignIn {
  private readonly logger = new Logger('Organizer');

  constructor(
    @Inject(OrganizerSessions) private readonly sessions: OrganizerSessions,
    @Inject(OrganizerCode) private readonly code: OrganizerCode,
    @Inject(OrganizerLockout) private readonly lockout: OrganizerLockout,
    @Inject(WordPressAccounts) private readonly accounts: WordPressAccounts,
  ) {}

  /** The session for the right credentials; a German ApiError otherwise. */
  async signIn(body: unknown, address: string): Promise<{ token: string; maxAgeSeconds: number }> {
    // A locked-out address's sign-ins are not evaluated: the right code or password gets
    // the same 429 as a wrong one, and WordPress is not asked.
    const locked = this.lockout.lockedFor(address, Date.now());
    if (this.sessions.method === 'code') {
      const { code } = parseBody(organizerCodeSignInSchema, body);
      if (locked > 0) throw lockedOut(locked);
      if (await this.code.matches(code)) return this.granted('code', null);
      this.refuse(address, WRONG_CODE_MESSAGE);
    }
    const { username, applicationPassword } = parseBody(organizerAccountSignInSchema, body);
    if (locked > 0) throw lockedOut(locked);
    const account = await this.accounts.check(username, applicationPassword);
    switch (account.kind) {
      case 'account':
        if (!account.roles.some((role) => (ORGANIZER_ROLES as readonly string[]).includes(role))) {
          this.logger.log({ msg: 'organizer sign-in refused', outcome: 'role' });
          throw apiError(401, NO_PERMISSION_MESSAGE);
        }
        return this.granted('wordpress', account.name || null, account.email, {
          username,
          applicationPassword,
        });
      case 'wrong':
        return this.refuse(address, WRONG_ACCOUNT_MESSAGE);
      case 'passwordsOff':
        throw apiError(401, PASSWORDS_OFF_MESSAGE);
      case 'notReceived':
        throw apiError(502, NOT_RECEIVED_MESSAGE);
      case 'unreachable':
        throw apiError(503, SHOP_UNREACHABLE_MESSAGE);
    }
  }

  private async granted(
    method: string,
    name: string | null,
    email: string | null = null,
    credentials: AccountCredentials | null = null,
  ) {
    this.logger.log({ msg: 'organizer signed in', method });
    return this.sessions.issue(name, email, credentials);
  }

  /** Counts the wrong sign-in; 429 once the address is locked out, else 401. */
  private refuse(address: string, message: string): never {
    const now = Date.now();
    const locked = this.lockout.wrong(address, now);
    this.logger.log({ msg: 'organizer sign-in refused', outcome: locked ? 'locked' : 'wrong' });
    if (locked > 0) throw lockedOut(locked);
    throw apiError(401, message);
  }
}

function lockedOut(ms: number) {
  return apiError(429, LOCKED_OUT_MESSAGE, { retryAfterSeconds: Math.ceil(ms / 1000) });
}
