import { Link } from '@tanstack/react-router';
import { AlertTriangle } from 'lucide-react';
import type { MySubscriptionDto } from '../../../common/billing-dtos';
import { formatRand } from '../../../common/format';
import { BILLING_TEXTS } from '../../../common/texts';
import { trialUntil } from '../../../common/trial-texts';
import { Button, buttonClasses } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { formatCalendarDate } from '../../lib/format';
import { notify } from '../../lib/toast';
import { errorCode, isServerError, trpc } from '../../lib/trpc';
import { PurchaseDialog } from './purchase-dialog';
import { tierOffer } from './purchase-offer';
import { usePurchase } from './use-purchase';

/**
 * What a fan can do with one of their subscriptions, the same on /settings/account/subscriptions
 * and in the profile's subscription dialog (issue 22 item 9): its status in words, what to do
 * when a renewal failed, Cancel (asks first), Resume, and Resubscribe once it ended (through the
 * purchase confirmation).
 */

export const subscriptionName = (s: MySubscriptionDto) => (s.creator ? s.creator.displayName || s.creator.username : 'Premium');

/** The status line: renews on, ends on, payment failed (grace), ended. */
export function statusLine(s: MySubscriptionDto): {
  text: string;
  tone: 'ok' | 'warn' | 'muted';
} {
  const date = formatCalendarDate(s.currentPeriodEnd);
  // a free trial is not a renewal: nothing has been charged yet (issue 47 item 7)
  if (s.trialEndsAt && s.status === 'active') return { text: `First charge on ${date}${s.nextTier ? ` as ${s.nextTier.name}` : ''}`, tone: 'ok' };
  if (s.trialEndsAt && s.status === 'canceling') return { text: `Ends on ${date}: nothing will be charged`, tone: 'warn' };
  switch (s.status) {
    case 'active':
      return {
        text: s.nextTier ? `Renews on ${date} as ${s.nextTier.name}` : `Renews on ${date}`,
        tone: 'ok',
      };
    case 'canceling':
      return { text: `Ends on ${date}`, tone: 'warn' };
    case 'past_due':
      return {
        text: `Payment failed: access until ${formatCalendarDate(s.graceUntil ?? s.currentPeriodEnd)}`,
        tone: 'warn',
      };
    default:
      return { text: `Ended on ${date}`, tone: 'muted' };
  }
}

/** The price line: 'R49.00 / month', or in a free trial 'Free trial until Dec 13, then R49.00 a month'. */
export function priceLine(s: MySubscriptionDto, perPeriod: string): string {
  if (s.trialEndsAt && (s.status === 'active' || s.status === 'canceling')) {
    const then = s.status === 'active' ? { amount: formatRand(s.tier.discountedPrice), interval: s.tier.paymentInterval } : null;
    return trialUntil(formatCalendarDate(s.trialEndsAt), then);
  }
  return `${formatRand(s.tier.discountedPrice)} / ${perPeriod}`;
}

/** A renewal that failed: what happens now and what the fan can do. */
export function PastDueNotice({ subscription: s }: { subscription: MySubscriptionDto }) {
  if (s.status !== 'past_due') return null;
  return (
    <p data-testid="past-due-notice" className="flex gap-2 rounded-card border border-amber-400/30 bg-amber-500/10 px-3 py-2 text-sm text-amber-100">
      <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
      <span>{BILLING_TEXTS.renewalFailed(formatCalendarDate(s.graceUntil ?? s.currentPeriodEnd))}</span>
    </p>
  );
}

export function SubscriptionActions({ subscription: s, cancelLabel = 'Cancel' }: { subscription: MySubscriptionDto; cancelLabel?: string }) {
  const utils = trpc.useUtils();
  const cancel = trpc.subscriptions.cancel.useMutation();
  const resume = trpc.subscriptions.resume.useMutation();
  const purchase = usePurchase();
  const provider = trpc.subscriptions.provider.useQuery();
  const name = subscriptionName(s);

  const settle = (updated: MySubscriptionDto) => {
    utils.subscriptions.mine.setData(undefined, (list) => list?.map((x) => (x.id === updated.id ? updated : x)));
    void utils.subscriptions.mine.invalidate();
    void utils.subscriptions.subscribePage.invalidate();
  };
  const failure = (error: unknown, fallback: string) =>
    notify.error({
      title: 'Error',
      description: isServerError(error) && errorCode(error) !== 'INTERNAL_SERVER_ERROR' ? error.message : fallback,
    });

  const onCancel = async () => {
    try {
      const updated = await cancel.mutateAsync({ id: s.id });
      settle(updated);
      notify.success({
        title: BILLING_TEXTS.canceled(formatCalendarDate(updated.currentPeriodEnd)),
      });
    } catch (error) {
      failure(error, 'Failed to cancel subscription');
    }
  };

  const onResume = async () => {
    try {
      settle(await resume.mutateAsync({ id: s.id }));
      notify.success({ title: BILLING_TEXTS.resumed });
    } catch (error) {
      failure(error, 'Failed to resume subscription');
    }
  };

  if (s.status === 'active' || s.status === 'past_due') {
    return (
      <ConfirmDialog
        title={`Cancel your subscription to ${name}?`}
        description={`You keep access until ${formatCalendarDate(s.currentPeriodEnd)}; after that it ends and you are not charged again.`}
        confirmLabel="Cancel subscription"
        cancelLabel="Keep it"
        onConfirm={onCancel}
        trigger={
          <Button variant="secondary" className="shrink-0">
            {cancelLabel}
          </Button>
        }
      />
    );
  }
  if (s.status === 'canceling') {
    return (
      <Button className="shrink-0" onClick={() => void onResume()} loading={resume.isPending}>
        Resume
      </Button>
    );
  }
  // ended: the same plan again, confirmed first; Premium and a plan new fans can no longer choose go to their pages
  if (!s.creator) {
    return (
      <Link to="/settings/account/payment" search={{ tier: s.tier.id }} className={buttonClasses({ className: 'shrink-0' })}>
        Resubscribe
      </Link>
    );
  }
  if (s.tier.archived) {
    return (
      <Link to="/$username/subscribe" params={{ username: s.creator.username }} className={buttonClasses({ className: 'shrink-0' })}>
        Resubscribe
      </Link>
    );
  }
  const creator = s.creator;
  return (
    <>
      <Button
        className="shrink-0"
        loading={purchase.pending}
        onClick={async () => {
          // a win-back offer may apply to this fan now (issue 27 item 5): the subscribe page's tier carries it
          const page = await utils.subscriptions.subscribePage.fetch({ username: creator.username }).catch(() => null);
          const offer = page?.tiers.find((t) => t.id === s.tier.id)?.offer ?? null;
          purchase.confirm(tierOffer({ ...s.tier, offer }, { id: creator.id, name }, { now: new Date(), provider: provider.data?.provider ?? null }));
        }}
      >
        Resubscribe
      </Button>
      <PurchaseDialog purchase={purchase} />
    </>
  );
}
