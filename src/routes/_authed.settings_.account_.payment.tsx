import { createFileRoute } from '@tanstack/react-router';
import { PayoutAccountSection } from '../features/settings/payout-account';
import { SettingsPage } from '../features/settings/settings-page';
import { PaymentScreen } from '../features/subscriptions/payment-screen';
import { CurrentProviderNote } from '../features/subscriptions/provider-note';
import { useMe } from '../lib/session';
import { enumParam, searchValidator, stringParam } from '../lib/search-params';

const PaymentSearch = searchValidator<{ tier?: string; checkout?: 'cancelled'; card?: 'added' | 'cancelled' }>({
  tier: stringParam(64),
  checkout: enumParam(['cancelled'] as const),
  card: enumParam(['added', 'cancelled'] as const),
});

/**
 * /settings/account/payment?tier={tierId} (spec part 2 §2), behind the `_authed` gate. Not nested
 * under the /settings/account screen's route (`_` suffixes): it is a page of its own with its own
 * Back to /settings/account.
 */
export const Route = createFileRoute('/_authed/settings_/account_/payment')({
  validateSearch: PaymentSearch,
  loaderDeps: ({ search }) => ({ tier: search.tier }),
  loader: ({ context, deps }) => {
    void context.trpcUtils.payments.history.prefetch();
    if (deps.tier) void context.trpcUtils.subscriptions.premiumTier.prefetch({ tierId: deps.tier });
  },
  component: PaymentRoute,
});

function PaymentRoute() {
  const { tier, checkout, card } = Route.useSearch();
  const isCreator = useMe().data?.isCreator ?? false;
  return (
    <SettingsPage
      title="Payment"
      description="Your plan and the payments you have made."
      back="/settings/account"
      aside={<CurrentProviderNote className="self-start sm:self-end" />}
    >
      <PaymentScreen tierId={tier} checkout={checkout} card={card} />
      {/* creators are paid here too (issue 26), beside the spec's payment screen, not inside it */}
      {isCreator ? <PayoutAccountSection /> : null}
    </SettingsPage>
  );
}
