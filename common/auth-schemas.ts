import { z } from 'zod';
import { isRealInstant } from './cursor-schema';
import { LIMITS } from './limits';
import { isReservedUsername } from './reserved-usernames';
import { safeString, safeText } from './text-schema';
import { VALIDATION } from './texts';

/** Whole years between an ISO date of birth (YYYY-MM-DD) and `today` (UTC calendar dates). */
export function ageOn(dateOfBirth: string, today: Date): number {
  const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  const monthDiff = today.getUTCMonth() + 1 - m;
  if (monthDiff < 0 || (monthDiff === 0 && today.getUTCDate() < d)) age -= 1;
  return age;
}

/** A calendar date that exists, in a year PostgreSQL stores (0000-01-01 would fail the insert with a 500). */
const isRealDate = (iso: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(iso) && isRealInstant(`${iso}T00:00:00Z`);

export { isReservedUsername, RESERVED_USERNAMES } from './reserved-usernames';

/** The spec: "Username has all whitespace removed and is lower-cased as typed". */
export const normalizeUsername = (value: string) => value.replace(/\s+/g, '').toLowerCase();
export const normalizeEmail = (value: string) => value.trim().toLowerCase();

export const emailSchema = z
  .string()
  .transform(normalizeEmail)
  .pipe(z.string().check(safeText('single-line')).max(LIMITS.emailMaxLength, VALIDATION.invalidEmail).email(VALIDATION.invalidEmail));

export const passwordSchema = safeString('single-line')
  .min(LIMITS.minPasswordLength, VALIDATION.passwordTooShort)
  .max(LIMITS.maxPasswordLength, VALIDATION.passwordTooLong);

export const usernameSchema = z
  .string()
  .transform(normalizeUsername)
  .pipe(
    z
      .string()
      .check(safeText('single-line'))
      .min(1, VALIDATION.usernameRequired)
      .max(LIMITS.usernameMaxLength, VALIDATION.usernameTooLong)
      .regex(/^[a-z0-9._-]+$/, VALIDATION.usernameInvalid)
      .refine((name) => !isReservedUsername(name), VALIDATION.usernameReserved),
  );

export const nameSchema = (required: string) =>
  z.string().trim().check(safeText('single-line')).min(1, required).max(LIMITS.nameMaxLength, VALIDATION.nameTooLong);

export const SignInInput = z.object({
  email: emailSchema,
  password: passwordSchema,
});
export type SignInInput = z.output<typeof SignInInput>;

/**
 * One schema for the sign-up form and the `auth.signUp` procedure. `today` is injectable so the
 * age rule can be tested on fixed dates; production code uses the default.
 */
export function makeSignUpInput(today: () => Date = () => new Date()) {
  return z
    .object({
      email: z
        .string()
        .transform(normalizeEmail)
        .pipe(
          z
            .string()
            .check(safeText('single-line'))
            .min(1, VALIDATION.emailRequired)
            .max(LIMITS.emailMaxLength, VALIDATION.invalidEmail)
            .email(VALIDATION.invalidEmail),
        ),
      password: passwordSchema,
      username: usernameSchema,
      firstName: nameSchema(VALIDATION.firstNameRequired),
      surname: nameSchema(VALIDATION.surnameRequired),
      dateOfBirth: z
        .string()
        .trim()
        .check(safeText('single-line'))
        .min(1, VALIDATION.dateOfBirthRequired)
        .refine(isRealDate, VALIDATION.dateOfBirthRequired)
        .refine((dob) => !isRealDate(dob) || dob <= today().toISOString().slice(0, 10), VALIDATION.dateOfBirthInFuture)
        .refine(
          (dob) => !isRealDate(dob) || dob > today().toISOString().slice(0, 10) || ageOn(dob, today()) >= LIMITS.minimumAge,
          VALIDATION.underAge,
        ),
      acceptTerms: z.boolean().refine((v) => v, VALIDATION.termsRequired),
    });
}
export const SignUpInput = makeSignUpInput();
export type SignUpInput = z.output<typeof SignUpInput>;

export const RequestPasswordResetInput = z.object({ email: emailSchema });
export type RequestPasswordResetInput = z.output<typeof RequestPasswordResetInput>;

export const ResetPasswordInput = z.object({
  token: safeString('single-line').min(16).max(128),
  password: passwordSchema,
});
export type ResetPasswordInput = z.output<typeof ResetPasswordInput>;

export const ConfirmEmailInput = z.object({ token: safeString('single-line').min(16).max(128) });
export type ConfirmEmailInput = z.output<typeof ConfirmEmailInput>;

export const SignOutInput = z.object({ scope: z.enum(['local', 'others', 'global']).default('local') });
export type SignOutInput = z.output<typeof SignOutInput>;

/** Every message of a failed parse, in field order, for the 'Validation Error' toast. */
export function validationMessages(error: z.ZodError): string[] {
  return [...new Set(error.issues.map((issue) => issue.message))];
}
