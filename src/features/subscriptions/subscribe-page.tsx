import { useNavigate, useRouterState } from '@tanstack/react-router';
import { UserX } from 'lucide-react';
import { useEffect } from 'react';
import type { PublicTierDto, SubscribePageDto } from '../../../common/billing-dtos';
import type { BundleOfferDto } from '../../../common/bundle-schemas';
import { BILLING_TEXTS, PROFILE_TEXTS } from '../../../common/texts';
import { DeadEnd } from '../../components/dead-end';
import { LoadingPlaceholder } from '../../components/load-states';
import { Skeleton } from '../../components/ui/skeleton';
import { formatCalendarDate } from '../../lib/format';
import { usePageTitle } from '../../lib/page-title';
import { storePostAuthPath } from '../../lib/session';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';
import { PremiumUnlocks } from './premium-unlocks';
import { PurchaseDialog } from './purchase-dialog';
import { bundleOffer } from './bundle-offer';
import { tierOffer } from './purchase-offer';
import { SubscribeHeader } from './subscribe-header';
import { CurrentSubscriptionNote, NoTiersState, OwnerPreviewNote } from './subscribe-notices';
import { TierBundles } from './tier-bundles';
import { TierCard, type TierCardState } from './tier-card';
import { usePurchase } from './use-purchase';

/**
 * /{username}/subscribe (spec part 2 §2, issue 11 item 2-3): 'Subscribe to {display name}', a
 * skeleton while loading, the tier cards, 'No subscription tiers available yet.' and 'Creator
 * not found'; before the cards, what a subscription unlocks today. A visitor pressing Subscribe
 * is told to sign in and comes back here afterwards.
 */
export function SubscribePage({ username, checkout }: { username: string; checkout?: 'cancelled' }) {
  const page = trpc.subscriptions.subscribePage.useQuery({ username });
  const notFound = errorCode(page.error) === 'NOT_FOUND';
  const name = page.data ? page.data.creator.displayName || page.data.creator.username : null;
  usePageTitle(notFound ? PROFILE_TEXTS.creatorNotFound : name ? `Subscribe to ${name}` : 'Subscribe');

  useEffect(() => {
    if (checkout === 'cancelled') notify.info({ title: 'Checkout cancelled', description: 'Nothing was charged.' }, { id: 'checkout-cancelled' });
  }, [checkout]);

  if (notFound) return <DeadEnd icon={UserX} title={PROFILE_TEXTS.creatorNotFound} />;
  if (page.isError && !page.data) {
    return <DeadEnd icon={UserX} title={BILLING_TEXTS.loadFailed} description={page.error.message} retry={() => void page.refetch()} />;
  }
  if (!page.data) return <SubscribePageSkeleton />;
  return <LoadedSubscribePage data={page.data} />;
}

function LoadedSubscribePage({ data }: { data: SubscribePageDto }) {
  const { creator, tiers, viewer, premiumCounts, provider } = data;
  const name = creator.displayName || creator.username;
  const navigate = useNavigate();
  const location = useRouterState({ select: (s) => s.location.href });
  const purchase = usePurchase();
  const pendingTier = purchase.pending && purchase.offer?.item.kind === 'creator' ? purchase.offer.item.tierId : null;
  const current = viewer.subscription;

  const onSubscribe = (tier: PublicTierDto, bundle?: BundleOfferDto) => {
    if (!viewer.signedIn) {
      // the spec's words, then sign in and come back to this page
      notify.error({ title: BILLING_TEXTS.signInToSubscribe });
      storePostAuthPath(location);
      void navigate({ to: '/auth', search: { tab: 'signin' } });
      return;
    }
    // nothing is charged until the fan presses Pay in the confirmation
    if (bundle) {
      purchase.confirm(bundleOffer(tier, bundle, { id: creator.id, name }, { now: new Date(), provider }));
      return;
    }
    purchase.confirm(
      tierOffer(
        tier,
        { id: creator.id, name },
        {
          now: new Date(),
          provider,
          currentPeriodEnd: current?.currentPeriodEnd ?? null,
        },
      ),
    );
  };

  const stateOf = (tierId: string): TierCardState => {
    if (current?.tierId === tierId) return 'current';
    if (pendingTier === tierId) return 'pending';
    if (pendingTier || viewer.isOwner) return 'blocked';
    return 'idle';
  };

  return (
    <div className="flex flex-col gap-6">
      <SubscribeHeader creator={creator} name={name} hasTiers={tiers.length > 0} provider={provider} />

      {viewer.isOwner ? <OwnerPreviewNote /> : null}

      {current ? <CurrentSubscriptionNote current={current} /> : null}

      {/* what a subscription unlocks: nothing to say while there is no subscription to take */}
      {tiers.length === 0 ? null : <PremiumUnlocks counts={premiumCounts} creatorName={name} />}

      {tiers.length === 0 ? (
        <NoTiersState username={creator.username} name={name} isOwner={viewer.isOwner} />
      ) : (
        <section aria-label="Subscription tiers" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {tiers.map((tier) => (
            <TierCard
              key={tier.id}
              tier={tier}
              state={stateOf(tier.id)}
              actionLabel={current ? 'Switch at renewal' : 'Subscribe'}
              onSubscribe={() => onSubscribe(tier)}
              footnote={
                current && current.tierId !== tier.id ? `Starts when your current period ends (${formatCalendarDate(current.currentPeriodEnd)}).` : null
              }
            >
              {/* a bundle starts a subscription: not for a fan who has one */}
              {tier.bundles && !current ? (
                <TierBundles tier={{ ...tier, bundles: tier.bundles }} disabled={stateOf(tier.id) !== 'idle'} onChoose={(bundle) => onSubscribe(tier, bundle)} />
              ) : null}
            </TierCard>
          ))}
        </section>
      )}
      <PurchaseDialog purchase={purchase} />
    </div>
  );
}

function SubscribePageSkeleton() {
  return (
    <LoadingPlaceholder label="Loading subscription tiers" className="gap-6">
      <div className="flex items-center gap-4">
        <Skeleton circle className="size-16" />
        <div className="flex flex-1 flex-col gap-2">
          <Skeleton className="h-8 w-2/3 max-w-sm" />
          <Skeleton className="h-4 w-1/2 max-w-xs" />
        </div>
      </div>
      <Skeleton className="h-32 w-full rounded-card" />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-64 rounded-card" />
        ))}
      </div>
    </LoadingPlaceholder>
  );
}
