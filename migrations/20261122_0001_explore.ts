import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Explore (issue 4).
 *
 * - The category chips: a creator matches when any of its categories is chosen
 *   (`categories && array[...]`), which a GIN index on the array serves. Names and post text are
 *   served by the trigram indexes (20261120_0002) and posts_search_idx (20261120_0003).
 * - A text search pages newest first, so the planner chooses between walking posts_feed_idx
 *   until enough posts match (right for common words) and reading the word's matches from
 *   posts_search_idx, then sorting (right for rare ones). With the default statistics it only
 *   knows the ~200 most common words and guesses 0.5% of the posts for any other word, so it
 *   walks the whole feed index for a word that is rare or absent (measured: 30 ms at 100,000
 *   posts, growing with the table). A larger sample of words lets it know rare words are rare.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create index profiles_categories_idx on profiles using gin (categories)`.execute(db);
  await sql`alter table posts alter column search set statistics 1000`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`alter table posts alter column search set statistics -1`.execute(db);
  await sql`drop index profiles_categories_idx`.execute(db);
}
