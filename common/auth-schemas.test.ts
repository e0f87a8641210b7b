import { describe, expect, it } from 'vitest';
import { ageOn, makeSignUpInput, normalizeUsername, SignInInput, validationMessages } from './auth-schemas';
import { VALIDATION } from './texts';

const today = new Date('2026-11-20T12:00:00Z');
const SignUp = makeSignUpInput(() => today);
const valid = {
  email: '  Ava@Example.COM ',
  password: 'secret1',
  username: ' Ava Star ',
  firstName: 'Ava',
  surname: 'Stone',
  dateOfBirth: '1990-05-01',
  acceptTerms: true,
};

function messagesOf(input: unknown) {
  const result = SignUp.safeParse(input);
  return result.success ? [] : validationMessages(result.error);
}

describe('sign-up schema', () => {
  it('normalises e-mail and username as the spec says', () => {
    const parsed = SignUp.parse(valid);
    expect(parsed.email).toBe('ava@example.com');
    expect(parsed.username).toBe('avastar');
  });

  it('lists every required-field message of the spec for an empty form', () => {
    const messages = messagesOf({ email: '', password: '', username: '', firstName: '', surname: '', dateOfBirth: '', acceptTerms: false });
    expect(messages).toEqual(
      expect.arrayContaining([
        VALIDATION.emailRequired,
        VALIDATION.usernameRequired,
        VALIDATION.firstNameRequired,
        VALIDATION.surnameRequired,
        VALIDATION.dateOfBirthRequired,
        VALIDATION.passwordTooShort,
        VALIDATION.termsRequired,
      ]),
    );
  });

  it('rejects anyone under 18, to the day', () => {
    expect(messagesOf({ ...valid, dateOfBirth: '2008-11-21' })).toEqual([VALIDATION.underAge]);
    expect(messagesOf({ ...valid, dateOfBirth: '2008-11-20' })).toEqual([]);
  });

  it('rejects a birth date after today', () => {
    expect(messagesOf({ ...valid, dateOfBirth: '2026-11-21' })).toEqual([VALIDATION.dateOfBirthInFuture]);
  });

  it('rejects impossible dates and short passwords', () => {
    expect(messagesOf({ ...valid, dateOfBirth: '1990-02-30' })).toEqual([VALIDATION.dateOfBirthRequired]);
    expect(messagesOf({ ...valid, password: '12345' })).toEqual([VALIDATION.passwordTooShort]);
  });

  it('keeps the names of app routes free', () => {
    expect(messagesOf({ ...valid, username: 'Explore' })).toEqual([VALIDATION.usernameReserved]);
    expect(messagesOf({ ...valid, username: 'settings' })).toEqual([VALIDATION.usernameReserved]);
  });

  it('rejects usernames with characters outside the allowed set', () => {
    expect(messagesOf({ ...valid, username: 'ava<script>' })).toEqual([VALIDATION.usernameInvalid]);
  });
});

describe('sign-in schema', () => {
  it('trims the e-mail and checks both rules', () => {
    expect(SignInInput.parse({ email: ' a@b.co ', password: '123456' }).email).toBe('a@b.co');
    const result = SignInInput.safeParse({ email: 'nope', password: '123' });
    expect(result.success ? [] : validationMessages(result.error)).toEqual([VALIDATION.invalidEmail, VALIDATION.passwordTooShort]);
  });
});

describe('helpers', () => {
  it('computes whole years of age', () => {
    expect(ageOn('2000-02-29', new Date('2018-02-28T00:00:00Z'))).toBe(17);
    expect(ageOn('2000-02-29', new Date('2018-03-01T00:00:00Z'))).toBe(18);
  });
  it('removes all whitespace from usernames', () => {
    expect(normalizeUsername('\tA b\nC ')).toBe('abc');
  });
});
