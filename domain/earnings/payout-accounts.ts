import type { DB } from '../../core/db/kysely';
import type { PayoutAccountStatus } from '../../core/db/schema';
import type { PaymentProvider, PayoutAccountState } from '../../core/payments/provider';

/** The creator's payout account as stored, or undefined. */
export function findPayoutAccount(db: DB, userId: string) {
  return db.selectFrom('payout_accounts').select(['provider', 'provider_account_id', 'status', 'updated_at']).where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Writes what the provider says of an account: its status, and Identity verification turned on
 * when the provider has verified the person (never off again here: a later request for more
 * details does not undo a verified identity). Returns whether the account is ours.
 */
export async function recordPayoutAccountState(trx: DB, provider: string, accountId: string, state: PayoutAccountState, now: Date): Promise<boolean> {
  const row = await trx
    .updateTable('payout_accounts')
    .set({ status: state.status, updated_at: now })
    .where('provider', '=', provider)
    .where('provider_account_id', '=', accountId)
    .returning('user_id')
    .executeTakeFirst();
  if (!row) return false;
  if (state.identityVerified) {
    await trx
      .insertInto('verification_status')
      .values({ user_id: row.user_id, is_identity_verified: true, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ is_identity_verified: true, updated_at: now }))
      .execute();
  }
  return true;
}

export interface PayoutAccountSetup {
  status: PayoutAccountStatus;
  /** where the creator goes next (Stripe's hosted onboarding), or null when the account is ready */
  onboardingUrl: string | null;
}

/**
 * Set up payouts (/settings/account/payment): the provider's account for the creator, created
 * once (Stripe: a Connect Express account, its idempotency key from the user), stored, and the
 * onboarding link when details are still needed (Account Links expire: a fresh one each time).
 * Pressing it again after onboarding asks the provider for the account's state now.
 */
export async function setUpPayoutAccount(
  deps: { db: DB; provider: PaymentProvider },
  user: { id: string; email: string },
  urls: { refreshUrl: string; returnUrl: string },
  now: Date,
): Promise<PayoutAccountSetup> {
  const existing = await findPayoutAccount(deps.db, user.id);
  let accountId: string;
  let state: PayoutAccountState;
  if (existing && existing.provider === deps.provider.name) {
    accountId = existing.provider_account_id;
    state = await deps.provider.payoutAccountState(accountId);
  } else {
    ({ accountId, state } = await deps.provider.createPayoutAccount({ userId: user.id, email: user.email }));
  }
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('payout_accounts')
      .values({ user_id: user.id, provider: deps.provider.name, provider_account_id: accountId, status: state.status, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ provider: deps.provider.name, provider_account_id: accountId, status: state.status, updated_at: now }))
      .execute();
    await recordPayoutAccountState(trx, deps.provider.name, accountId, state, now);
  });
  const onboardingUrl = state.status === 'enabled' ? null : await deps.provider.payoutOnboardingUrl(accountId, urls);
  return { status: state.status, onboardingUrl };
}
