import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Featured creators (and Explore's creator cards) order ties longest-standing first: verified,
 * then Premium (whose upgrade card promises "featured listing on the homepage"), then the
 * creators who have been here longest. A creator who joined a minute ago no longer displaces an
 * established one from the landing page's six, so the strip is the same from one visit to the
 * next until a creator is verified or buys Premium.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`drop index profiles_featured_idx`.execute(db);
  await sql`create index profiles_featured_idx on profiles (is_verified desc, is_premium desc, created_at, id) where is_creator`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index profiles_featured_idx`.execute(db);
  await sql`create index profiles_featured_idx on profiles (is_verified desc, is_premium desc, created_at desc, id desc) where is_creator`.execute(db);
}
