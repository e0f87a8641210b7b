import { ShieldCheck } from 'lucide-react';
import { BILLING_TEXTS } from '../../../common/texts';
import { cn } from '../../lib/cn';
import { trpc } from '../../lib/trpc';

/**
 * Says who takes the money before anyone pays (issue 11 item 6): the built-in provider records the
 * charge without a card, and says so plainly; Stripe is named when it is the one in use.
 */
export function ProviderNote({ provider, className }: { provider: 'builtin' | 'stripe'; className?: string }) {
  const builtin = provider === 'builtin';
  return (
    <p
      data-testid="provider-note"
      className={cn(
        'inline-flex shrink-0 items-center gap-2 rounded-full border px-3 py-1 text-xs font-medium whitespace-nowrap',
        builtin ? 'border-amber-300/30 bg-amber-400/10 text-amber-200' : 'border-border bg-surface-raised text-muted',
        className,
      )}
    >
      <ShieldCheck aria-hidden="true" className="size-3.5 shrink-0" />
      {builtin ? BILLING_TEXTS.builtinProviderLabel : BILLING_TEXTS.stripeProviderLabel}
    </p>
  );
}

/** The note for the provider this server uses, once it has said which (nothing until then). */
export function CurrentProviderNote({ className }: { className?: string }) {
  const provider = trpc.subscriptions.provider.useQuery();
  return provider.data ? <ProviderNote provider={provider.data.provider} className={className} /> : null;
}
