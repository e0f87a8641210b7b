import { formatRand } from '../../../common/format';
import { toCents } from '../../../common/money';
import { EARNINGS_TEXTS } from '../../../common/earnings-texts';
import { trpc } from '../../lib/trpc';

/**
 * Under the Delete Account dialog's own words, for a creator with money in the ledger: what
 * happens to it (issue 26). The server pays the whole available balance out in the deletion's
 * transaction when the payout account has payouts enabled and no payout is already on its way
 * (domain/billing/account-deletion.ts); otherwise it stays with the platform. Pending earnings
 * are never paid out after deletion. Read only while the dialog is open, only for a creator.
 */
export function DeletionBalanceNote({ enabled }: { enabled: boolean }) {
  const summary = trpc.earnings.summary.useQuery(undefined, { enabled });
  const s = summary.data;
  if (!enabled || !s) return null;
  const available = toCents(s.available);
  const pending = toCents(s.pending);
  const paidOut = s.account.status === 'enabled' && toCents(s.onItsWay) === 0;
  const lines: string[] = [];
  if (available > 0) lines.push(paidOut ? EARNINGS_TEXTS.deletionPayout(formatRand(s.available)) : EARNINGS_TEXTS.deletionForfeit(formatRand(s.available)));
  if (pending > 0) lines.push(EARNINGS_TEXTS.deletionPending(formatRand(s.pending)));
  if (!lines.length) return null;
  return (
    <div data-testid="deletion-balance-note" className="flex flex-col gap-1 text-sm text-foreground">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}
