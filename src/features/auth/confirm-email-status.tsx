import { Link } from '@tanstack/react-router';
import { CircleAlert, MailCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { AUTH_TEXTS } from '../../../common/texts';
import { buttonClasses } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { isServerError, trpc } from '../../lib/trpc';

/**
 * Confirms the e-mail address of a link from the confirmation mail, once, when shown; a link
 * opened again says the address is already confirmed. Either way the next step is signing in.
 */
export function ConfirmEmailStatus({ token }: { token: string | undefined }) {
  const confirm = trpc.auth.confirmEmail.useMutation();
  const started = useRef(false);

  useEffect(() => {
    if (started.current || !token) return;
    started.current = true;
    confirm.mutate({ token });
  }, [token, confirm]);

  if (!token || confirm.isError) {
    const unexpected = confirm.isError && !isServerError(confirm.error);
    return (
      <StatusPanel
        tone="error"
        title={unexpected ? AUTH_TEXTS.unexpected.title : 'Link not valid'}
        text={unexpected ? AUTH_TEXTS.unexpected.description : AUTH_TEXTS.confirmLinkInvalid}
      />
    );
  }
  if (confirm.isSuccess) {
    // a link opened a second time: the address was confirmed the first time
    const text = confirm.data.alreadyConfirmed ? AUTH_TEXTS.emailAlreadyConfirmed : AUTH_TEXTS.emailConfirmed;
    return <StatusPanel tone="success" title={text.title} text={text.description} />;
  }
  return (
    <div role="status" className="flex flex-col items-center gap-3 py-6 text-sm text-muted">
      <Spinner className="size-6 text-violet-300" />
      Confirming your email address…
    </div>
  );
}

function StatusPanel({ tone, title, text }: { tone: 'success' | 'error'; title: string; text: string }) {
  const Icon = tone === 'success' ? MailCheck : CircleAlert;
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className="flex flex-col items-center gap-4 py-2 text-center">
      <span
        className={
          tone === 'success'
            ? 'flex size-14 items-center justify-center rounded-full bg-success/15 text-success'
            : 'flex size-14 items-center justify-center rounded-full bg-danger/15 text-danger'
        }
      >
        <Icon aria-hidden="true" className="size-7" />
      </span>
      <div>
        <h2 className="text-lg font-semibold">{title}</h2>
        <p className="mt-1 text-sm text-muted">{text}</p>
      </div>
      <Link to="/auth" search={{ tab: 'signin' }} className={buttonClasses({ className: 'w-full' })}>
        Sign In
      </Link>
    </div>
  );
}
