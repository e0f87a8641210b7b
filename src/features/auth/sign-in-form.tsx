import { Link } from '@tanstack/react-router';
import { useRef, useState, type FormEvent } from 'react';
import { SignInInput } from '../../../common/auth-schemas';
import { AUTH_TEXTS, VALIDATION } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { joinMessages, notify } from '../../lib/toast';
import { isClientError, trpc } from '../../lib/trpc';
import { firstErrorPerField, focusFirstInvalid, type FieldErrors } from '../../lib/form-errors';
import { useCompleteSignIn } from './use-complete-sign-in';

type Field = 'email' | 'password';

export function SignInForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Record<Field, string>>({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const completeSignIn = useCompleteSignIn();
  const signIn = trpc.auth.signIn.useMutation({
    onSuccess: (user) => completeSignIn(user),
    onError: (error) => {
      // The server's own words for 4xx answers (wrong credentials, unconfirmed e-mail, rate limit).
      notify.error({
        title: AUTH_TEXTS.signInFailed.title,
        description: (isClientError(error) && error.message) || AUTH_TEXTS.signInFailed.description,
      });
    },
  });

  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = SignInInput.safeParse(values);
    if (!parsed.success) {
      const { fields, messages } = firstErrorPerField(parsed.error);
      setErrors(fields);
      notify.error({ title: VALIDATION.validationErrorTitle, description: joinMessages(messages) });
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setErrors({});
    signIn.mutate(parsed.data);
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label="Sign in">
      <FormField label="Email" error={errors.email}>
        {(field) => (
          <Input
            {...field}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            value={values.email}
            onChange={(e) => set('email')(e.target.value)}
          />
        )}
      </FormField>
      <FormField
        label="Password"
        error={errors.password}
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
            type="password"
            name="password"
            autoComplete="current-password"
            value={values.password}
            onChange={(e) => set('password')(e.target.value)}
          />
        )}
      </FormField>
      <Button type="submit" size="lg" loading={signIn.isPending} className="mt-1 w-full">
        Sign In
      </Button>
    </form>
  );
}
