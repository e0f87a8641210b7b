import { Link } from '@tanstack/react-router';
import { Crown, Users } from 'lucide-react';
import type { MySubscriptionDto } from '../../../common/billing-dtos';
import { formatRand } from '../../../common/format';
import { BILLING_TEXTS } from '../../../common/texts';
import { EmptyState } from '../../components/empty-state';
import { Loaded } from '../../components/load-states';
import { Avatar } from '../../components/ui/avatar';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { cn } from '../../lib/cn';
import { formatCalendarDate } from '../../lib/format';
import { notify } from '../../lib/toast';
import { errorCode, isServerError, trpc } from '../../lib/trpc';
import { intervalUnit } from '../../lib/tier-price';

type MySubscription = MySubscriptionDto;

/** The status line: renews on, ends on, payment failed (grace), ended. */
function statusLine(s: MySubscription): { text: string; tone: 'ok' | 'warn' | 'muted' } {
  const date = formatCalendarDate(s.currentPeriodEnd);
  switch (s.status) {
    case 'active':
      return { text: s.nextTier ? `Renews on ${date} as ${s.nextTier.name}` : `Renews on ${date}`, tone: 'ok' };
    case 'canceling':
      return { text: `Ends on ${date}`, tone: 'warn' };
    case 'past_due':
      return { text: `Payment failed: access until ${formatCalendarDate(s.graceUntil ?? s.currentPeriodEnd)}`, tone: 'warn' };
    default:
      return { text: `Ended on ${date}`, tone: 'muted' };
  }
}

/**
 * The body of /settings/account/subscriptions (issue 11 item 7): the fan's subscriptions, each
 * with its creator, tier, price and when it renews or ends. Cancel (after a confirmation) keeps
 * access to the end of the paid period; Resume undoes it before then. The route frames it
 * (heading, Back to /settings/account).
 */
export function MySubscriptions() {
  const mine = trpc.subscriptions.mine.useQuery();
  return (
    <Loaded query={mine} loading="Loading subscriptions" failed={BILLING_TEXTS.loadFailed} rows={2} rowClassName="h-28 w-full rounded-card" placeholderClassName="gap-3">
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

function SubscriptionRow({ subscription: s }: { subscription: MySubscription }) {
  const utils = trpc.useUtils();
  const cancel = trpc.subscriptions.cancel.useMutation();
  const resume = trpc.subscriptions.resume.useMutation();
  const name = s.creator ? s.creator.displayName || s.creator.username : 'Premium';
  const status = statusLine(s);
  const live = s.status !== 'ended';

  const settle = (updated: MySubscription) => {
    utils.subscriptions.mine.setData(undefined, (list) => list?.map((x) => (x.id === updated.id ? updated : x)));
    void utils.subscriptions.mine.invalidate();
    void utils.subscriptions.subscribePage.invalidate();
  };

  const onCancel = async () => {
    try {
      const updated = await cancel.mutateAsync({ id: s.id });
      settle(updated);
      notify.success({ title: BILLING_TEXTS.canceled(formatCalendarDate(updated.currentPeriodEnd)) });
    } catch (error) {
      notify.error({ title: 'Error', description: isServerError(error) && errorCode(error) !== 'INTERNAL_SERVER_ERROR' ? error.message : 'Failed to cancel subscription' });
    }
  };

  const onResume = async () => {
    try {
      settle(await resume.mutateAsync({ id: s.id }));
      notify.success({ title: BILLING_TEXTS.resumed });
    } catch (error) {
      notify.error({ title: 'Error', description: isServerError(error) && errorCode(error) !== 'INTERNAL_SERVER_ERROR' ? error.message : 'Failed to resume subscription' });
    }
  };

  return (
    <li
      aria-label={`${name}, ${s.tier.name}`}
      className={cn('flex flex-col gap-4 rounded-card border border-border bg-surface p-4 sm:flex-row sm:items-center md:p-5', !live && 'opacity-75')}
    >
      <div className="flex min-w-0 flex-1 items-center gap-3">
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
          <p className="text-sm text-muted">
            {formatRand(s.tier.discountedPrice)} / {intervalUnit(s.tier.paymentInterval)}
          </p>
          <p
            data-testid="subscription-status"
            className={cn('text-sm font-medium', status.tone === 'ok' ? 'text-emerald-300' : status.tone === 'warn' ? 'text-amber-300' : 'text-subtle')}
          >
            {status.text}
          </p>
        </div>
      </div>
      {s.status === 'active' || s.status === 'past_due' ? (
        <ConfirmDialog
          title={`Cancel your subscription to ${name}?`}
          description={`You keep access until ${formatCalendarDate(s.currentPeriodEnd)}; after that it ends and you are not charged again.`}
          confirmLabel="Cancel subscription"
          cancelLabel="Keep it"
          onConfirm={onCancel}
          trigger={
            <Button variant="secondary" className="shrink-0">
              Cancel
            </Button>
          }
        />
      ) : s.status === 'canceling' ? (
        <Button className="shrink-0" onClick={() => void onResume()} loading={resume.isPending}>
          Resume
        </Button>
      ) : null}
    </li>
  );
}
