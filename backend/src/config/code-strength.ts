/**
 * rules "Tickets and the door", "The organizer": a configured door or organizer code must
 * make guessing hopeless on its own, as the lockout only slows one address down. Codes are
 * compared without spaces and dashes and in any case, so they are judged that way too.
 */

/** Shortest code accepted (as the door compares it: no spaces or dashes, any case). */
export const MIN_CODE_LENGTH = 16;

/** Different characters a code needs: "AAAAAAAAAAAAAAA1" is long and still one guess. */
const MIN_DISTINCT = 10;

/**
 * Words a person reaches for when making up a code for this site (German and English), and
 * the usual passwords. A code containing one is refused: guessers try them first.
 */
const COMMON_WORDS = [
  'ADMIN',
  'AFTERWORK',
  'AWHH',
  'CHECKIN',
  'CODE',
  'DOOR',
  'EINLASS',
  'ELBE',
  'EVENT',
  'FEST',
  'GEHEIM',
  'HAFEN',
  'HAMBURG',
  'LETMEIN',
  'ORGA',
  'PARTY',
  'PASSWORD',
  'PASSWORT',
  'SECRET',
  'SOMMER',
  'STAGING',
  'TEST',
  'TICKET',
  'TUER',
  'VERANSTALTER',
  'WELCOME',
  'WILLKOMMEN',
  'WINTER',
];

/** Rows people slide along: the alphabet, the digits and the keyboards' letter rows. */
const SEQUENCES = [
  'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  '01234567890',
  'QWERTYUIOP',
  'QWERTZUIOP',
  'ASDFGHJKL',
  'YXCVBNM',
  'ZXCVBNM',
];

/** Four characters in a row of one of the sequences, forwards or backwards. */
function hasSequence(code: string): boolean {
  for (let i = 0; i + 4 <= code.length; i += 1) {
    const part = code.slice(i, i + 4);
    const reversed = [...part].reverse().join('');
    if (SEQUENCES.some((row) => row.includes(part) || row.includes(reversed))) return true;
  }
  return false;
}

/**
 * Why a code is too weak (English, then German, for the start-up's line), or null when it
 * is strong: at least 16 characters besides spaces and dashes, letters and digits among
 * them, 10 different ones, no common word, no character three times in a row, no run of
 * four along the alphabet, the digits or a keyboard row. A generated code passes
 * (`npm run door-code -- --new`). The code itself never appears in the reason.
 */
export function codeWeakness(raw: string): string | null {
  const code = raw.replace(/[\s-]+/g, '').toUpperCase();
  const problems: string[] = [];
  if (code.length < MIN_CODE_LENGTH) problems.push(`fewer than ${MIN_CODE_LENGTH} characters`);
  if (!/\p{L}/u.test(code) || !/\p{N}/u.test(code)) problems.push('not letters and digits');
  if (new Set(code).size < MIN_DISTINCT) problems.push('too few different characters');
  if (COMMON_WORDS.some((word) => code.includes(word))) problems.push('a common word');
  if (/(.)\1\1/u.test(code)) problems.push('a repeated character');
  if (hasSequence(code)) problems.push('a sequence');
  if (problems.length === 0) return null;
  return (
    `is too weak (${problems.join(', ')}): it needs at least ${MIN_CODE_LENGTH} characters ` +
    `besides spaces and dashes, letters and digits, no words, repeats or sequences. ` +
    `Der Code ist zu schwach: mindestens ${MIN_CODE_LENGTH} Zeichen aus Buchstaben und ` +
    `Ziffern, ohne Wörter, Wiederholungen oder Folgen.`
  );
}
