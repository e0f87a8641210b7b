import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { Link } from '@tanstack/react-router';
import { CreditCard } from 'lucide-react';
import { formatRand } from '../../../common/format';
import { ONE_OFF_PURCHASE_TEXTS } from '../../../common/payment-texts';
import { BILLING_TEXTS } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { DIALOG_BOX_CLASS, DialogActions, DialogHeading, DialogOverlay } from '../../components/ui/dialog-parts';
import { cn } from '../../lib/cn';
import { formatCalendarDate } from '../../lib/format';
import { ProviderNote } from './provider-note';
import type { PurchaseOffer } from './purchase-offer';
import type { Purchase } from './use-purchase';
import { DETAIL_LIST_CLASS, DetailRow } from './detail-row';

/** What the dialog reads of a purchase: a tip's own hook (src/features/tips) gives the same shape without a tier. */
export type ConfirmablePurchase = Pick<Purchase, 'pending' | 'pay' | 'close'> & { offer: Omit<PurchaseOffer, 'item' | 'confirmedAmount'> | null };

/** The sentence a screen reader hears first: what is paid, when, and how often. */
function summary(offer: NonNullable<ConfirmablePurchase['offer']>): string {
  const { renewal } = offer;
  if (offer.startsAt) {
    return renewal
      ? `Nothing is charged now. From ${formatCalendarDate(offer.startsAt)} you pay ${formatRand(renewal.amount)} every ${renewal.every}.`
      : 'Nothing is charged now.';
  }
  const now = `You pay ${formatRand(offer.amountNow)} now`;
  return renewal ? `${now}, then ${formatRand(renewal.amount)} every ${renewal.every} from ${formatCalendarDate(renewal.firstAt)}.` : `${now}.`;
}

/**
 * The one confirmation before a charge (issue 22 item 7), for every purchase (usePurchase):
 * what is charged now, how much each renewal is and how often, the first renewal date, that the
 * fan can cancel any time and keep access to the period end, that fees are non-refundable (the
 * terms' own words), who takes the money, and Pay. Radix AlertDialog: focus is trapped inside
 * and starts on Cancel (Enter alone never pays), Escape and Cancel close it without charging,
 * except while the charge is under way.
 */
export function PurchaseDialog({ purchase }: { purchase: ConfirmablePurchase }) {
  const { offer, pending } = purchase;
  return (
    <AlertDialog.Root open={offer !== null} onOpenChange={(open) => (open ? undefined : purchase.close())}>
      <AlertDialog.Portal>
        <DialogOverlay />
        {offer ? (
          <AlertDialog.Content
            data-testid="purchase-dialog"
            className={cn(DIALOG_BOX_CLASS, 'flex max-h-[calc(100dvh-2rem)] flex-col gap-5 overflow-y-auto')}
            onEscapeKeyDown={(event) => {
              if (pending) event.preventDefault();
            }}
          >
            <DialogHeading icon={CreditCard} tone="accent" title={offer.title} description={summary(offer)} />

            <dl className={DETAIL_LIST_CLASS}>
              <DetailRow label="Plan" value={offer.planName} />
              <DetailRow label="Charged now" value={offer.startsAt ? 'Nothing' : formatRand(offer.amountNow)} testId="charged-now" strong />
              {offer.renewal ? (
                <>
                  <DetailRow label="Each renewal" value={`${formatRand(offer.renewal.amount)} every ${offer.renewal.every}`} testId="renewal-amount" />
                  <DetailRow
                    label={offer.startsAt ? 'First charge' : 'First renewal'}
                    value={formatCalendarDate(offer.renewal.firstAt)}
                    testId="first-renewal"
                  />
                </>
              ) : null}
            </dl>

            <ul className="flex list-disc flex-col gap-1.5 pl-5 text-xs leading-relaxed text-muted marker:text-subtle">
              {offer.renewal ? <li>You can cancel any time. {BILLING_TEXTS.cancelAnyTime}</li> : null}
              <li>
                {/* what renews is a subscription; a post, a message or a tip bought once is no subscription fee */}
                {offer.renewal ? BILLING_TEXTS.nonRefundable : ONE_OFF_PURCHASE_TEXTS.final}{' '}
                <Link to="/terms" hash="subscriptions" className="font-medium text-violet-300 underline underline-offset-4 hover:text-violet-200">
                  Terms of Service
                </Link>
              </li>
            </ul>

            {offer.provider ? <ProviderNote provider={offer.provider} className="self-start" /> : null}

            <DialogActions pending={pending}>
              {/* Not AlertDialog.Action: that would close the dialog before the charge has answered. */}
              <Button loading={pending} onClick={() => void purchase.pay()}>
                {offer.confirmLabel ?? (offer.startsAt ? 'Confirm switch' : `Pay ${formatRand(offer.amountNow)}`)}
              </Button>
            </DialogActions>
          </AlertDialog.Content>
        ) : null}
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
