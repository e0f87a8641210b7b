import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { Link } from '@tanstack/react-router';
import { Check, ChevronDown } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { MySubscriptionDto } from '../../../common/billing-dtos';
import { BILLING_TEXTS, PROFILE_TEXTS } from '../../../common/texts';
import { LoadError, LoadingPlaceholder } from '../../components/load-states';
import { Button, buttonClasses } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { formatCalendarDate } from '../../lib/format';
import { trpc } from '../../lib/trpc';
import { intervalUnit } from '../../lib/tier-price';
import { PastDueNotice, priceLine, statusLine, SubscriptionActions } from './subscription-actions';
import { DETAIL_LIST_CLASS, DetailRow } from './detail-row';

/**
 * The profile's Subscribed pill (issue 22 item 9): one click opens the viewer's subscription to
 * this creator: tier, price, next renewal (or end) date, what to do after a failed renewal, and
 * Cancel (asks first) / Resume / Resubscribe, as on /settings/account/subscriptions. Radix
 * AlertDialog: focus is trapped inside and goes back to the pill; Escape or Close closes it.
 */
export function SubscriptionPill({ creator }: { creator: { id: string; name: string } }) {
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger asChild>
        <button
          type="button"
          data-testid="subscribed"
          aria-haspopup="dialog"
          className={buttonClasses({ variant: 'secondary', className: 'text-emerald-300 hover:text-emerald-200' })}
        >
          <Check aria-hidden="true" className="size-4" />
          {PROFILE_TEXTS.subscribed}
          <ChevronDown aria-hidden="true" className="size-4 text-muted" />
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/70 backdrop-blur-sm" />
        <AlertDialog.Content
          data-testid="subscription-dialog"
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 flex-col gap-5 overflow-y-auto rounded-card border border-border bg-surface-raised p-5 shadow-2xl shadow-black/60 md:p-6"
        >
          <AlertDialog.Title className="text-lg font-semibold tracking-tight break-words text-foreground">
            Your subscription to {creator.name}
          </AlertDialog.Title>
          {open ? <SubscriptionDetails creatorId={creator.id} /> : null}
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** Where every state of the dialog ends: all subscriptions on the left, Close and the action on the right. */
function Footer({ action }: { action?: ReactNode }) {
  return (
    // the buttons on a row of their own: beside the link, "Cancel subscription" ran out of the dialog
    <div className="flex flex-col-reverse gap-3">
      <Link
        to="/settings/account/subscriptions"
        className="text-center text-sm font-medium whitespace-nowrap text-violet-300 underline-offset-4 hover:underline"
      >
        All your subscriptions
      </Link>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <AlertDialog.Cancel asChild>
          <Button variant="secondary">Close</Button>
        </AlertDialog.Cancel>
        {action}
      </div>
    </div>
  );
}

/** The latest subscription to the creator (the list comes active first), read when the dialog opens. */
function SubscriptionDetails({ creatorId }: { creatorId: string }) {
  const mine = trpc.subscriptions.mine.useQuery();
  if (mine.isError && !mine.data) {
    return (
      <>
        <AlertDialog.Description asChild>
          <div>
            <LoadError compact message={BILLING_TEXTS.loadFailed} onRetry={() => void mine.refetch()} />
          </div>
        </AlertDialog.Description>
        <Footer />
      </>
    );
  }
  if (!mine.data) {
    return (
      <>
        <AlertDialog.Description asChild>
          <div>
            <LoadingPlaceholder label="Loading your subscription" rows={3} rowClassName="h-6 w-full" className="gap-3" />
          </div>
        </AlertDialog.Description>
        <Footer />
      </>
    );
  }
  const s = mine.data.find((x) => x.creator?.id === creatorId);
  if (!s) {
    return (
      <>
        <AlertDialog.Description className="text-sm text-muted">{BILLING_TEXTS.subscriptionNotFound}</AlertDialog.Description>
        <Footer />
      </>
    );
  }
  return <Details subscription={s} />;
}

function Details({ subscription: s }: { subscription: MySubscriptionDto }) {
  const status = statusLine(s);
  const dateLabel = { active: s.trialEndsAt ? 'First charge' : 'Next renewal', past_due: 'Renewal due', canceling: 'Access until', ended: 'Ended on' }[s.status];
  return (
    <>
      <AlertDialog.Description
        data-testid="subscription-status"
        className={cn('text-sm font-medium', status.tone === 'ok' ? 'text-emerald-300' : status.tone === 'warn' ? 'text-amber-300' : 'text-subtle')}
      >
        {status.text}
      </AlertDialog.Description>
      <dl className={DETAIL_LIST_CLASS}>
        <DetailRow label="Plan" value={s.tier.name} testId="subscription-tier" />
        <DetailRow label="Price" value={priceLine(s, intervalUnit(s.tier.paymentInterval))} testId="subscription-price" />
        <DetailRow label={dateLabel} value={formatCalendarDate(s.currentPeriodEnd)} testId="subscription-date" />
        {s.nextTier ? <DetailRow label="From then" value={s.nextTier.name} /> : null}
      </dl>
      <PastDueNotice subscription={s} />
      <Footer action={<SubscriptionActions subscription={s} cancelLabel="Cancel subscription" />} />
    </>
  );
}
