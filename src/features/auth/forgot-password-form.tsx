import { Link } from '@tanstack/react-router';
import { MailCheck } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { RequestPasswordResetInput } from '../../../common/auth-schemas';
import { AUTH_TEXTS, VALIDATION } from '../../../common/texts';
import { Button, buttonClasses } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { joinMessages, notify } from '../../lib/toast';
import { isClientError, trpc } from '../../lib/trpc';
import { firstErrorPerField, focusFirstInvalid } from '../../lib/form-errors';

/** Asks for a reset link. The answer is always the same neutral text, whether the account exists or not. */
export function ForgotPasswordForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const request = trpc.auth.requestPasswordReset.useMutation({
    onError: (err) => {
      notify.error(
        isClientError(err) && err.message
          ? { title: 'Error', description: err.message }
          : AUTH_TEXTS.unexpected,
      );
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = RequestPasswordResetInput.safeParse({ email });
    if (!parsed.success) {
      const { fields, messages } = firstErrorPerField(parsed.error);
      setError(fields.email);
      notify.error({ title: VALIDATION.validationErrorTitle, description: joinMessages(messages) });
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setError(undefined);
    request.mutate(parsed.data);
  };

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
    <form ref={formRef} noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label="Request a reset link">
      <FormField label="Email" error={error}>
        {(field) => (
          <Input
            {...field}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setError(undefined);
            }}
          />
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
