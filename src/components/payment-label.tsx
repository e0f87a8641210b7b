import type { PaymentLabel } from '../../common/billing-dtos';
import { PAYMENT_LABEL_TEXTS } from '../../common/payment-texts';
import { cn } from '../lib/cn';

const LABEL_STYLE: Record<PaymentLabel, string> = {
  paid: 'bg-emerald-500/10 text-emerald-300 ring-emerald-400/30',
  failed: 'bg-rose-500/10 text-rose-300 ring-rose-400/30',
  refunded: 'bg-surface-raised text-muted ring-border-strong',
  'partly-refunded': 'bg-amber-500/10 text-amber-200 ring-amber-400/30',
  disputed: 'bg-rose-500/10 text-rose-300 ring-rose-400/30',
  refund: 'bg-surface-raised text-muted ring-border-strong',
  chargeback: 'bg-rose-500/10 text-rose-300 ring-rose-400/30',
  'dispute-won': 'bg-emerald-500/10 text-emerald-300 ring-emerald-400/30',
};

/** A ledger row's state as a pill: Paid, Refunded, Partly refunded, Disputed, Refund, ... */
export function PaymentLabelPill({ label, className }: { label: PaymentLabel; className?: string }) {
  return (
    <span data-testid="payment-label" className={cn('rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1', LABEL_STYLE[label], className)}>
      {PAYMENT_LABEL_TEXTS[label]}
    </span>
  );
}
