import { Link } from '@tanstack/react-router';
import { ShieldAlert } from 'lucide-react';
import { SELLING_TEXTS, VERIFICATION_PATH, type SaleKind } from '../../common/selling';
import { cn } from '../lib/cn';
import { trpc } from '../lib/trpc';

/**
 * Whether the signed-in user may sell (issue 47 item 1): the server's rule, read from
 * `settings.verification`. Undefined while it loads (or when `enabled` is false): the screens then
 * show no notice, and the server still refuses a sale it does not allow.
 */
export function useMaySell(enabled = true): boolean | undefined {
  const status = trpc.settings.verification.useQuery(undefined, { enabled, staleTime: 30_000 });
  return enabled ? status.data?.identity.verified : undefined;
}

/**
 * What is missing before this sale, and the link to where it is done: beside a tier form, a post's
 * price, a message's price. The same words as the server's refusal.
 */
export function VerifyToSellNotice({ sale, className }: { sale: SaleKind; className?: string }) {
  return (
    <div role="note" aria-label={SELLING_TEXTS.noticeTitle} className={cn('flex gap-3 rounded-xl border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-50', className)}>
      <ShieldAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-300" />
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-semibold text-foreground">{SELLING_TEXTS.noticeTitle}</p>
        <p>{SELLING_TEXTS.verifyFirst(sale)}</p>
        <Link to={VERIFICATION_PATH} className="self-start font-medium text-violet-200 underline underline-offset-4 hover:text-violet-100">
          {SELLING_TEXTS.noticeLink}
        </Link>
      </div>
    </div>
  );
}
