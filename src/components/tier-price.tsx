import type { PaymentInterval } from '../../common/enums';
import { cn } from '../lib/cn';
import { tierPriceView } from '../lib/tier-price';

/**
 * The type scale of each place a price line stands: a tier manager row, a subscribe page card,
 * the payment screen's plan, the Premium card's headline.
 */
const LOOKS = {
  row: { line: 'text-sm', was: 'text-subtle', now: 'font-semibold text-foreground', per: 'text-muted', off: 'font-medium text-emerald-300' },
  card: { line: '', was: 'text-base text-subtle', now: 'text-3xl font-bold tracking-tight text-foreground', per: 'text-sm text-muted', off: 'text-sm font-semibold text-emerald-300' },
  plan: { line: '', was: 'text-subtle', now: 'text-3xl font-bold tracking-tight text-foreground', per: 'text-muted', off: 'text-sm font-semibold text-emerald-300' },
  hero: { line: '', was: 'text-subtle', now: 'text-4xl font-bold tracking-tight text-foreground', per: 'text-muted', off: 'text-sm font-semibold text-emerald-300' },
} as const;

/**
 * A tier's price line (spec part 2 §2, §9): what a fan pays per interval; with a discount, the
 * struck-through list price before it and '(N% off)' after, as lib/tier-price reckons them (the
 * server's discount rule). Screen readers hear 'Regular price R50.00, now R40.00'.
 */
export function TierPrice({
  tier,
  look,
  testId,
  className,
}: {
  tier: { price: string | number; paymentInterval: PaymentInterval; discountPercentage?: number | null };
  look: keyof typeof LOOKS;
  testId: string;
  /** the line's margins */
  className?: string;
}) {
  const price = tierPriceView(tier);
  const style = LOOKS[look];
  return (
    <p className={cn('flex flex-wrap items-baseline gap-x-2 gap-y-1', style.line, className)} data-testid={testId}>
      {price.was ? (
        <>
          <span className="sr-only">Regular price</span>
          <s className={style.was}>{price.was}</s>
          <span className="sr-only">, now</span>
        </>
      ) : null}
      <span className={style.now}>{price.now}</span>
      <span className={style.per}>{price.per}</span>
      {price.off ? <span className={style.off}>{price.off}</span> : null}
    </p>
  );
}
