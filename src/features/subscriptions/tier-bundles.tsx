import { Package } from 'lucide-react';
import type { PublicTierDto } from '../../../common/billing-dtos';
import type { BundleOfferDto } from '../../../common/bundle-schemas';
import { BUNDLE_TEXTS } from '../../../common/bundle-texts';
import { formatRand } from '../../../common/format';
import { Button } from '../../components/ui/button';

/**
 * A tier's bundles on the subscribe page (issue 27 item 5): each length with its total and what it
 * saves against single periods, as the server priced them; choosing one opens the same
 * confirmation as Subscribe. Shown only to a fan who can start a subscription now.
 */
export function TierBundles({
  tier,
  disabled,
  onChoose,
}: {
  tier: Pick<PublicTierDto, 'name' | 'paymentInterval' | 'offer'> & { bundles: BundleOfferDto[] };
  disabled: boolean;
  onChoose: (bundle: BundleOfferDto) => void;
}) {
  return (
    <div className="mt-4 flex flex-col gap-2" data-testid="tier-bundles">
      <p className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-subtle uppercase">
        <Package aria-hidden="true" className="size-3.5" />
        {BUNDLE_TEXTS.heading}
      </p>
      <ul className="flex flex-col gap-2">
        {tier.bundles.map((b) => {
          const length = BUNDLE_TEXTS.length(b.periods, tier.paymentInterval);
          return (
            <li key={b.periods}>
              <Button
                variant="secondary"
                className="h-auto w-full justify-between gap-3 px-4 py-2.5 text-left"
                disabled={disabled}
                onClick={() => onChoose(b)}
                aria-label={`${BUNDLE_TEXTS.choose(b.periods, tier.paymentInterval)} of ${tier.name} for ${formatRand(b.total)}, ${BUNDLE_TEXTS.saving(formatRand(b.saving), b.percent)}`}
              >
                <span className="flex flex-col">
                  <span className="font-semibold text-foreground">{length}</span>
                  <span className="text-xs font-normal text-emerald-300">{BUNDLE_TEXTS.saving(formatRand(b.saving), b.percent)}</span>
                </span>
                <span className="font-semibold text-foreground tabular-nums">{formatRand(b.total)}</span>
              </Button>
            </li>
          );
        })}
      </ul>
      {tier.offer ? <p className="text-xs text-subtle">{BUNDLE_TEXTS.noStacking}</p> : null}
    </div>
  );
}
