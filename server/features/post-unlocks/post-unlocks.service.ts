import { TRPCError } from '@trpc/server';
import { fromCents, toCents } from '../../../common/money';
import type { UnlockPostInput } from '../../../common/post-unlock';
import { POST_UNLOCK_TEXTS as T } from '../../../common/post-unlock-texts';
import type { AppDeps } from '../../../core/deps';
import type { Realtime } from '../../../core/realtime/realtime';
import { applyBillingEffects } from '../../../domain/billing/effects';
import { unlockPost as unlockPostCharge } from '../../../domain/billing/post-unlock';
import { earningsPolicy } from '../../../domain/earnings/policy';
import { paymentElsewhere, type PaymentElsewhereDto } from '../../../domain/billing/payment-elsewhere';
import { paymentFailed } from '../../trpc/errors';
import { findPostOwner, findUnlockStats } from './post-unlocks.queries';

type Deps = Pick<AppDeps, 'db' | 'config' | 'queues' | 'log' | 'payments' | 'clock'> & { realtime: Realtime };

export type UnlockResultDto = PaidUnlockDto | PaymentElsewhereDto;

export interface PaidUnlockDto {
  kind: 'paid';
  postId: string;
  amount: string;
  /** the built-in provider: no card was charged */
  testPayment: boolean;
}

export interface UnlockStatsDto {
  postId: string;
  /** fans holding an unlock now */
  unlocks: number;
  /** rand, net of refunds */
  revenue: string;
}

/**
 * Charges the unlock (domain/billing/post-unlock.ts) and, once committed, tells every open tab of
 * the fan (`entitlement:changed` with `{ kind: 'post' }`: the pages holding the creator's posts
 * refetch through the access rule). A repeated request answers the first unlock.
 */
export async function unlockPost(deps: Deps, userId: string, input: UnlockPostInput): Promise<UnlockResultDto> {
  try {
    const outcome = await unlockPostCharge(
      { db: deps.db, provider: deps.payments, clock: deps.clock, appUrl: deps.config.appUrl, earnings: earningsPolicy(deps.config) },
      { userId, postId: input.postId, idempotencyKey: input.idempotencyKey, confirmedCents: toCents(input.confirmedAmount) },
    );
    if (outcome.kind !== 'paid') return paymentElsewhere(outcome);
    await applyBillingEffects(deps, outcome.effects);
    return { kind: 'paid', postId: outcome.result.postId, amount: fromCents(outcome.result.amountCents), testPayment: deps.payments.isTest };
  } catch (error) {
    paymentFailed(deps.log, error, { message: T.failed, logged: 'post unlock failed' });
  }
}

/** A post's unlocks and revenue, for its creator only (anyone else: not found, as for a post they may not know). */
export async function unlockStats(deps: Pick<AppDeps, 'db'>, userId: string, postId: string): Promise<UnlockStatsDto> {
  const post = await findPostOwner(deps.db, postId);
  if (!post || post.creator_id !== userId) throw new TRPCError({ code: 'NOT_FOUND', message: T.postNotFound });
  const stats = await findUnlockStats(deps.db, postId);
  return { postId, unlocks: stats.unlocks, revenue: fromCents(stats.revenueCents) };
}
