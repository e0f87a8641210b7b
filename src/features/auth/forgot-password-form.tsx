import { Link } from '@tanstack/react-router';
import { MailCheck } from 'lucide-react';
import { RequestPasswordResetInput } from '../../../common/auth-schemas';
import { AUTH_TEXTS } from '../../../common/texts';
import { Button, buttonClasses } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { notify } from '../../lib/toast';
import { isClientError, trpc } from '../../lib/trpc';
import { useZodForm } from '../../lib/use-zod-form';

/** Asks for a reset link. The answer is always the same neutral text, whether the account exists or not. */
export function ForgotPasswordForm() {
  const form = useZodForm(RequestPasswordResetInput, { defaultValues: { email: '' } });
  const request = trpc.auth.requestPasswordReset.useMutation({
    onError: (err) => {
      notify.error(
        isClientError(err) && err.message
          ? { title: 'Error', description: err.message }
          : AUTH_TEXTS.unexpected,
      );
    },
  });

  if (request.isSuccess) {
    return (
      <div role="status" className="flex flex-col items-center gap-4 text-center">
        <span className="flex size-14 items-center justify-center rounded-full bg-accent-soft text-violet-300">
          <MailCheck aria-hidden="true" className="size-7" />
        </span>
        <div>
          <h2 className="text-lg font-semibold">{AUTH_TEXTS.resetRequested.title}</h2>
          <p className="mt-1 text-sm text-muted">{AUTH_TEXTS.resetRequested.description}</p>
        </div>
        <Link to="/auth" search={{ tab: 'signin' }} className={buttonClasses({ variant: 'secondary', className: 'w-full' })}>
          Back to Sign In
        </Link>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={form.submit((values) => request.mutate(values))} className="flex flex-col gap-5" aria-label="Request a reset link">
      <FormField label="Email" error={form.error('email')}>
        {(field) => (
          <Input {...field} {...form.field('email')} type="email" autoComplete="email" inputMode="email" placeholder="you@example.com" />
        )}
      </FormField>
      <Button type="submit" size="lg" loading={request.isPending} className="w-full">
        Send reset link
      </Button>
      <Link
        to="/auth"
        search={{ tab: 'signin' }}
        className="text-center text-sm font-medium text-muted hover:text-foreground hover:underline"
      >
        Back to Sign In
      </Link>
    </form>
  );
}
