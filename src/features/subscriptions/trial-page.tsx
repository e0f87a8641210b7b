import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { CalendarClock, Gift } from 'lucide-react';
import { formatRand } from '../../../common/format';
import type { TrialOfferDto } from '../../../common/trial-schemas';
import { TRIAL_TEXTS } from '../../../common/trial-texts';
import { DeadEnd } from '../../components/dead-end';
import { Avatar } from '../../components/ui/avatar';
import { Button, buttonClasses } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { formatCalendarDate } from '../../lib/format';
import { intervalUnit } from '../../lib/tier-price';
import { usePageTitle } from '../../lib/page-title';
import { storePostAuthPath, useMe } from '../../lib/session';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';
import { ProviderNote } from './provider-note';
import { PurchaseDialog } from './purchase-dialog';
import { trialOffer } from './purchase-offer';
import { usePurchase } from './use-purchase';

/** Why this viewer cannot claim it now, in words; null: they can. */
const REFUSALS: Record<Exclude<TrialOfferDto['state'], 'available'>, string> = {
  expired: TRIAL_TEXTS.expired,
  disabled: TRIAL_TEXTS.disabled,
  full: TRIAL_TEXTS.full,
  claimed: 'You claimed this trial. Enjoy!',
  used: TRIAL_TEXTS.alreadyUsed,
  subscribed: TRIAL_TEXTS.alreadySubscribed,
  own: 'This is your own trial link: share it with fans.',
};

/**
 * /trial/{code} (issue 27 item 5): what the link gives (the creator, the tier, the free days, the
 * price after), and Start free trial, which confirms first (PurchaseDialog: nothing charged now,
 * the price and date of the first charge, cancel any time). A visitor signs in and comes back.
 */
export function TrialPage({ code }: { code: string }) {
  const offer = trpc.trials.view.useQuery({ code });
  usePageTitle(offer.data ? `Free trial of ${offer.data.creator.displayName || offer.data.creator.username}` : 'Free trial');
  if (errorCode(offer.error) === 'NOT_FOUND') return <DeadEnd icon={Gift} title={TRIAL_TEXTS.notFound} />;
  if (offer.isError && !offer.data) return <DeadEnd icon={Gift} title="Could not load this trial." description={offer.error.message} retry={() => void offer.refetch()} />;
  if (!offer.data) return <TrialSkeleton />;
  return <LoadedTrial data={offer.data} />;
}

function LoadedTrial({ data }: { data: TrialOfferDto }) {
  const me = useMe();
  const purchase = usePurchase();
  const navigate = useNavigate();
  const location = useRouterState({ select: (s) => s.location.href });
  const name = data.creator.displayName || data.creator.username;
  const every = intervalUnit(data.tier.paymentInterval);
  const firstCharge = new Date(Date.now() + data.days * 24 * 60 * 60_000);

  const onClaim = () => {
    if (!me.data) {
      notify.error({ title: TRIAL_TEXTS.signInToClaim });
      storePostAuthPath(location);
      void navigate({ to: '/auth', search: { tab: 'signin' } });
      return;
    }
    purchase.confirm(trialOffer(data, { id: data.creator.id, name }, { now: new Date(), provider: data.provider, toast: TRIAL_TEXTS.claimed(data.days, name) }));
  };

  return (
    <article className="mx-auto flex w-full max-w-xl flex-col gap-6 rounded-card border border-border bg-surface p-5 md:p-8" aria-labelledby="trial-heading">
      <div className="flex items-center gap-4">
        <Avatar src={data.creator.avatarUrl} name={name} size="lg" />
        <div className="min-w-0">
          <p className="text-sm text-muted">Free trial</p>
          <h1 id="trial-heading" className="text-2xl font-bold tracking-tight break-words text-foreground">
            {data.days} days of {name} for free
          </h1>
          <Link to="/$username" params={{ username: data.creator.username }} className="text-sm font-medium text-violet-300 underline underline-offset-4">
            @{data.creator.username}
          </Link>
        </div>
      </div>
      <dl className="grid gap-3 rounded-xl border border-border bg-background/40 p-4 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-muted">Plan</dt>
          <dd className="text-right font-medium text-foreground">{data.tier.name}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-muted">Today</dt>
          <dd className="text-right font-semibold text-emerald-300" data-testid="trial-now">
            Free for {data.days} days
          </dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-muted">Then</dt>
          <dd className="text-right font-medium text-foreground" data-testid="trial-then">
            {formatRand(data.tier.discountedPrice)} every {every}, from {formatCalendarDate(firstCharge)}
          </dd>
        </div>
      </dl>
      {data.tier.description ? <p className="text-sm text-muted">{data.tier.description}</p> : null}
      <p className="flex items-start gap-2 text-xs text-subtle">
        <CalendarClock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        Cancel before the trial ends and nothing is charged. Claim by {formatCalendarDate(data.expiresAt)}.
      </p>
      <ProviderNote provider={data.provider} className="self-start" />
      {data.state === 'available' ? (
        <Button size="lg" onClick={onClaim} loading={purchase.pending}>
          Start free trial
        </Button>
      ) : (
        <div className="flex flex-col gap-3">
          <p role="status" className="rounded-xl border border-border px-4 py-3 text-sm text-foreground">
            {REFUSALS[data.state]}
          </p>
          <Link to="/$username" params={{ username: data.creator.username }} className={buttonClasses({ variant: 'secondary' })}>
            Go to {name}&apos;s profile
          </Link>
        </div>
      )}
      <PurchaseDialog purchase={purchase} />
    </article>
  );
}

function TrialSkeleton() {
  return (
    <div role="status" aria-label="Loading the trial" className="mx-auto flex w-full max-w-xl flex-col gap-6 rounded-card border border-border bg-surface p-5 md:p-8">
      <div className="flex items-center gap-4">
        <Skeleton circle className="size-16" />
        <Skeleton className="h-8 w-2/3" />
      </div>
      <Skeleton className="h-28 w-full rounded-xl" />
      <Skeleton className="h-11 w-full rounded-xl" />
    </div>
  );
}
