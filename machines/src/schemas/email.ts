// One rule for an e-mail address, wherever a visitor types one (contact form, waiting list,
// ticket resend): the zod schemas check it on the server, and the forms check the same
// before sending without loading zod into their chunks.

export const INVALID_EMAIL_MESSAGE = 'Bitte gib eine gültige E-Mail-Adresse ein.';

/** The longest address SMTP carries (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** something@domain.tld without spaces, after trimming, within the length limit. */
export function isEmailAddress(value: string): boolean {
  const address = value.trim();
  return address.length <= EMAIL_MAX_LENGTH && EMAIL_SHAPE.test(address);
}
