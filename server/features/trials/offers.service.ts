import { TRPCError } from '@trpc/server';
import type { CreateOfferInput, OfferDto } from '../../../common/trial-schemas';
import { OFFER_TEXTS, TRIAL_TEXTS } from '../../../common/trial-texts';
import type { AppDeps } from '../../../core/deps';
import { DAY_MS } from '../../../domain/billing/periods';
import { fieldError } from '../../trpc/errors';
import { endOffer, findOffers, insertOffer, type OfferRow } from './offers.queries';
import { findOwnLiveTier } from './trials.queries';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

const toDto = (r: OfferRow): OfferDto => ({
  id: r.id, tierId: r.tier_id, tierName: r.tier_name, audience: r.audience, percent: r.percent, startsAt: r.starts_at, endsAt: r.ends_at, disabledAt: r.disabled_at,
});

/** A creator's offer: on one of their own live tiers (or all), ending after it starts, within a year. */
export async function createOffer(deps: Deps, creatorId: string, input: CreateOfferInput): Promise<OfferDto> {
  const now = deps.clock.now();
  if (input.tierId && !(await findOwnLiveTier(deps.db, creatorId, input.tierId))) throw new TRPCError({ code: 'NOT_FOUND', message: TRIAL_TEXTS.tierNotFound });
  if (input.endsAt.getTime() <= Math.max(now.getTime(), input.startsAt.getTime()) || input.endsAt.getTime() > now.getTime() + 366 * DAY_MS) {
    throw fieldError('endsAt', OFFER_TEXTS.datesInvalid);
  }
  const { id } = await insertOffer(deps.db, { creatorId, ...input, at: now });
  return toDto((await findOffers(deps.db, creatorId, id))[0]!);
}

export async function listOffers(deps: Deps, creatorId: string): Promise<OfferDto[]> {
  return (await findOffers(deps.db, creatorId)).map(toDto);
}

export async function disableOffer(deps: Deps, creatorId: string, id: string): Promise<OfferDto> {
  if (!(await endOffer(deps.db, creatorId, id, deps.clock.now()))) throw new TRPCError({ code: 'NOT_FOUND', message: OFFER_TEXTS.notFound });
  return toDto((await findOffers(deps.db, creatorId, id))[0]!);
}
