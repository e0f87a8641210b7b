import { Link } from '@tanstack/react-router';
import { Download, FileX } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatSignedRand } from '../../../common/format';
import { formatMoney, moneyOfRand } from '../../../common/money';
import type { ReceiptDto } from '../../../common/receipts';
import { RECEIPT_TEXTS, WALLET_TEXTS } from '../../../common/wallet-texts';
import { LoadError, LoadingPlaceholder } from '../../components/load-states';
import { PaymentLabelPill } from '../../components/payment-label';
import { buttonClasses } from '../../components/ui/button';
import { formatLongDateTime, isoString } from '../../lib/format';
import { errorCode, trpc } from '../../lib/trpc';

const REVERSAL_WORDS = { refund: RECEIPT_TEXTS.refund, dispute: RECEIPT_TEXTS.chargeback, dispute_won: RECEIPT_TEXTS.disputeWon } as const;

/**
 * A purchase's receipt in the app (issue 47 item 6): its number, what was bought, from whom, when,
 * how it was paid, the amount, every refund or chargeback since and what that leaves, and
 * Download PDF (the server's own PDF of the same receipt, /receipts/<id>/pdf).
 */
export function ReceiptView({ paymentId }: { paymentId: string }) {
  const receipt = trpc.payments.receipt.useQuery({ paymentId }, { retry: (count, error) => errorCode(error) !== 'NOT_FOUND' && count < 2 });
  if (errorCode(receipt.error) === 'NOT_FOUND') {
    return (
      <section role="alert" className="flex flex-col items-center gap-3 rounded-card border border-border bg-surface px-6 py-12 text-center">
        <FileX aria-hidden="true" className="size-7 text-subtle" />
        <p className="font-semibold text-foreground">{WALLET_TEXTS.receiptNotFound}</p>
        <Link to="/settings/account/payment" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
          {WALLET_TEXTS.backToPayments}
        </Link>
      </section>
    );
  }
  if (receipt.isError && !receipt.data) return <LoadError message={WALLET_TEXTS.receiptLoadFailed} onRetry={() => void receipt.refetch()} />;
  if (!receipt.data) return <LoadingPlaceholder label="Loading receipt" rows={1} rowClassName="h-96 w-full rounded-card" />;
  return <ReceiptCard receipt={receipt.data} />;
}

function ReceiptCard({ receipt }: { receipt: ReceiptDto }) {
  return (
    <article aria-labelledby="receipt-heading" data-testid="receipt" className="flex flex-col gap-5 rounded-card border border-border bg-surface p-5 md:p-6">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-subtle uppercase">{RECEIPT_TEXTS.number}</p>
          <h2 id="receipt-heading" className="text-xl font-semibold tracking-tight tabular-nums">
            {receipt.number}
          </h2>
        </div>
        <a
          href={`/receipts/${receipt.paymentId}/pdf`}
          download={`receipt-${receipt.number}.pdf`}
          className={buttonClasses({ variant: 'secondary', className: 'w-full sm:w-auto' })}
        >
          <Download aria-hidden="true" className="size-4" />
          {WALLET_TEXTS.downloadPdf}
        </a>
      </header>
      <dl className="flex flex-col gap-3 text-sm">
        <Line term={RECEIPT_TEXTS.item}>{receipt.description}</Line>
        <Line term={RECEIPT_TEXTS.seller}>
          {receipt.seller.username ? (
            <Link to="/$username" params={{ username: receipt.seller.username }} className="text-violet-300 underline-offset-2 hover:underline">
              {receipt.seller.name} <span className="text-muted">@{receipt.seller.username}</span>
            </Link>
          ) : (
            receipt.seller.name
          )}
        </Line>
        <Line term={RECEIPT_TEXTS.date}>
          <time dateTime={isoString(receipt.paidAt)}>{formatLongDateTime(receipt.paidAt)}</time>
        </Line>
        <Line term={RECEIPT_TEXTS.billedTo}>
          {receipt.buyer.name} <span className="text-muted">({receipt.buyer.email})</span>
        </Line>
        <Line term={RECEIPT_TEXTS.paidWith}>{receipt.provider === 'builtin' ? RECEIPT_TEXTS.builtinMethod : RECEIPT_TEXTS.stripeMethod}</Line>
        <Line term={RECEIPT_TEXTS.status}>
          <PaymentLabelPill label={receipt.label} />
        </Line>
      </dl>
      <dl data-testid="receipt-amounts" className="flex flex-col gap-2 border-t border-border pt-4 text-sm">
        <Amount term={RECEIPT_TEXTS.amount} value={formatMoney(moneyOfRand(receipt.amount))} strong />
        {receipt.reversals.map((r, index) => (
          <Amount
            key={`${r.kind}-${index}`}
            term={
              <>
                {REVERSAL_WORDS[r.kind]} <span className="text-subtle">· <time dateTime={isoString(r.at)}>{formatLongDateTime(r.at)}</time></span>
              </>
            }
            value={formatSignedRand(r.amount)}
          />
        ))}
        {receipt.reversals.length > 0 ? <Amount term={RECEIPT_TEXTS.net} value={formatMoney(moneyOfRand(receipt.net))} strong /> : null}
      </dl>
    </article>
  );
}

function Line({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 sm:grid sm:grid-cols-[10rem_1fr] sm:gap-6">
      <dt className="text-subtle">{term}</dt>
      <dd className="break-words text-foreground">{children}</dd>
    </div>
  );
}

function Amount({ term, value, strong = false }: { term: ReactNode; value: string; strong?: boolean }) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt className={strong ? 'font-medium text-foreground' : 'text-muted'}>{term}</dt>
      <dd className={strong ? 'text-lg font-semibold tabular-nums text-foreground' : 'tabular-nums text-muted'}>{value}</dd>
    </div>
  );
}
