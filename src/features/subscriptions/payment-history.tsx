import { Receipt } from 'lucide-react';
import { formatRand } from '../../../common/format';
import { BILLING_TEXTS } from '../../../common/texts';
import { LoadError, LoadingPlaceholder } from '../../components/load-states';
import { cn } from '../../lib/cn';
import { formatCalendarDate, isoString } from '../../lib/format';
import { trpc } from '../../lib/trpc';

const STATUS_STYLE: Record<string, string> = {
  succeeded: 'bg-emerald-500/10 text-emerald-300 ring-emerald-400/30',
  failed: 'bg-rose-500/10 text-rose-300 ring-rose-400/30',
  refunded: 'bg-surface-raised text-muted ring-border-strong',
};
const STATUS_LABEL: Record<string, string> = { succeeded: 'Paid', failed: 'Failed', refunded: 'Refunded' };
/** Who took the money, said plainly (issue 11 item 6: the built-in provider charges no card). */
const PROVIDER_NOTE: Record<string, string> = { builtin: 'test payment, no card charged', stripe: 'paid with Stripe' };

/**
 * The payment screen's Payment History box (spec part 2 §2): the signed-in user's own charges
 * from the payments ledger, newest first, or 'No payment history available'.
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
            <li key={payment.id} className="flex items-start gap-4 py-3 first:pt-0 last:pb-0">
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words text-foreground">{payment.description || 'Subscription payment'}</p>
                <p className="text-xs text-subtle">
                  <time dateTime={isoString(payment.createdAt)}>{formatCalendarDate(payment.createdAt)}</time>
                  {PROVIDER_NOTE[payment.provider] ? ` · ${PROVIDER_NOTE[payment.provider]}` : ''}
                </p>
              </div>
              <div className="flex shrink-0 flex-col items-end gap-1 sm:flex-row-reverse sm:items-center sm:gap-4">
                <span className="font-semibold text-foreground tabular-nums sm:w-24 sm:text-right">{formatRand(payment.amount)}</span>
                <span className={cn('rounded-full px-2 py-0.5 text-xs font-medium ring-1', STATUS_STYLE[payment.status] ?? STATUS_STYLE.refunded)}>
                  {STATUS_LABEL[payment.status] ?? payment.status}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
