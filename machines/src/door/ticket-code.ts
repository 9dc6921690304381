import { sha256Hex } from './digest.js';

// rules "Tickets and the door": the short ticket code, for when the QR code will not scan.
// Printed under the QR code as `K7QM-3XPA`, read out and typed at the door. Random and
// stored with the ticket (backend/src/tickets/ticket.repository.ts), unique per event;
// nothing in it comes from the signing key or the ticket's id.

/**
 * Crockford's base32: digits and upper-case letters without I, L, O and U, so nothing
 * printed can be mistaken for something else (0/O, 1/I/L) when read out or typed.
 */
export const TICKET_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 8 characters, 40 random bits: 5 random bytes exactly. */
export const TICKET_CODE_LENGTH = 8;
export const TICKET_CODE_BYTES = 5;
/** Printed in groups of 4: `K7QM-3XPA`. */
const GROUP = 4;

/** The code of 5 random bytes, 5 bits per character (the bytes' bits in order). */
export function ticketCodeFromBytes(bytes: Uint8Array): string {
  if (bytes.length !== TICKET_CODE_BYTES) {
    throw new Error(`a ticket code takes ${TICKET_CODE_BYTES} bytes`);
  }
  let code = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      code += TICKET_CODE_ALPHABET[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  return code;
}

/** Crockford's reading of what looks alike: O is 0, I and L are 1. */
const ALIKE: Record<string, string> = { O: '0', I: '1', L: '1' };

/**
 * The stored form of a typed code (`K7QM3XPA`), or null when it cannot be one: case,
 * spaces, dashes and dots do not count, O reads as 0 and I or L as 1. Anything else
 * outside the alphabet (a U, an umlaut) or another length is no code.
 */
export function normalizeTicketCode(input: string): string | null {
  if (input.length > 64) return null;
  const compact = input.toUpperCase().replace(/[\s.\u2010-\u2015-]+/g, '');
  if (compact.length !== TICKET_CODE_LENGTH) return null;
  let code = '';
  for (const char of compact) {
    const read = ALIKE[char] ?? char;
    if (!TICKET_CODE_ALPHABET.includes(read)) return null;
    code += read;
  }
  return code;
}

/** `K7QM3XPA` → `K7QM-3XPA`, as printed and shown. */
export function formatTicketCode(code: string): string {
  const groups: string[] = [];
  for (let i = 0; i < code.length; i += GROUP) groups.push(code.slice(i, i + GROUP));
  return groups.join('-');
}

/** Hex digits of the keys below: 32 bits, enough to tell a few thousand values apart. */
const KEY_HEX = 8;
/** 48 bits for e-mail addresses: a wrong address matches nobody in a list of thousands. */
const EMAIL_KEY_HEX = 12;

/**
 * The key under which another event's code travels in the door's list (`elsewhere`): the
 * door can say "Anderes Event" for a typed code without holding that event's codes.
 */
export function ticketCodeKey(code: string): string {
  return sha256Hex(`awhh-ticket-code:${code}`).slice(0, KEY_HEX);
}

/**
 * The key of a buyer's e-mail address in the door's list, per event: the door finds a
 * guest by the typed address without the list carrying addresses. Case and surrounding
 * spaces do not count.
 */
export function guestEmailKey(eventId: number, email: string): string {
  return sha256Hex(`awhh-guest-email:${eventId}:${email.trim().toLowerCase()}`).slice(
    0,
    EMAIL_KEY_HEX,
  );
}
