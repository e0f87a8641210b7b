import { sql } from 'kysely';
import { withCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import type { ProfileVisibility } from '../../common/enums';
import { isOwnerOnlyProfile } from '../access/access';
import type { EarningsPolicy } from '../earnings/policy';
import { splitPayments } from '../earnings/split';
import { activeSubscriptionWhere } from '../subscriptions/active';

/** A tier with what billing needs of its creator (null for the platform's Premium). */
export async function findTierForBilling(db: DB, tierId: string) {
  const row = await db
    .selectFrom('subscription_tiers as t')
    .leftJoin('profiles as pr', 'pr.id', 't.creator_id')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 't.creator_id')
    .leftJoin('users as cu', 'cu.id', 't.creator_id')
    .select([
      'ps.profile_visibility as creator_visibility',
      'cu.suspended_at as creator_suspended_at',
      't.id',
      't.creator_id',
      't.name',
      't.price_cents',
      't.payment_interval',
      't.discount_percentage',
      't.archived_at',
      'pr.username as creator_username',
      'pr.display_name as creator_display_name',
    ])
    .where('t.id', '=', tierId)
    .executeTakeFirst();
  return row && withCents(row, ['price_cents']);
}
export type BillingTier = NonNullable<Awaited<ReturnType<typeof findTierForBilling>>>;

/**
 * Nobody but the creator may see them (a private or hidden profile, domain/access) or an admin
 * suspended them: no new fan subscribes, and no fan is charged again for them.
 */
export function creatorUnavailable(creator: { creator_visibility: ProfileVisibility | null; creator_suspended_at: Date | null }): boolean {
  return creator.creator_suspended_at !== null || isOwnerOnlyProfile(creator.creator_visibility);
}

/**
 * Serialises billing writes of one fan towards one creator (or Premium) until the transaction
 * ends: two tabs, a double click or a retried request wait for each other, and the second sees
 * what the first wrote.
 */
export async function lockPair(trx: DB, userId: string, creatorId: string | null): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`billing:${userId}:${creatorId ?? 'premium'}`}, 0))`.execute(trx);
}

/** The fan's subscription to the creator (null: Premium) that is active at `at`, if any. */
export async function findActiveSubscriptionToCreator(db: DB, userId: string, creatorId: string | null, at: Date) {
  return db
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_tiers as t', 't.id', 's.tier_id')
    .select(['s.id', 's.tier_id', 's.current_period_end', 's.cancel_at_period_end', 's.next_tier_id', 't.name as tier_name'])
    .where('s.subscriber_id', '=', userId)
    .where((eb) => (creatorId === null ? eb('t.creator_id', 'is', null) : eb('t.creator_id', '=', creatorId)))
    .where(activeSubscriptionWhere('s', at))
    .orderBy('s.current_period_end', 'desc')
    .executeTakeFirst();
}

/** The payment a fan's earlier request with this key made, and its subscription. */
export async function findPaymentByKey(db: DB, userId: string, idempotencyKey: string) {
  return db
    .selectFrom('payments as p')
    .leftJoin('subscriptions as s', 's.id', 'p.subscription_id')
    .select(['p.id', 'p.subscription_id', 'p.tier_id', 'p.purpose', 's.current_period_end'])
    .where('p.user_id', '=', userId)
    .where('p.idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

/**
 * Whether the fan's client key went on a one-off purchase still waiting for its provider (a tip's
 * or unlock's Checkout, ./one-off.ts): such a key is spent, whatever that purchase becomes.
 */
export async function keyPendingAtProvider(db: DB, userId: string, idempotencyKey: string): Promise<boolean> {
  const row = await db.selectFrom('pending_charges').select('id').where('user_id', '=', userId).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
  return row !== undefined;
}

export async function insertPayment(
  db: DB,
  row: {
    /** null: the payer's account was deleted before their money arrived (./duplicate-checkout.ts, refunded) */
    userId: string | null;
    /** null for a tip (no tier is bought) */
    tierId: string | null;
    creatorId: string | null;
    /** null: a charge that bought no subscription (a duplicate checkout, ./duplicate-checkout.ts) */
    subscriptionId: string | null;
    description: string;
    /** the client's key (a UUID the fan's request carries) */
    idempotencyKey: string | null;
    /** or a key the system made (renewals, duplicate checkouts): never in the clients' column */
    systemKey?: string | null;
    /** whole cents */
    amountCents: number;
    provider: string;
    providerRef: string | null;
    status: 'succeeded' | 'failed';
    createdAt: Date;
    /**
     * the fee and hold its split follows (the settings: `earningsPolicy(config)`). Required, so a
     * caller that forgets it does not compile instead of splitting at the defaults.
     */
    earnings: EarningsPolicy;
    /** a tip, with its optional note; absent: a subscription charge */
    tip?: { message: string | null };
    /** the pay-per-view message this charge opens (domain/billing/message-unlock.ts) */
    messageUnlock?: { messageId: string };
    /** what else a charge without a subscription bought (a pay-per-view post: 'post_unlock'; a message bought twice: 'message_unlock' without its id) */
    purpose?: 'post_unlock' | 'message_unlock';
  },
): Promise<string> {
  const inserted = await db
    .insertInto('payments')
    .values({
      user_id: row.userId,
      tier_id: row.tierId,
      creator_id: row.creatorId,
      subscription_id: row.subscriptionId,
      description: row.description,
      idempotency_key: row.idempotencyKey,
      system_key: row.systemKey ?? null,
      amount_cents: row.amountCents,
      currency: 'ZAR',
      provider: row.provider,
      provider_ref: row.providerRef,
      status: row.status,
      created_at: row.createdAt,
      ...(row.tip && { purpose: 'tip' as const, tip_message: row.tip.message }),
      ...(row.messageUnlock && { purpose: 'message_unlock' as const, message_id: row.messageUnlock.messageId }),
      ...(row.purpose && { purpose: row.purpose }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // the ledger's split, in this same transaction (domain/earnings/split.ts)
  await splitPayments(db, [inserted.id], row.earnings);
  return inserted.id;
}

/** is_premium follows the fan's Premium subscription: on at purchase, off once none is active at `at`. */
export async function setPremiumFlag(db: DB, userId: string, at: Date): Promise<boolean> {
  const active = await findActiveSubscriptionToCreator(db, userId, null, at);
  await db.updateTable('profiles').set({ is_premium: Boolean(active), updated_at: at }).where('id', '=', userId).execute();
  return Boolean(active);
}
