import { randomBytes } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import {
  TRIAL_MAX_EXPIRY_DAYS,
  type ClaimTrialInput,
  type ClaimTrialResultDto,
  type CreateTrialLinkInput,
  type TrialLinkDto,
  type TrialLinkPageDto,
  type TrialListInput,
  type TrialOfferDto,
} from '../../../common/trial-schemas';
import { toCents } from '../../../common/money';
import { TRIAL_TEXTS } from '../../../common/trial-texts';
import type { AppDeps } from '../../../core/deps';
import type { Realtime } from '../../../core/realtime/realtime';
import { applyBillingEffects } from '../../../domain/billing/effects';
import { DAY_MS } from '../../../domain/billing/periods';
import { claimTrial as claimTrialSubscription, viewTrial as viewTrialOffer } from '../../../domain/billing/trial';
import { earningsPolicy } from '../../../domain/earnings/policy';
import { fieldError, paymentFailed } from '../../trpc/errors';
import { disableTrialLink, findOwnLiveTier, findTrialLink, findTrialLinks, insertTrialLink, TRIAL_PAGE, type TrialLinkListRow } from './trials.queries';

type Deps = Pick<AppDeps, 'db' | 'config' | 'queues' | 'log' | 'payments' | 'clock'> & { realtime: Realtime };

const toDto = (r: TrialLinkListRow): TrialLinkDto => ({
  id: r.id,
  code: r.code,
  tierId: r.tier_id,
  tierName: r.tier_name,
  days: r.days,
  maxClaims: r.max_claims,
  claims: r.claims,
  expiresAt: r.expires_at,
  disabledAt: r.disabled_at,
  createdAt: r.created_at,
});

/** A creator's new link: of their own live tier, expiring in the future (within a year). The code is random and unguessable. */
export async function createTrialLink(deps: Pick<Deps, 'db' | 'clock'>, creatorId: string, input: CreateTrialLinkInput): Promise<TrialLinkDto> {
  const now = deps.clock.now();
  if (!(await findOwnLiveTier(deps.db, creatorId, input.tierId))) throw new TRPCError({ code: 'NOT_FOUND', message: TRIAL_TEXTS.tierNotFound });
  if (input.expiresAt.getTime() <= now.getTime() || input.expiresAt.getTime() > now.getTime() + TRIAL_MAX_EXPIRY_DAYS * DAY_MS) {
    throw fieldError('expiresAt', TRIAL_TEXTS.expiresInvalid);
  }
  const code = randomBytes(12).toString('base64url');
  const { id } = await insertTrialLink(deps.db, { creatorId, tierId: input.tierId, code, days: input.days, maxClaims: input.maxClaims, expiresAt: input.expiresAt, at: now });
  return toDto((await findTrialLink(deps.db, creatorId, id))!);
}

/** The creator's links, newest first, with how many fans claimed each. */
export async function listTrialLinks(deps: Pick<Deps, 'db'>, creatorId: string, input: TrialListInput): Promise<TrialLinkPageDto> {
  const after = input.cursor ? { createdAt: new Date(input.cursor.split('|')[0]!), id: input.cursor.split('|')[1]! } : null;
  const rows = await findTrialLinks(deps.db, creatorId, after);
  const page = rows.slice(0, TRIAL_PAGE);
  const last = page.at(-1);
  return { links: page.map(toDto), nextCursor: rows.length > TRIAL_PAGE && last ? `${last.created_at.toISOString()}|${last.id}` : null };
}

/** Nobody can claim it any more; fans who did keep their trial. Another creator's id is not found. */
export async function disableTrial(deps: Pick<Deps, 'db' | 'clock'>, creatorId: string, id: string): Promise<TrialLinkDto> {
  if (!(await disableTrialLink(deps.db, creatorId, id, deps.clock.now()))) throw new TRPCError({ code: 'NOT_FOUND', message: TRIAL_TEXTS.notFound });
  return toDto((await findTrialLink(deps.db, creatorId, id))!);
}

function trialFailed(error: unknown, deps: Deps): never {
  paymentFailed(deps.log, error, { message: TRIAL_TEXTS.claimFailed, logged: 'trial claim failed' });
}

export async function viewTrial(deps: Deps, viewerId: string | null, code: string): Promise<TrialOfferDto> {
  try {
    return await viewTrialOffer({ db: deps.db, clock: deps.clock, provider: deps.payments }, viewerId, code);
  } catch (error) {
    trialFailed(error, deps);
  }
}

/** Starts the fan's free trial (domain/billing/trial.ts); their tabs hear `entitlement:changed` after the commit. */
export async function claimTrial(deps: Deps, userId: string, input: ClaimTrialInput): Promise<ClaimTrialResultDto> {
  try {
    const billing = { db: deps.db, provider: deps.payments, clock: deps.clock, appUrl: deps.config.appUrl, earnings: earningsPolicy(deps.config) };
    const { result, effects } = await claimTrialSubscription(billing, { userId, code: input.code, confirmedCents: toCents(input.confirmedAmount) });
    await applyBillingEffects(deps, effects);
    return result;
  } catch (error) {
    trialFailed(error, deps);
  }
}
