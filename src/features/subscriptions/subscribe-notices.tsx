import { Link } from '@tanstack/react-router';
import { BadgeCheck, Layers } from 'lucide-react';
import type { SubscribePageDto } from '../../../common/billing-dtos';
import { FIRST_STEPS_TEXTS } from '../../../common/first-steps';
import { BILLING_TEXTS } from '../../../common/texts';
import { EmptyState } from '../../components/empty-state';
import { buttonClasses } from '../../components/ui/button';
import { formatCalendarDate } from '../../lib/format';

/** Shown to the creator on their own subscribe page: the fans' view, with the way to their tiers. */
export function OwnerPreviewNote() {
  return (
    <p className="flex flex-col gap-3 rounded-card border border-border bg-surface-raised px-4 py-3 text-sm text-muted sm:flex-row sm:items-center sm:justify-between">
      This is how fans see your plans. You cannot subscribe to yourself.
      <Link to="/create" search={{ tab: 'tiers' }} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
        Manage Subscription Tier
      </Link>
    </p>
  );
}

/** The fan's subscription to this creator: its tier and when it renews or ends. */
export function CurrentSubscriptionNote({ current }: { current: NonNullable<SubscribePageDto['viewer']['subscription']> }) {
  return (
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
  );
}

/** No tiers yet: says so, and leads somewhere: the creator's free posts (issue 47 item 2). */
export function NoTiersState({ username, name, isOwner }: { username: string; name: string; isOwner: boolean }) {
  return (
    <EmptyState icon={Layers}>
      <span className="block font-medium text-foreground">{BILLING_TEXTS.noTiers}</span>
      {isOwner ? null : (
        <>
          <span className="mt-1 block text-sm">{FIRST_STEPS_TEXTS.noTiersFan(name)}</span>
          <Link to="/$username" params={{ username }} className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'mt-4' })}>
            {FIRST_STEPS_TEXTS.backToProfile(name)}
          </Link>
        </>
      )}
    </EmptyState>
  );
}
