import { Link } from '@tanstack/react-router';
import { BadgeCheck, Check, Crown, SearchX } from 'lucide-react';
import { BILLING_TEXTS } from '../../../common/texts';
import { CallToActionBadge, CallToActionCard } from '../../components/call-to-action-card';
import { LoadError, LoadingPlaceholder } from '../../components/load-states';
import { TierPrice } from '../../components/tier-price';
import { buttonClasses } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { usePageTitle } from '../../lib/page-title';
import { errorCode, trpc, type CurrentUser } from '../../lib/trpc';

/** What Premium really does today (issue 11 item 5): each line is enforced by the server. */
const PERKS = [
  'Unlimited links on your profile (free profiles keep a limit)',
  'A place ahead of free creators in Featured Creators on the homepage',
  'No more upgrade card on your profile',
];

/**
 * /subscribe (spec part 1 §2): the Premium upgrade for the signed-in user. It shows the platform's
 * Premium plan and leads to the payment screen (/settings/account/payment?tier=...), where it is
 * paid; a user who is Premium already is told so.
 */
export function PremiumUpgrade({ user }: { user: CurrentUser }) {
  usePageTitle('Upgrade to Premium');
  const tier = trpc.subscriptions.premiumTier.useQuery({});

  return (
    <CallToActionCard headingId="premium-heading" tone="premium" className="p-6 md:p-10">
      <CallToActionBadge tone="premium" className="size-12">
        <Crown aria-hidden="true" className="size-6" />
      </CallToActionBadge>
      <h1 id="premium-heading" className="mt-4 text-3xl font-bold tracking-tight md:text-4xl">
        Upgrade to Premium
      </h1>
      {errorCode(tier.error) === 'NOT_FOUND' ? (
        <p role="alert" className="mt-4 flex items-center gap-2 font-medium text-rose-300">
          <SearchX aria-hidden="true" className="size-5" />
          {BILLING_TEXTS.premiumTierMissing}
        </p>
      ) : tier.isError && !tier.data ? (
        <LoadError compact message={BILLING_TEXTS.loadFailed} onRetry={() => void tier.refetch()} className="mt-4" />
      ) : !tier.data ? (
        <LoadingPlaceholder label="Loading Premium" className="mt-4 gap-3">
          <Skeleton className="h-10 w-48" />
          <Skeleton className="h-24 w-full max-w-lg" />
        </LoadingPlaceholder>
      ) : (
        <>
          <TierPrice tier={tier.data} look="hero" testId="premium-price" className="mt-3" />
          <p className="mt-2 max-w-xl text-muted">30 days of Premium for your profile. What it does today:</p>
          <ul aria-label="Premium benefits" className="mt-6 flex max-w-xl flex-col gap-3">
            {PERKS.map((perk) => (
              <li key={perk} className="flex items-start gap-3 text-foreground/90">
                <Check aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-400" />
                {perk}
              </li>
            ))}
          </ul>
          {user.isPremium ? (
            <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-center">
              <p role="status" className="flex items-center gap-2 font-medium text-emerald-300">
                <BadgeCheck aria-hidden="true" className="size-5" />
                You are Premium.
              </p>
              <Link to="/settings/account/subscriptions" className={buttonClasses({ variant: 'secondary' })}>
                Manage subscriptions
              </Link>
            </div>
          ) : (
            <Link
              to="/settings/account/payment"
              search={{ tier: tier.data.id }}
              className={buttonClasses({ size: 'lg', className: 'mt-8 w-full sm:w-auto' })}
            >
              <Crown aria-hidden="true" className="size-4" />
              Continue to payment
            </Link>
          )}
        </>
      )}
    </CallToActionCard>
  );
}
