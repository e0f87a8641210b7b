import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Verified before selling (issue 47 item 1, docs/payments.md "Verified before selling").
 * `is_identity_verified` stays what the payout account's provider said (Stripe Connect's
 * `account.updated`); `identity_test_verified_at` is the built-in provider's clearly labelled
 * test verification, kept apart so that it never counts once the platform runs on Stripe.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table verification_status add column identity_test_verified_at timestamptz`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`alter table verification_status drop column identity_test_verified_at`.execute(db);
}
