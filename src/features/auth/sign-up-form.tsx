import { useNavigate } from '@tanstack/react-router';
import { normalizeUsername, SignUpInput } from '../../../common/auth-schemas';
import { AUTH_TEXTS } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { notify } from '../../lib/toast';
import { errorCode, isServerError, trpc } from '../../lib/trpc';
import { useZodForm, validationErrorToast } from '../../lib/use-zod-form';

const EMPTY = {
  email: '',
  password: '',
  username: '',
  firstName: '',
  surname: '',
  dateOfBirth: '',
  acceptTerms: false,
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
  const form = useZodForm(SignUpInput, { defaultValues: EMPTY });

  const signUp = trpc.auth.signUp.useMutation({
    onSuccess: async () => {
      notify.success(AUTH_TEXTS.signUpSucceeded);
      form.reset();
      await navigate({ to: '/' });
    },
    onError: (error) => {
      const validation = form.showServerErrors(error);
      if (isServerError(error) && ACCOUNT_EXISTS.test(error.message)) {
        notify.error(AUTH_TEXTS.accountExists);
      } else if (validation && errorCode(error) === 'BAD_REQUEST') {
        notify.error(validationErrorToast(validation.messages));
      } else if (isServerError(error) && errorCode(error) !== 'INTERNAL_SERVER_ERROR' && error.message) {
        notify.error({ title: AUTH_TEXTS.signUpErrorTitle, description: error.message });
      } else {
        notify.error(AUTH_TEXTS.unexpected);
      }
    },
  });

  const username = form.field('username');
  const acceptTermsError = form.error('acceptTerms');

  return (
    <form noValidate onSubmit={form.submit((values) => signUp.mutate(values))} className="flex flex-col gap-4" aria-label="Sign up">
      <FormField label="Email" error={form.error('email')}>
        {(field) => (
          <Input {...field} {...form.field('email')} type="email" autoComplete="email" inputMode="email" placeholder="you@example.com" />
        )}
      </FormField>
      <FormField label="Password" error={form.error('password')} hint="At least 6 characters">
        {(field) => <Input {...field} {...form.field('password')} type="password" autoComplete="new-password" />}
      </FormField>
      <FormField label="Username" error={form.error('username')} hint="Lower-case, no spaces. Your profile lives at /username.">
        {(field) => (
          <Input
            {...field}
            {...username}
            // The spec: whitespace removed and lower-cased as typed.
            onChange={(e) => {
              e.target.value = normalizeUsername(e.target.value);
              return username.onChange(e);
            }}
            autoComplete="username"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            placeholder="yourname"
          />
        )}
      </FormField>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <FormField label="First name" error={form.error('firstName')}>
          {(field) => <Input {...field} {...form.field('firstName')} autoComplete="given-name" />}
        </FormField>
        <FormField label="Surname" error={form.error('surname')}>
          {(field) => <Input {...field} {...form.field('surname')} autoComplete="family-name" />}
        </FormField>
      </div>
      <FormField label="Date of birth" error={form.error('dateOfBirth')} hint="You must be 18 or older.">
        {(field) => <Input {...field} {...form.field('dateOfBirth')} type="date" max={todayIso()} autoComplete="bday" />}
      </FormField>
      <div className="flex flex-col gap-1.5">
        <div className="flex items-start gap-3">
          <Checkbox
            id="sign-up-accept-terms"
            {...form.field('acceptTerms')}
            aria-invalid={acceptTermsError ? true : undefined}
            aria-describedby={acceptTermsError ? 'sign-up-accept-terms-error' : undefined}
            className="mt-0.5"
          />
          <label htmlFor="sign-up-accept-terms" className="text-sm leading-6 text-muted">
            I accept the{' '}
            <a
              href="/terms"
              target="_blank"
              rel="noopener noreferrer"
              className="font-medium text-violet-300 underline underline-offset-2 hover:text-violet-200"
            >
              Terms and Conditions
            </a>
          </label>
        </div>
        {acceptTermsError ? (
          <p id="sign-up-accept-terms-error" className="text-xs font-medium text-danger">
            {acceptTermsError}
          </p>
        ) : null}
      </div>
      <Button type="submit" size="lg" loading={signUp.isPending} className="mt-1 w-full">
        Sign Up
      </Button>
    </form>
  );
}
