import { ShieldCheck } from 'lucide-react';
import type { IdentityVerificationDto } from '../../../common/selling';
import { SELLING_TEXTS } from '../../../common/selling';
import { EARNINGS_TEXTS } from '../../../common/earnings-texts';
import { Button } from '../../components/ui/button';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';

/**
 * The way to verify one's identity (issue 47 item 1), on /settings/account/verification while it
 * is not: with the built-in provider its clearly labelled test verification (no document checked);
 * with Stripe, the payout account's onboarding at Stripe, which checks the person (the state then
 * arrives by `account.updated`).
 */
export function IdentityVerifyPanel({ identity }: { identity: IdentityVerificationDto }) {
  const utils = trpc.useUtils();
  const refresh = () => Promise.all([utils.settings.verification.invalidate(), utils.creators.firstSteps.invalidate(), utils.earnings.invalidate()]);
  const onError = (error: unknown) => {
    if (errorCode(error) !== 'TOO_MANY_REQUESTS') notify.error({ title: 'Error', description: error instanceof Error ? error.message : SELLING_TEXTS.testVerifyFailed });
  };
  const testVerify = trpc.settings.verifyIdentityForTesting.useMutation({
    onSuccess: async (result) => {
      notify.success({ title: result.message });
      await refresh();
    },
    onError,
  });
  const stripe = trpc.earnings.setUpPayouts.useMutation({
    onSuccess: async (result) => {
      if (result.onboardingUrl) return void window.location.assign(result.onboardingUrl);
      notify.success({ title: EARNINGS_TEXTS.accountStatus[result.status] });
      await refresh();
    },
    onError,
  });

  const builtin = identity.provider === 'builtin';
  return (
    <section aria-labelledby="identity-verify-heading" className="flex flex-col gap-3 rounded-card border border-border bg-surface p-4 md:p-5">
      <h2 id="identity-verify-heading" className="flex items-center gap-2 text-lg font-semibold">
        <ShieldCheck aria-hidden="true" className="size-5 text-violet-300" />
        {builtin ? SELLING_TEXTS.testVerifyTitle : SELLING_TEXTS.stripeVerifyTitle}
      </h2>
      <p className="text-sm text-muted">{SELLING_TEXTS.identityNeededFor}</p>
      {builtin ? (
        <p className="rounded-xl border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-100">{SELLING_TEXTS.testVerifyBody}</p>
      ) : (
        <>
          <p className="text-sm text-muted">{SELLING_TEXTS.stripeVerifyBody}</p>
          <p className="text-sm" data-testid="identity-payout-status">
            {SELLING_TEXTS.stripeStatus[identity.payoutStatus ?? 'none']}
          </p>
        </>
      )}
      <Button
        className="self-start"
        loading={builtin ? testVerify.isPending : stripe.isPending}
        onClick={() => (builtin ? testVerify.mutate() : stripe.mutate())}
      >
        {builtin ? SELLING_TEXTS.testVerifyButton : SELLING_TEXTS.stripeVerifyButton}
      </Button>
    </section>
  );
}
