import { formatRand } from '../../../common/format';
import { POST_UNLOCK_TEXTS as T } from '../../../common/post-unlock-texts';
import { trpc } from '../../lib/trpc';

/** The creator's view of their pay-per-view post: how many fans hold an unlock, and the revenue net of refunds (lazy: owners only). */
export default function UnlockStats({ postId, price }: { postId: string; price: string }) {
  const stats = trpc.postUnlocks.stats.useQuery({ postId });
  return (
    <p data-testid="unlock-stats" className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg border border-violet-400/25 bg-violet-500/10 px-3 py-2 text-sm text-violet-100">
      <span className="font-semibold">{T.payPerView}</span>
      <span aria-hidden="true">·</span>
      <span>{formatRand(price)}</span>
      <span aria-hidden="true">·</span>
      {stats.data ? (
        <span>
          {T.unlocks(stats.data.unlocks)} · {formatRand(stats.data.revenue)} earned
        </span>
      ) : (
        <span className="h-4 w-32 animate-pulse rounded bg-violet-300/20" aria-label="Loading unlocks" />
      )}
    </p>
  );
}
