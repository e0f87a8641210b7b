import { Link, useNavigate } from '@tanstack/react-router';
import { CircleAlert } from 'lucide-react';
import { useState } from 'react';
import { ResetPasswordInput } from '../../../common/auth-schemas';
import { AUTH_TEXTS } from '../../../common/texts';
import { Button, buttonClasses } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { notify } from '../../lib/toast';
import { errorCode, isServerError, trpc } from '../../lib/trpc';
import { useZodForm } from '../../lib/use-zod-form';

/** The form's one field; the token comes from the link. */
const NewPasswordInput = ResetPasswordInput.pick({ password: true });

/** Sets a new password from a reset link; every session of the account ends on the server. */
export function ResetPasswordForm({ token }: { token: string | undefined }) {
  const navigate = useNavigate();
  const form = useZodForm(NewPasswordInput, { defaultValues: { password: '' } });
  const [linkInvalid, setLinkInvalid] = useState(!token);

  const reset = trpc.auth.resetPassword.useMutation({
    onSuccess: async () => {
      notify.success(AUTH_TEXTS.passwordUpdated);
      await navigate({ to: '/auth', search: { tab: 'signin' }, replace: true });
    },
    onError: (err) => {
      if (errorCode(err) === 'BAD_REQUEST' && err.message === AUTH_TEXTS.resetLinkInvalid) {
        setLinkInvalid(true);
        return;
      }
      notify.error(isServerError(err) && err.message ? { title: 'Error', description: err.message } : AUTH_TEXTS.unexpected);
    },
  });

  if (linkInvalid) {
    return (
      <div role="alert" className="flex flex-col items-center gap-4 text-center">
        <span className="flex size-14 items-center justify-center rounded-full bg-danger/15 text-danger">
          <CircleAlert aria-hidden="true" className="size-7" />
        </span>
        <p className="text-sm text-muted">{AUTH_TEXTS.resetLinkInvalid}</p>
        <Link to="/auth/forgot-password" className={buttonClasses({ className: 'w-full' })}>
          Request a new link
        </Link>
      </div>
    );
  }

  // Without a token the link screen above stands in for the form.
  const onSubmit = form.submit(({ password }) => {
    if (token) reset.mutate({ token, password });
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label="Password reset">
      <FormField label="New password" error={form.error('password')} hint="At least 6 characters">
        {(field) => <Input {...field} {...form.field('password')} type="password" autoComplete="new-password" />}
      </FormField>
      <Button type="submit" size="lg" loading={reset.isPending} className="w-full">
        Update password
      </Button>
    </form>
  );
}
