import type { PaymentProviderName, PublicTierDto } from '../../../common/billing-dtos';
import { periodEnd } from '../../../common/billing-periods';
import type { BundleOfferDto } from '../../../common/bundle-schemas';
import { BUNDLE_TEXTS } from '../../../common/bundle-texts';
import type { PurchaseOffer } from './purchase-offer';

// apart from ./purchase-offer.ts, so the purchase hook's chunk does not carry the bundles' words
/**
 * A bundle: its total charged now, the tier for that many periods; it renews as the same bundle
 * (docs/payments.md, Bundles), so the first renewal is that many periods on. Offers do not apply.
 */
export function bundleOffer(
  tier: Pick<PublicTierDto, 'id' | 'name' | 'paymentInterval'>,
  bundle: Pick<BundleOfferDto, 'periods' | 'total'>,
  creator: { id: string; name: string },
  opts: { now: Date; provider: PaymentProviderName | null },
): PurchaseOffer {
  return {
    item: { kind: 'creator', tierId: tier.id, creatorId: creator.id, bundlePeriods: bundle.periods },
    title: `Subscribe to ${creator.name}`,
    planName: BUNDLE_TEXTS.planName(tier.name, bundle.periods, tier.paymentInterval),
    amountNow: bundle.total,
    confirmedAmount: bundle.total,
    renewal: { amount: bundle.total, every: BUNDLE_TEXTS.length(bundle.periods, tier.paymentInterval), firstAt: periodEnd(opts.now, tier.paymentInterval, bundle.periods) },
    startsAt: null,
    provider: opts.provider,
  };
}
