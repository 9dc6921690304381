import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { sha256Hex, utf8Bytes } from './digest.js';
import {
  formatTicketCode,
  guestEmailKey,
  normalizeTicketCode,
  TICKET_CODE_ALPHABET,
  TICKET_CODE_BYTES,
  ticketCodeFromBytes,
  ticketCodeKey,
} from './ticket-code.js';

describe('the short ticket code (rules "Tickets and the door")', () => {
  it('uses Crockford base32: 32 signs, no I, L, O or U', () => {
    expect(TICKET_CODE_ALPHABET).toHaveLength(32);
    expect(new Set(TICKET_CODE_ALPHABET).size).toBe(32);
    for (const confusable of ['I', 'L', 'O', 'U']) {
      expect(TICKET_CODE_ALPHABET).not.toContain(confusable);
    }
  });

  it('turns 5 random bytes into 8 signs, every bit used', () => {
    expect(ticketCodeFromBytes(Uint8Array.from([0, 0, 0, 0, 0]))).toBe('00000000');
    expect(ticketCodeFromBytes(Uint8Array.from([255, 255, 255, 255, 255]))).toBe('ZZZZZZZZ');
    // 0x08 0x42 0x10 0x84 0x21: 00001 00001 00001 00001 00001 00001 00001 00001.
    expect(ticketCodeFromBytes(Uint8Array.from([0x08, 0x42, 0x10, 0x84, 0x21]))).toBe('11111111');
    expect(() => ticketCodeFromBytes(Uint8Array.from([1, 2, 3]))).toThrow();
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 5, maxLength: 5 }), (bytes) => {
        const code = ticketCodeFromBytes(bytes);
        expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
        // The 40 bits come back from the signs: nothing is lost, so no two byte strings share a code.
        let value = 0n;
        for (const sign of code) value = value * 32n + BigInt(TICKET_CODE_ALPHABET.indexOf(sign));
        expect(value).toBe(BigInt(`0x${Buffer.from(bytes).toString('hex')}`));
      }),
    );
  });

  it('is printed upper-case in two groups: K7QM-3XPA', () => {
    expect(formatTicketCode('K7QM3XPA')).toBe('K7QM-3XPA');
  });

  it('takes what the staff type: any case, spaces, dashes; O as 0, I and L as 1', () => {
    expect(normalizeTicketCode('K7QM-3XPA')).toBe('K7QM3XPA');
    expect(normalizeTicketCode('k7qm 3xpa')).toBe('K7QM3XPA');
    expect(normalizeTicketCode('  k7 qm-3x pa\n')).toBe('K7QM3XPA');
    expect(normalizeTicketCode('K7QM–3XPA')).toBe('K7QM3XPA');
    expect(normalizeTicketCode('1O0I-L1OA')).toBe('1001110A');
    expect(normalizeTicketCode('olio-olio')).toBe('01100110');
  });

  it('refuses what cannot be a code: wrong length, U, umlauts, other signs', () => {
    for (const bad of [
      '',
      'K7QM-3XP',
      'K7QM-3XPAA',
      'K7QM-3XPU',
      'K7QM-3XPÄ',
      'K7QM_3XPA',
      'tGcg-GvzQrUon',
      'x'.repeat(100),
    ]) {
      expect(normalizeTicketCode(bad)).toBeNull();
    }
  });

  it('a printed code, however it is typed back, is the stored code', () => {
    const variants = (code: string) => {
      const printed = formatTicketCode(code);
      return [
        printed,
        printed.toLowerCase(),
        printed.replace('-', ' '),
        printed.replace(/0/g, 'O').replace(/1/g, 'l'),
        printed.split('').join(' '),
      ];
    };
    for (let i = 0; i < 200; i += 1) {
      const code = ticketCodeFromBytes(randomBytes(TICKET_CODE_BYTES));
      for (const typed of variants(code)) expect(normalizeTicketCode(typed)).toBe(code);
    }
  });
});

describe('the door list keys', () => {
  it('SHA-256 matches node:crypto for ASCII, umlauts, emoji and long input', () => {
    for (const text of ['', 'abc', 'Müller', 'größe@example.org', '🎫 Einlass', 'x'.repeat(1000)]) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
      expect(Buffer.from(utf8Bytes(text)).equals(Buffer.from(text, 'utf8'))).toBe(true);
    }
    fc.assert(
      // Any UTF-16 text, lone surrogates included (both encode them as U+FFFD).
      fc.property(fc.string({ unit: 'binary', maxLength: 150 }), (text) => {
        expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
      }),
    );
  });

  it('an e-mail key ignores case and spaces and differs per event', () => {
    const key = guestEmailKey(42, 'Karla@Example.org ');
    expect(key).toMatch(/^[0-9a-f]{12}$/);
    expect(guestEmailKey(42, 'karla@example.org')).toBe(key);
    expect(guestEmailKey(43, 'karla@example.org')).not.toBe(key);
    expect(guestEmailKey(42, 'karl@example.org')).not.toBe(key);
  });

  it('a code key names the code without spelling it', () => {
    const key = ticketCodeKey('K7QM3XPA');
    expect(key).toMatch(/^[0-9a-f]{8}$/);
    expect(key).not.toContain('k7qm');
    expect(ticketCodeKey('K7QM3XPB')).not.toBe(key);
  });
});
