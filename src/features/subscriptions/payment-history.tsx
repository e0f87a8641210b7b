import { Link } from '@tanstack/react-router';
import { FileText, Receipt } from 'lucide-react';
import { formatSignedRand } from '../../../common/format';
import { PaymentLabelPill } from '../../components/payment-label';
import { BILLING_TEXTS } from '../../../common/texts';
import { WALLET_TEXTS } from '../../../common/wallet-texts';
import { LoadError, LoadingPlaceholder } from '../../components/load-states';
import { cn } from '../../lib/cn';
import { formatCalendarDate, isoString } from '../../lib/format';
import { trpc } from '../../lib/trpc';

/** Who took the money, said plainly (issue 11 item 6: the built-in provider charges no card). */
const PROVIDER_NOTE: Record<string, string> = { builtin: 'test payment, no card charged', stripe: 'paid with Stripe' };

/**
 * The payment screen's Payment History box (spec part 2 §2): the signed-in user's own charges
 * from the payments ledger, newest first, or 'No payment history available'. A charge says Paid,
 * Refunded, Partly refunded or Disputed from its reversal rows; refunds and chargebacks are rows
 * of their own, with the money going back shown as a negative amount (docs/payments.md). Every
 * charge that took money links to its numbered receipt (issue 47 item 6).
 */
export function PaymentHistory() {
  const history = trpc.payments.history.useQuery();
  return (
    <section aria-labelledby="payment-history-heading" className="rounded-card border border-border bg-surface p-5 md:p-6">
      <div className="flex items-center gap-2">
        <Receipt aria-hidden="true" className="size-5 text-violet-300" />
        <h2 id="payment-history-heading" className="text-lg font-semibold tracking-tight">
          Payment History
        </h2>
      </div>
      {history.isError && !history.data ? (
        <LoadError compact message="Payment history could not be loaded." onRetry={() => void history.refetch()} className="mt-4" />
      ) : !history.data ? (
        <LoadingPlaceholder label="Loading payment history" rows={2} rowClassName="h-12 w-full" className="mt-4 gap-3" />
      ) : history.data.length === 0 ? (
        <p className="mt-4 text-sm text-muted">{BILLING_TEXTS.noPaymentHistory}</p>
      ) : (
        <ul aria-label="Payments" className="mt-4 divide-y divide-border">
          {history.data.map((payment) => (
            <li key={payment.id} data-testid="payment-row" className="flex items-start gap-4 py-3 first:pt-0 last:pb-0">
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words text-foreground">{payment.description || 'Subscription payment'}</p>
                <p className="text-xs text-subtle">
                  <time dateTime={isoString(payment.createdAt)}>{formatCalendarDate(payment.createdAt)}</time>
                  {PROVIDER_NOTE[payment.provider] ? ` · ${PROVIDER_NOTE[payment.provider]}` : ''}
                </p>
                {payment.receiptNumber ? (
                  <Link
                    to="/settings/account/payment/receipts/$paymentId"
                    params={{ paymentId: payment.id }}
                    className="mt-1 inline-flex items-center gap-1 rounded text-xs font-medium text-violet-300 underline-offset-2 hover:text-violet-200 hover:underline focus-visible:ring-2 focus-visible:ring-accent/60 focus-visible:outline-none"
                  >
                    <FileText aria-hidden="true" className="size-3.5" />
                    {`${WALLET_TEXTS.receipt} ${payment.receiptNumber}`}
                  </Link>
                ) : null}
              </div>
              <div className="flex shrink-0 flex-col items-end gap-1 sm:flex-row-reverse sm:items-center sm:gap-4">
                <span className={cn('font-semibold tabular-nums sm:w-24 sm:text-right', payment.kind === 'charge' ? 'text-foreground' : 'text-muted')}>
                  {formatSignedRand(payment.amount)}
                </span>
                <PaymentLabelPill label={payment.label} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
