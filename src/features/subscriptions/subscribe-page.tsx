import { FIRST_STEPS_TEXTS } from '../../../common/first-steps';
import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { BadgeCheck, Layers, UserX } from 'lucide-react';
import { useEffect } from 'react';
import type { PublicTierDto, SubscribePageDto } from '../../../common/billing-dtos';
import type { BundleOfferDto } from '../../../common/bundle-schemas';
import { BILLING_TEXTS, PROFILE_TEXTS } from '../../../common/texts';
import { DeadEnd } from '../../components/dead-end';
import { EmptyState } from '../../components/empty-state';
import { LoadingPlaceholder } from '../../components/load-states';
import { buttonClasses } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { Avatar } from '../../components/ui/avatar';
import { NameWithBadge } from '../../components/name-with-badge';
import { formatCalendarDate } from '../../lib/format';
import { usePageTitle } from '../../lib/page-title';
import { storePostAuthPath } from '../../lib/session';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';
import { PremiumUnlocks } from './premium-unlocks';
import { ProviderNote } from './provider-note';
import { PurchaseDialog } from './purchase-dialog';
import { bundleOffer } from './bundle-offer';
import { tierOffer } from './purchase-offer';
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
      <header className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <Link to="/$username" params={{ username: creator.username }} className="shrink-0 self-start rounded-full" aria-label={`${name}’s profile`}>
          <Avatar src={creator.avatarUrl} name={name} size="lg" />
        </Link>
        <div className="min-w-0 flex-1">
          {/* one flow of text: a wrapped name keeps its badge after its last word (issue 47) */}
          <h1 className="text-2xl font-bold tracking-tight break-words md:text-3xl">
            <NameWithBadge text={`Subscribe to ${name}`} verified={creator.isVerified} />
          </h1>
          <p className="mt-1 text-muted">
            <Link to="/$username" params={{ username: creator.username }} className="underline-offset-4 hover:text-foreground hover:underline">
              @{creator.username}
            </Link>{' '}
            {tiers.length === 0 ? null : <> · Choose a plan to unlock premium posts and support {name} directly.</>}
          </p>
        </div>
        <ProviderNote provider={provider} className="self-start sm:self-center" />
      </header>

      {viewer.isOwner ? (
        <p className="flex flex-col gap-3 rounded-card border border-border bg-surface-raised px-4 py-3 text-sm text-muted sm:flex-row sm:items-center sm:justify-between">
          This is how fans see your plans. You cannot subscribe to yourself.
          <Link to="/create" search={{ tab: 'tiers' }} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
            Manage Subscription Tier
          </Link>
        </p>
      ) : null}

      {current ? (
        <p
          role="status"
          className="flex flex-col gap-3 rounded-card border border-emerald-400/30 bg-emerald-500/10 px-4 py-3 text-sm text-emerald-100 sm:flex-row sm:items-center sm:justify-between"
        >
          <span className="flex items-center gap-2">
            <BadgeCheck aria-hidden="true" className="size-4 shrink-0 text-emerald-300" />
            <span>
              Subscribed to <strong className="font-semibold">{current.tierName}</strong>
              {' · '}
              {current.cancelAtPeriodEnd ? 'ends on' : 'renews on'} {formatCalendarDate(current.currentPeriodEnd)}
            </span>
          </span>
          <Link to="/settings/account/subscriptions" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
            Manage subscriptions
          </Link>
        </p>
      ) : null}

      {/* what a subscription unlocks: nothing to say while there is no subscription to take */}
      {tiers.length === 0 ? null : <PremiumUnlocks counts={premiumCounts} creatorName={name} />}

      {tiers.length === 0 ? (
        // says so, and leads somewhere: the creator's free posts (issue 47 item 2)
        <EmptyState icon={Layers}>
          <span className="block font-medium text-foreground">{BILLING_TEXTS.noTiers}</span>
          {viewer.isOwner ? null : (
            <>
              <span className="mt-1 block text-sm">{FIRST_STEPS_TEXTS.noTiersFan(name)}</span>
              <Link to="/$username" params={{ username: creator.username }} className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'mt-4' })}>
                {FIRST_STEPS_TEXTS.backToProfile(name)}
              </Link>
            </>
          )}
        </EmptyState>
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
