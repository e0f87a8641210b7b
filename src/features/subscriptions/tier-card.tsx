import { Check } from 'lucide-react';
import type { ReactNode } from 'react';
import type { PublicTierDto } from '../../../common/billing-dtos';
import { TierPrice } from '../../components/tier-price';
import { Button } from '../../components/ui/button';
import { formatRand } from '../../../common/format';
import { cn } from '../../lib/cn';
import { formatCalendarDate } from '../../lib/format';
import { useDisplayZone } from '../../lib/use-display-zone';

const intervalNoun = (i: PublicTierDto['paymentInterval']) => (i === 'weekly' ? 'week' : i === 'monthly' ? 'month' : 'year');

/** What the card's button does: subscribe, is busy, is the fan's plan, or cannot be pressed now. */
export type TierCardState = 'idle' | 'pending' | 'current' | 'blocked';

interface TierCardProps {
  tier: PublicTierDto;
  state: TierCardState;
  /** the button's words when idle: 'Subscribe', or 'Switch at renewal' for a subscribed fan */
  actionLabel: string;
  onSubscribe: () => void;
  /** a line under the button (e.g. the plan's renewal date for the fan's own tier) */
  footnote?: string | null;
  /** more ways to buy the tier under the button (its bundles) */
  children?: ReactNode;
}

/**
 * One tier on the subscribe page (spec part 2 §2): name, price per interval, description and
 * Subscribe ('Processing...' while pending); a discount reads as TierPrice shows it.
 */
export function TierCard({ tier, state, actionLabel, onSubscribe, footnote, children }: TierCardProps) {
  const headingId = `tier-${tier.id}`;
  const zone = useDisplayZone();
  return (
    <article
      aria-labelledby={headingId}
      className={cn(
        'flex flex-col rounded-card border bg-surface p-5 shadow-xl shadow-black/30 md:p-6',
        state === 'current' ? 'border-emerald-400/50' : 'border-border',
      )}
    >
      <h3 id={headingId} className="text-lg font-semibold tracking-tight text-foreground">
        {tier.name}
      </h3>
      <TierPrice tier={tier} look="card" testId="tier-price" className="mt-3" />
      {tier.offer ? (
        <p className="mt-2 rounded-xl border border-emerald-400/30 bg-emerald-500/10 px-3 py-2 text-sm text-emerald-100" data-testid="tier-offer">
          <strong className="font-semibold">{tier.offer.percent}% off your first {intervalNoun(tier.paymentInterval)}</strong>
          {tier.offer.audience === 'expired' ? ' — welcome back' : ' for new fans'}: <s className="text-emerald-200/70">{formatRand(tier.discountedPrice)}</s>{' '}
          <strong className="font-semibold">{formatRand(tier.offer.price)}</strong>, then {formatRand(tier.discountedPrice)}. Until {formatCalendarDate(tier.offer.endsAt, zone)}.
        </p>
      ) : null}
      {tier.description ? <p className="mt-3 text-sm whitespace-pre-line text-muted">{tier.description}</p> : null}
      <div className="mt-auto pt-5">
        {state === 'current' ? (
          <p className="inline-flex h-10 w-full items-center justify-center gap-2 rounded-full border border-emerald-400/40 bg-emerald-500/10 text-sm font-semibold text-emerald-300">
            <Check aria-hidden="true" className="size-4" />
            Subscribed
          </p>
        ) : (
          <Button
            className="w-full"
            onClick={onSubscribe}
            disabled={state !== 'idle'}
            aria-busy={state === 'pending' || undefined}
            aria-describedby={headingId}
          >
            {state === 'pending' ? 'Processing...' : actionLabel}
          </Button>
        )}
        {footnote ? <p className="mt-2 text-center text-xs text-subtle">{footnote}</p> : null}
        {children}
      </div>
    </article>
  );
}
