import { describe, expect, it } from 'vitest';
import { SignUpInput } from '../../common/auth-schemas';
import { VALIDATION } from '../../common/texts';
import { fieldMessages, firstBadField, fromServerFieldErrors, messagesInOrder } from './form-errors';

const SIGN_UP_FIELDS = Object.keys(SignUpInput.shape) as (keyof typeof SignUpInput.shape)[];

describe('fromServerFieldErrors', () => {
  it("keeps the first message of each of the form's fields and drops keys it has no field for", () => {
    expect(
      fromServerFieldErrors(['email', 'password'], {
        password: ['Password must be at least 6 characters', 'second'],
        email: [],
        token: ['Too small'],
      }),
    ).toEqual({ password: 'Password must be at least 6 characters' });
  });

  it('reads the flattened fieldErrors the server sends for a refused sign-up', () => {
    // what server/trpc/init.ts puts in data.validation.fieldErrors
    const refused = SignUpInput.safeParse({ email: '', password: '1', username: 'ok', firstName: 'A', surname: '', dateOfBirth: '1990-01-01', acceptTerms: false });
    expect(refused.success).toBe(false);
    const fieldErrors = refused.error!.flatten().fieldErrors as Record<string, string[] | undefined>;
    expect(fromServerFieldErrors(SIGN_UP_FIELDS, fieldErrors)).toEqual({
      email: VALIDATION.emailRequired,
      password: VALIDATION.passwordTooShort,
      surname: VALIDATION.surnameRequired,
      acceptTerms: VALIDATION.termsRequired,
    });
  });
});

describe('firstBadField', () => {
  it("is the first bad field in the form's order, whatever order the messages came in", () => {
    expect(firstBadField(SIGN_UP_FIELDS, { acceptTerms: 'a', surname: 'b', username: 'c' })).toBe('username');
    expect(firstBadField(SIGN_UP_FIELDS, { dateOfBirth: 'a' })).toBe('dateOfBirth');
  });

  it('is none when no field has a message', () => {
    expect(firstBadField(SIGN_UP_FIELDS, {})).toBeUndefined();
    expect(firstBadField(['title', 'url'], { title: '' })).toBeUndefined();
  });
});

describe('fieldMessages and messagesInOrder', () => {
  it("take react-hook-form's errors to one line per message, in field order, each once", () => {
    const errors = {
      url: { type: 'too_small', message: 'Please fill in both title and URL fields' },
      root: { type: 'server', message: 'not a field' },
      title: { type: 'too_small', message: 'Please fill in both title and URL fields' },
    };
    const messages = fieldMessages(['title', 'url'], errors);
    expect(messages).toEqual({
      title: 'Please fill in both title and URL fields',
      url: 'Please fill in both title and URL fields',
    });
    expect(messagesInOrder(['title', 'url'], messages)).toEqual(['Please fill in both title and URL fields']);
    expect(messagesInOrder(['email', 'password'], { password: 'b', email: 'a' })).toEqual(['a', 'b']);
  });
});
