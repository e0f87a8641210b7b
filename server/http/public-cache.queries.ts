import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';

/**
 * The version of what a visitor may see: the last number any write of a public table took from
 * the `public_data_version` sequence (migrations/20261128_0700_public_data_version.ts). Reading a
 * sequence's row is one lock-free page read.
 */
export async function readPublicDataVersion(db: DB): Promise<string> {
  const { rows } = await sql<{ v: string }>`select last_value::text as v from public_data_version`.execute(db);
  return rows[0]!.v;
}
