import type { IdentityVerificationDto } from '../../common/selling';
import type { DB } from '../../core/db/kysely';
import { capabilitiesOf } from '../../core/payments/capabilities';
import type { PaymentProviderName } from '../../common/billing-dtos';

/**
 * Verified before selling (issue 47 item 1, docs/payments.md "Verified before selling"). A
 * creator's identity counts as verified when the payout account's provider verified the person
 * (`is_identity_verified`, written from Stripe Connect's `account.updated` by
 * domain/earnings/payout-accounts.ts), or, while the platform runs on the built-in provider, after
 * its labelled test verification. A test verification never counts on Stripe, so switching the
 * platform to real money sends every test-verified creator through Stripe's check.
 */

interface IdentityRow {
  is_identity_verified: boolean | null;
  identity_test_verified_at: Date | null;
  payout_status: IdentityVerificationDto['payoutStatus'];
}

/** The rule, on a row read by `findIdentity` (or any statement that reads the same columns). */
export function identityOf(row: IdentityRow | undefined, provider: PaymentProviderName): IdentityVerificationDto {
  const isTest = capabilitiesOf(provider)?.isTest ?? false;
  const payoutStatus = isTest ? null : (row?.payout_status ?? null);
  if (row?.is_identity_verified) return { verified: true, via: 'provider', provider, payoutStatus };
  if (isTest && row?.identity_test_verified_at) return { verified: true, via: 'test', provider, payoutStatus };
  return { verified: false, via: null, provider, payoutStatus };
}

function findIdentity(db: DB, userId: string): Promise<IdentityRow | undefined> {
  return db
    .selectFrom('users as u')
    .leftJoin('verification_status as v', 'v.user_id', 'u.id')
    .leftJoin('payout_accounts as pa', 'pa.user_id', 'u.id')
    .select(['v.is_identity_verified', 'v.identity_test_verified_at', 'pa.status as payout_status'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

export async function identityVerification(db: DB, userId: string, provider: PaymentProviderName): Promise<IdentityVerificationDto> {
  return identityOf(await findIdentity(db, userId), provider);
}

/** Whether this user may put anything up for sale (a tier, a price on a post or a message) or take tips. */
export async function maySell(db: DB, userId: string, provider: PaymentProviderName): Promise<boolean> {
  return (await identityVerification(db, userId, provider)).verified;
}

/**
 * The built-in provider's test verification: no document is checked (there is no card provider
 * to check one), and the screen says so. Refused on Stripe, whose Connect onboarding checks the
 * person instead. Kept once made: a second press changes nothing.
 */
export async function recordTestVerification(db: DB, userId: string, provider: PaymentProviderName, now: Date): Promise<'verified' | 'not-builtin'> {
  if (!capabilitiesOf(provider)?.isTest) return 'not-builtin';
  await db
    .insertInto('verification_status')
    .values({ user_id: userId, identity_test_verified_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({ identity_test_verified_at: eb.fn.coalesce('verification_status.identity_test_verified_at', eb.val(now)), updated_at: now })),
    )
    .execute();
  return 'verified';
}
