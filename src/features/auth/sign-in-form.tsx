import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { SignInInput } from '../../../common/auth-schemas';
import { AUTH_TEXTS } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { notify } from '../../lib/toast';
import { isClientError, trpc } from '../../lib/trpc';
import { useZodForm } from '../../lib/use-zod-form';
import { TwoFactorStep } from './two-factor-step';
import { useCompleteSignIn } from './use-complete-sign-in';

export function SignInForm() {
  const form = useZodForm(SignInInput, { defaultValues: { email: '', password: '' } });
  const completeSignIn = useCompleteSignIn();
  // an account with two-factor on answers the password with a request for its code
  const [codeStep, setCodeStep] = useState(false);
  const signIn = trpc.auth.signIn.useMutation({
    onSuccess: (result) => ('twoFactorRequired' in result ? setCodeStep(true) : completeSignIn(result)),
    onError: (error) => {
      // The server's own words for 4xx answers (wrong credentials, unconfirmed e-mail, rate limit).
      notify.error({
        title: AUTH_TEXTS.signInFailed.title,
        description: (isClientError(error) && error.message) || AUTH_TEXTS.signInFailed.description,
      });
    },
  });

  if (codeStep) {
    return (
      <TwoFactorStep
        onCancel={() => {
          setCodeStep(false);
          form.setValue('password', '');
        }}
      />
    );
  }

  return (
    <form noValidate onSubmit={form.submit((values) => signIn.mutate(values))} className="flex flex-col gap-5" aria-label="Sign in">
      <FormField label="Email" error={form.error('email')}>
        {(field) => (
          <Input
            {...field}
            {...form.field('email')}
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
          />
        )}
      </FormField>
      <FormField
        label="Password"
        error={form.error('password')}
        aside={
          <Link
            to="/auth/forgot-password"
            className="text-xs font-medium text-violet-300 hover:text-violet-200 hover:underline"
          >
            Forgot password?
          </Link>
        }
      >
        {(field) => (
          <Input
            {...field}
            {...form.field('password')}
            type="password"
            autoComplete="current-password"
          />
        )}
      </FormField>
      <Button type="submit" size="lg" loading={signIn.isPending} className="mt-1 w-full">
        Sign In
      </Button>
    </form>
  );
}
