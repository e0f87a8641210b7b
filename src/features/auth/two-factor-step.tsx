import { VerifyTwoFactorSignInInput } from '../../../common/security';
import { AUTH_TEXTS } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { notify } from '../../lib/toast';
import { isClientError, trpc } from '../../lib/trpc';
import { useZodForm } from '../../lib/use-zod-form';
import { useCompleteSignIn } from './use-complete-sign-in';

/**
 * The second step of sign-in for an account with two-factor on: the password was right, the server
 * holds a short-lived challenge (HttpOnly cookie) and no session exists until this code is right.
 */
export function TwoFactorStep({ onCancel }: { onCancel: () => void }) {
  const form = useZodForm(VerifyTwoFactorSignInInput, { defaultValues: { code: '' } });
  const completeSignIn = useCompleteSignIn();
  const verify = trpc.auth.verifyTwoFactor.useMutation({
    onSuccess: (user) => completeSignIn(user),
    onError: (error) => {
      notify.error({
        title: AUTH_TEXTS.signInFailed.title,
        description: (isClientError(error) && error.message) || AUTH_TEXTS.signInFailed.description,
      });
      form.setValue('code', '');
      form.setFocus('code');
    },
  });

  return (
    <form noValidate onSubmit={form.submit((values) => verify.mutate(values))} className="flex flex-col gap-5" aria-label="Two-factor code">
      <p className="text-sm text-muted">
        Enter the 6-digit code from your authenticator app. Lost your phone? Use one of your recovery codes.
      </p>
      <FormField label="Authentication code" error={form.error('code')}>
        {(field) => (
          <Input
            {...field}
            {...form.field('code')}
            autoFocus
            autoComplete="one-time-code"
            inputMode="text"
            placeholder="123456"
            className="font-mono tracking-widest"
          />
        )}
      </FormField>
      <Button type="submit" size="lg" loading={verify.isPending} className="w-full">
        Verify
      </Button>
      <Button type="button" variant="ghost" onClick={onCancel}>
        Use a different account
      </Button>
    </form>
  );
}
