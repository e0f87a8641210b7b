import { sql, type RawBuilder } from 'kysely';

/**
 * THE verified badge (issue 22 item 8): a profile shows it when the platform verified it
 * (`is_verified`) or while its Premium is active, as the upgrade card promises ("unlimited links,
 * verified badge, featured listing on the homepage"). `is_premium` is Premium's active state,
 * written by billing in the same transaction that starts or ends the Premium subscription
 * (domain/billing/billing.queries.ts setPremiumFlag), so the badge is read from the profile row
 * in the statement that reads the profile: no query per row.
 *
 * The DTOs' `isVerified` is this badge; `profiles.is_verified` alone is the platform's own check.
 */
export function verifiedBadge(profile: string): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(`${profile}.is_verified`)} or ${sql.ref(`${profile}.is_premium`)})`;
}

/** The same rule over a row that carries both columns (the session's user row). */
export function hasVerifiedBadge(row: { is_verified: boolean; is_premium: boolean }): boolean {
  return row.is_verified || row.is_premium;
}
