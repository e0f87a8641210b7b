import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';

export interface PublicVersions {
  /** what is visible: posts, their files, profiles, privacy, users, tiers */
  data: string;
  /** the counts beside it: likes, comments, subscriptions */
  counts: string;
}

/**
 * The versions of what a visitor may see: the last number any write of a public table took from
 * the `public_data_version` sequence (migrations/20261128_0700_public_data_version.ts), and of the
 * tables that only count, from `public_counts_version` (migrations/20261207_0500_...). Reading a
 * sequence's row is one lock-free page read.
 */
export async function readPublicVersions(db: DB): Promise<PublicVersions> {
  const { rows } = await sql<PublicVersions>`select (select last_value from public_data_version)::text as data, (select last_value from public_counts_version)::text as counts`.execute(db);
  return rows[0]!;
}

/** Both versions as one: a change of what is visible or of a count (the link preview cards show counts). */
export async function readPublicDataVersion(db: DB): Promise<string> {
  const { data, counts } = await readPublicVersions(db);
  return `${data}.${counts}`;
}
