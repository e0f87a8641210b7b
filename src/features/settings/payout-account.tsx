import { Landmark } from 'lucide-react';
import { EARNINGS_TEXTS } from '../../../common/earnings-texts';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';

/**
 * Payouts on /settings/account/payment (issue 26 §2), for creators, below the spec's payment
 * screen: the payout account's state; Set up payouts creates it (Stripe: a Connect Express account,
 * then Stripe's hosted onboarding, which also verifies identity; the built-in provider: a test
 * account, labelled as such, with no bank details). Coming back from Stripe, pressing it again
 * asks Stripe for the state now; `account.updated` webhooks keep it in step meanwhile.
 */
export function PayoutAccountSection() {
  const utils = trpc.useUtils();
  const account = trpc.earnings.payoutAccount.useQuery();
  const setUp = trpc.earnings.setUpPayouts.useMutation({
    onSuccess: async (result) => {
      if (result.onboardingUrl) {
        window.location.assign(result.onboardingUrl);
        return;
      }
      notify.success({ title: EARNINGS_TEXTS.accountStatus[result.status] });
      await utils.earnings.invalidate();
    },
    onError: (error) => {
      if (errorCode(error) !== 'TOO_MANY_REQUESTS') notify.error({ title: 'Error', description: error.message });
    },
  });
  const data = account.data;
  return (
    <section aria-labelledby="payouts-heading" className="flex flex-col gap-3 rounded-card border border-border bg-surface p-4 md:p-5">
      <h2 id="payouts-heading" className="flex items-center gap-2 text-lg font-semibold">
        <Landmark aria-hidden="true" className="size-5 text-violet-300" />
        {EARNINGS_TEXTS.payoutAccountTitle}
      </h2>
      {!data ? (
        <Skeleton className="h-10 w-48" />
      ) : (
        <>
          <p className="text-sm" data-testid="payout-account-status">
            {data.status ? EARNINGS_TEXTS.accountStatus[data.status] : 'No payout account yet: your earnings wait in your balance.'}
          </p>
          {data.isTest ? <p className="rounded-xl border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-100">{EARNINGS_TEXTS.testAccountLabel}</p> : null}
          {data.status !== 'enabled' || !data.isTest ? (
            <Button className="self-start" onClick={() => setUp.mutate()} disabled={setUp.isPending}>
              {data.status === null ? EARNINGS_TEXTS.setUpPayouts : data.status === 'enabled' ? 'Check payout account' : EARNINGS_TEXTS.continueSetup}
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}
