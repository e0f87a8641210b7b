import { TRPCError } from '@trpc/server';
import type { SetBundlesInput, TierBundleDto } from '../../../common/bundle-schemas';
import { BUNDLE_TEXTS } from '../../../common/bundle-texts';
import { BILLING_TEXTS } from '../../../common/texts';
import type { AppDeps } from '../../../core/deps';
import { bundleOffersByTier, takesBundles } from '../../../domain/billing/bundles';
import { findBundles } from '../../../domain/billing/bundles.queries';
import { fieldError } from '../../trpc/errors';
import { findCreatorTierPrices, findOwnTier, replaceTierBundles } from './bundles.queries';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** The caller's bundles on all their tiers (the tier manager's). */
export async function listMyBundles(deps: Deps, creatorId: string): Promise<TierBundleDto[]> {
  const [tiers, rows] = await Promise.all([findCreatorTierPrices(deps.db, creatorId), findBundles(deps.db, { creatorId })]);
  return [...bundleOffersByTier(tiers, rows)].flatMap(([tierId, list]) => list.map((b) => ({ tierId, ...b })));
}

/**
 * Sets one of the caller's tiers' bundles (issue 27 item 5): another creator's tier is not found,
 * an archived one takes none (nobody new can buy it), nor an annual one (./domain/billing/bundles.ts).
 * Fans who bought a bundle keep the price they agreed to; a lower bundle price reaches them at renewal.
 */
export async function setBundles(deps: Deps, creatorId: string, input: SetBundlesInput): Promise<TierBundleDto[]> {
  const tier = await findOwnTier(deps.db, creatorId, input.tierId);
  if (!tier) throw new TRPCError({ code: 'NOT_FOUND', message: BILLING_TEXTS.tierNotFound });
  if (input.bundles.length > 0 && tier.archived_at) throw fieldError('bundles', BUNDLE_TEXTS.archivedTier);
  if (input.bundles.length > 0 && !takesBundles(tier)) throw fieldError('bundles', BUNDLE_TEXTS.annualNotAllowed);
  await replaceTierBundles(deps.db, tier.id, input.bundles, deps.clock.now());
  return (await listMyBundles(deps, creatorId)).filter((b) => b.tierId === tier.id);
}
