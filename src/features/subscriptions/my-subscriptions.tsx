import { Link } from '@tanstack/react-router';
import { Crown, Users } from 'lucide-react';
import type { MySubscriptionDto } from '../../../common/billing-dtos';
import { BILLING_TEXTS } from '../../../common/texts';
import { EmptyState } from '../../components/empty-state';
import { Loaded } from '../../components/load-states';
import { Avatar } from '../../components/ui/avatar';
import { cn } from '../../lib/cn';
import { trpc } from '../../lib/trpc';
import { intervalUnit } from '../../lib/tier-price';
import { BUNDLE_TEXTS } from '../../../common/bundle-texts';
import { PastDueNotice, priceLine, statusLine, SubscriptionActions, subscriptionName } from './subscription-actions';

/**
 * The body of /settings/account/subscriptions (issue 11 item 7): the fan's subscriptions, each
 * with its creator, tier, price and when it renews or ends. Cancel (after a confirmation) keeps
 * access to the end of the paid period; Resume undoes it before then; an ended one offers
 * Resubscribe, a failed renewal says what to do (./subscription-actions.tsx). The route frames it
 * (heading, Back to /settings/account).
 */
export function MySubscriptions() {
  const mine = trpc.subscriptions.mine.useQuery();
  return (
    <Loaded
      query={mine}
      loading="Loading subscriptions"
      failed={BILLING_TEXTS.loadFailed}
      rows={2}
      rowClassName="h-28 w-full rounded-card"
      placeholderClassName="gap-3"
    >
      {(list) =>
        list.length === 0 ? (
          <EmptyState icon={Users}>
            You have no subscriptions yet.{' '}
            <Link to="/explore" className="font-medium text-violet-300 underline underline-offset-4">
              Find creators on Explore
            </Link>
            .
          </EmptyState>
        ) : (
          <ul aria-label="Your subscriptions" className="flex flex-col gap-3">
            {list.map((s) => (
              <SubscriptionRow key={s.id} subscription={s} />
            ))}
          </ul>
        )
      }
    </Loaded>
  );
}

function SubscriptionRow({ subscription: s }: { subscription: MySubscriptionDto }) {
  const name = subscriptionName(s);
  const status = statusLine(s);
  const live = s.status !== 'ended';

  return (
    <li aria-label={`${name}, ${s.tier.name}`} className="flex flex-col gap-3 rounded-card border border-border bg-surface p-4 md:p-5">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <div className={cn('flex min-w-0 flex-1 items-center gap-3', !live && 'opacity-75')}>
          {s.creator ? (
            <Link to="/$username" params={{ username: s.creator.username }} className="rounded-full" tabIndex={-1} aria-hidden="true">
              <Avatar src={s.creator.avatarUrl} name={name} />
            </Link>
          ) : (
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-amber-400/15 text-amber-300 ring-1 ring-amber-300/30">
              <Crown aria-hidden="true" className="size-5" />
            </span>
          )}
          <div className="min-w-0">
            <p className="truncate font-semibold text-foreground">
              {s.creator ? (
                <Link to="/$username" params={{ username: s.creator.username }} className="underline-offset-4 hover:underline">
                  {name}
                </Link>
              ) : (
                name
              )}
              <span className="font-normal text-muted"> · {s.tier.name}</span>
            </p>
            <p className="text-sm text-muted" data-testid="subscription-price">
              {/* a bundle is charged and renewed for all its periods at once: 'R108.00 / 3 months' */}
              {priceLine(s, s.bundlePeriods ? BUNDLE_TEXTS.length(s.bundlePeriods, s.tier.paymentInterval) : intervalUnit(s.tier.paymentInterval))}
            </p>
            <p
              data-testid="subscription-status"
              className={cn('text-sm font-medium', status.tone === 'ok' ? 'text-emerald-300' : status.tone === 'warn' ? 'text-amber-300' : 'text-subtle')}
            >
              {status.text}
            </p>
          </div>
        </div>
        <SubscriptionActions subscription={s} />
      </div>
      <PastDueNotice subscription={s} />
    </li>
  );
}
