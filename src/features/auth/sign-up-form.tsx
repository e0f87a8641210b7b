import { useNavigate } from '@tanstack/react-router';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { normalizeUsername, SignUpInput } from '../../../common/auth-schemas';
import { AUTH_TEXTS, VALIDATION } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { joinMessages, notify } from '../../lib/toast';
import { errorCode, isServerError, serverValidation, trpc } from '../../lib/trpc';
import { firstErrorPerField, focusFirstInvalid, fromServerFieldErrors, type FieldErrors } from '../../lib/form-errors';

type TextField = 'email' | 'password' | 'username' | 'firstName' | 'surname' | 'dateOfBirth';
type Field = TextField | 'acceptTerms';

const EMPTY: Record<TextField, string> = {
  email: '',
  password: '',
  username: '',
  firstName: '',
  surname: '',
  dateOfBirth: '',
};

/** Today as YYYY-MM-DD in the user's own calendar: the latest date of birth the picker offers. */
function todayIso(): string {
  const now = new Date();
  const local = new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 10);
}

const ACCOUNT_EXISTS = /already registered|already exists/i;

export function SignUpForm() {
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(EMPTY);
  const [acceptTerms, setAcceptTerms] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});

  const signUp = trpc.auth.signUp.useMutation({
    onSuccess: async () => {
      notify.success(AUTH_TEXTS.signUpSucceeded);
      setValues(EMPTY);
      setAcceptTerms(false);
      await navigate({ to: '/' });
    },
    onError: (error) => {
      const validation = serverValidation(error);
      if (validation) setErrors(fromServerFieldErrors(validation.fieldErrors));

      if (isServerError(error) && ACCOUNT_EXISTS.test(error.message)) {
        notify.error(AUTH_TEXTS.accountExists);
        return;
      }
      if (validation && errorCode(error) === 'BAD_REQUEST') {
        notify.error({ title: validation.title, description: joinMessages(validation.messages) });
        requestAnimationFrame(() => focusFirstInvalid(formRef.current));
        return;
      }
      if (isServerError(error) && errorCode(error) !== 'INTERNAL_SERVER_ERROR' && error.message) {
        notify.error({ title: AUTH_TEXTS.signUpErrorTitle, description: error.message });
        if (validation) requestAnimationFrame(() => focusFirstInvalid(formRef.current));
        return;
      }
      notify.error(AUTH_TEXTS.unexpected);
    },
  });

  const clearError = (field: Field) => {
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const set = (field: TextField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    clearError(field);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = SignUpInput.safeParse({ ...values, acceptTerms });
    if (!parsed.success) {
      const { fields, messages } = firstErrorPerField(parsed.error);
      setErrors(fields);
      notify.error({ title: VALIDATION.validationErrorTitle, description: joinMessages(messages) });
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setErrors({});
    signUp.mutate(parsed.data);
  };

  const text = (field: TextField) => ({
    name: field,
    value: values[field],
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(field, e.target.value),
  });

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Sign up">
      <FormField label="Email" error={errors.email}>
        {(field) => (
          <Input {...field} {...text('email')} type="email" autoComplete="email" inputMode="email" placeholder="you@example.com" />
        )}
      </FormField>
      <FormField label="Password" error={errors.password} hint="At least 6 characters">
        {(field) => <Input {...field} {...text('password')} type="password" autoComplete="new-password" />}
      </FormField>
      <FormField label="Username" error={errors.username} hint="Lower-case, no spaces. Your profile lives at /username.">
        {(field) => (
          <Input
            {...field}
            {...text('username')}
            // The spec: whitespace removed and lower-cased as typed.
            onChange={(e) => set('username', normalizeUsername(e.target.value))}
            autoComplete="username"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            placeholder="yourname"
          />
        )}
      </FormField>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <FormField label="First name" error={errors.firstName}>
          {(field) => <Input {...field} {...text('firstName')} autoComplete="given-name" />}
        </FormField>
        <FormField label="Surname" error={errors.surname}>
          {(field) => <Input {...field} {...text('surname')} autoComplete="family-name" />}
        </FormField>
      </div>
      <FormField label="Date of birth" error={errors.dateOfBirth} hint="You must be 18 or older.">
        {(field) => <Input {...field} {...text('dateOfBirth')} type="date" max={todayIso()} autoComplete="bday" />}
      </FormField>
      <div className="flex flex-col gap-1.5">
        <div className="flex items-start gap-3">
          <Checkbox
            id="sign-up-accept-terms"
            name="acceptTerms"
            checked={acceptTerms}
            onChange={(e) => {
              setAcceptTerms(e.target.checked);
              clearError('acceptTerms');
            }}
            aria-invalid={errors.acceptTerms ? true : undefined}
            aria-describedby={errors.acceptTerms ? 'sign-up-accept-terms-error' : undefined}
            className="mt-0.5"
          />
          <label htmlFor="sign-up-accept-terms" className="text-sm leading-6 text-muted">
            I accept the{' '}
            <a
              href="/terms"
              target="_blank"
              rel="noopener noreferrer"
              className="font-medium text-violet-300 underline-offset-2 hover:text-violet-200 hover:underline"
            >
              Terms and Conditions
            </a>
          </label>
        </div>
        {errors.acceptTerms ? (
          <p id="sign-up-accept-terms-error" className="text-xs font-medium text-danger">
            {errors.acceptTerms}
          </p>
        ) : null}
      </div>
      <Button type="submit" size="lg" loading={signUp.isPending} className="mt-1 w-full">
        Sign Up
      </Button>
    </form>
  );
}
