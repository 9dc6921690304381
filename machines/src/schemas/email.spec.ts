import { emailSchema } from './wire.schemas.js';
import { EMAIL_MAX_LENGTH, INVALID_EMAIL_MESSAGE, isEmailAddress } from './email.js';

describe('e-mail addresses (one rule for the forms and the server)', () => {
  it('accepts an address, trimmed, up to the length limit', () => {
    expect(isEmailAddress('jana@example.org')).toBe(true);
    expect(isEmailAddress('  jana@example.org ')).toBe(true);
    const longest = `${'a'.repeat(EMAIL_MAX_LENGTH - '@example.org'.length)}@example.org`;
    expect(isEmailAddress(longest)).toBe(true);
    expect(isEmailAddress(`a${longest}`)).toBe(false);
  });

  it.each(['', 'jana', 'jana@', 'jana@example', '@example.org', 'ja na@example.org'])(
    'refuses %j, as the server schema does, with the same message',
    (value) => {
      expect(isEmailAddress(value)).toBe(false);
      const result = emailSchema.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(INVALID_EMAIL_MESSAGE);
    },
  );

  it('accepts, like the server schema, ordinary addresses with dots and plus signs', () => {
    for (const value of ['jana@example.org', 'j.peters+afterwork@mail.example.de']) {
      expect(emailSchema.safeParse(value).success).toBe(true);
      expect(isEmailAddress(value)).toBe(true);
    }
  });
});
