import { createFileRoute } from '@tanstack/react-router';
import { PremiumUpgrade } from '../features/subscriptions/premium-upgrade';
import { useMe } from '../lib/session';

/** /subscribe, behind the `_authed` gate (issue 11 item 2): the signed-in user's Premium upgrade. */
export const Route = createFileRoute('/_authed/subscribe')({
  loader: ({ context }) => {
    void context.trpcUtils.subscriptions.premiumTier.prefetch({});
  },
  component: PremiumUpgradeRoute,
});

function PremiumUpgradeRoute() {
  const me = useMe();
  if (!me.data) return null;
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 md:px-6 md:py-12">
      <PremiumUpgrade user={me.data} />
    </div>
  );
}
