import { useState } from 'react';
import { ConfirmTwoFactorInput, DisableTwoFactorInput, SECURITY_TEXTS, type TwoFactorEnrolmentDto } from '../../../common/security';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { notify } from '../../lib/toast';
import { isClientError, trpc } from '../../lib/trpc';
import { useZodForm } from '../../lib/use-zod-form';
import { Section, SectionSkeleton } from './section';

const failed = (error: unknown) => ({ title: 'Error', description: (isClientError(error) && (error as Error).message) || 'Something went wrong. Please try again.' });

/**
 * Two-factor sign-in with an authenticator app: set up (QR code + first code), the recovery codes
 * shown once, and turning it off with a code. The server decides each step; this mirrors it.
 */
export function TwoFactorCard() {
  const overview = trpc.security.overview.useQuery();
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolmentDto | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const start = trpc.security.startTwoFactor.useMutation({ onSuccess: setEnrolment, onError: (e) => notify.error(failed(e)) });

  let body;
  if (!overview.data) body = <SectionSkeleton label="Loading two-factor settings" rows={1} />;
  else if (recoveryCodes) body = <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />;
  else if (overview.data.twoFactorEnabled) body = <DisableForm recoveryCodesLeft={overview.data.recoveryCodesLeft} />;
  else if (enrolment)
    body = (
      <EnrolForm
        enrolment={enrolment}
        onCancel={() => setEnrolment(null)}
        onEnabled={(codes) => {
          setEnrolment(null);
          setRecoveryCodes(codes);
        }}
      />
    );
  else
    body = (
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Badge>Off</Badge>
        <Button onClick={() => start.mutate()} loading={start.isPending}>
          Set up two-factor
        </Button>
      </div>
    );

  return (
    <Section
      id="two-factor-heading"
      title="Two-factor authentication"
      description="Signing in asks for a code from an authenticator app (such as Google Authenticator, 1Password or Authy) after your password."
    >
      {body}
    </Section>
  );
}

function EnrolForm({ enrolment, onEnabled, onCancel }: { enrolment: TwoFactorEnrolmentDto; onEnabled: (codes: string[]) => void; onCancel: () => void }) {
  const utils = trpc.useUtils();
  const form = useZodForm(ConfirmTwoFactorInput, { defaultValues: { code: '' } });
  const confirm = trpc.security.confirmTwoFactor.useMutation({
    onSuccess: ({ recoveryCodes }) => {
      void utils.security.overview.invalidate();
      notify.success(SECURITY_TEXTS.twoFactorEnabled);
      onEnabled(recoveryCodes);
    },
    onError: (error) => {
      form.showServerErrors(error);
      notify.error(failed(error));
    },
  });
  return (
    <form noValidate onSubmit={form.submit((values) => confirm.mutate(values))} className="flex flex-col gap-5" aria-label="Set up two-factor">
      <ol className="flex list-decimal flex-col gap-1 pl-5 text-sm text-muted">
        <li>Scan this QR code with your authenticator app.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        <img src={enrolment.qrCode} alt="QR code for your authenticator app" width={180} height={180} className="rounded-lg bg-white p-2" />
        <div className="flex min-w-0 flex-col gap-1 text-sm">
          <span className="text-muted">Can't scan it? Type this key into the app:</span>
          <code data-testid="totp-secret" className="rounded-md bg-surface-raised px-2 py-1 font-mono text-xs break-all text-foreground">
            {enrolment.secret}
          </code>
        </div>
      </div>
      <FormField label="Code from the app" error={form.error('code')}>
        {(field) => <Input {...field} {...form.field('code')} autoComplete="one-time-code" inputMode="numeric" placeholder="123456" className="max-w-48 font-mono tracking-widest" />}
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={confirm.isPending}>
          Turn on
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const copy = () =>
    navigator.clipboard.writeText(codes.join('\n')).then(
      () => notify.success({ title: 'Copied', description: 'Your recovery codes are on the clipboard.' }),
      () => notify.error({ title: 'Error', description: 'Could not copy: select the codes and copy them yourself.' }),
    );
  return (
    <div className="flex flex-col gap-4" role="region" aria-label="Recovery codes">
      <p className="text-sm text-foreground">
        Save these recovery codes somewhere safe. Each one signs you in once if you lose your phone. <strong>They are shown only now.</strong>
      </p>
      <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-2 rounded-lg border border-border bg-surface-raised p-4 font-mono text-sm sm:grid-cols-2">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => void copy()}>
          Copy codes
        </Button>
        <Button onClick={onDone}>I saved them</Button>
      </div>
    </div>
  );
}

function DisableForm({ recoveryCodesLeft }: { recoveryCodesLeft: number }) {
  const utils = trpc.useUtils();
  const form = useZodForm(DisableTwoFactorInput, { defaultValues: { code: '' } });
  const disable = trpc.security.disableTwoFactor.useMutation({
    onSuccess: () => {
      void utils.security.overview.invalidate();
      form.reset();
      notify.success(SECURITY_TEXTS.twoFactorDisabled);
    },
    onError: (error) => {
      form.showServerErrors(error);
      notify.error(failed(error));
    },
  });
  return (
    <form noValidate onSubmit={form.submit((values) => disable.mutate(values))} className="flex flex-col gap-4" aria-label="Turn off two-factor">
      <div className="flex flex-wrap items-center gap-3">
        <Badge variant="accent">On</Badge>
        <span className="text-sm text-muted">
          {recoveryCodesLeft} recovery {recoveryCodesLeft === 1 ? 'code' : 'codes'} left
        </span>
      </div>
      <FormField label="Code to turn it off" hint="A code from your app, or a recovery code." error={form.error('code')}>
        {(field) => <Input {...field} {...form.field('code')} autoComplete="one-time-code" placeholder="123456" className="max-w-56 font-mono tracking-widest" />}
      </FormField>
      <div>
        <Button type="submit" variant="secondary" loading={disable.isPending}>
          Turn off two-factor
        </Button>
      </div>
    </form>
  );
}
